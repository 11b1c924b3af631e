/**
 * `pnpm bench --pages-deep`: keyset pagination (issue 23, "page 1,000 of every list costs what page
 * 1 costs"), through Quire's HTTP API on a fresh database of the machine's PostgreSQL.
 *
 * Seeds, through the use cases in process (members in SQL, as Seed.ts seeds its users), enough
 * rows for `depth` pages of 2 items in each main listing: spaces of an organization, change
 * requests, comments and revisions (history) of a space, members of an organization, files of a
 * space, and search results of a space. Then starts the server (Servers.ts), follows each
 * listing's cursors from page 1 to page `depth`, and times page 1 against page `depth`
 * (alternating, median of 21 each after a warm-up); goal: page `depth` within 1.5x of page 1.
 */
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { documentHash, type FileNode, type PageNode, SpaceContent, Spaces } from "@quire/content"
import { Database } from "@quire/db"
import { CollabStoredMarkdown } from "@quire/live"
import { Queue, Services } from "@quire/platform"
import { ChangeRequests, Comments } from "@quire/reviews"
import * as Seed from "./Seed.ts"
import * as Servers from "./Servers.ts"

export interface DeepPagesOptions {
  readonly databaseUrl: string
  /** The page compared with page 1. */
  readonly depth: number
}

const limit = 2
const samples = 21
const goal = 1.5
const email = "deep@bench.test"
const token = "quire_bench_deep_pages_token_0123456789"
const searchWord = "keysetpage"

const median = (values: ReadonlyArray<number>) => values.toSorted((a, b) => a - b)[Math.floor(values.length / 2)]!
const ms = (value: number) => value.toFixed(1)

interface Listing {
  readonly name: string
  readonly path: string
  readonly query?: Readonly<Record<string, string>>
  /** Results end before page `depth` by design (search ranks at most `candidateCap` matches): its last page is measured. */
  readonly capped?: boolean
}

/** Writes the rows of every listing; answers the listings to walk. */
const seed = (databaseUrl: string, rows: number, progress: (message: string) => Effect.Effect<void>) =>
  Effect.gen(function*() {
    const spaces = yield* Spaces
    const content = yield* SpaceContent
    const changeRequests = yield* ChangeRequests
    const comments = yield* Comments
    const sql = yield* SqlClient.SqlClient
    const { as, organization } = yield* Seed.benchAdmin(email, token, "Deep pages")
    const org = organization.organization.id
    const at = new Date().toISOString()
    const indexes = Array.from({ length: rows }, (_, i) => i)
    const each = <A, E, R>(label: string, f: (i: number) => Effect.Effect<A, E, R>, concurrency = 4) =>
      Effect.andThen(progress(`pages-deep: seeding ${rows} ${label}`), Effect.forEach(indexes, f, { concurrency, discard: true }))

    const reviewed = (yield* as(spaces.create(org, { title: "Reviewed" }))).space.id
    const large = (yield* as(spaces.create(org, { title: "Many pages and files" }))).space.id
    yield* each("spaces", (i) => as(spaces.create(org, { title: `Space ${i}` })))
    yield* each("change requests", (i) => as(changeRequests.create(reviewed, { subject: `Change ${i}` })))
    yield* each("comments", (i) => as(comments.post({ spaceId: reviewed, changeRequestId: null }, { markdown: `Comment ${i}` })))
    // History: one commit after another (each moves the space by compare-and-set).
    yield* each("commits", (i) =>
      as(content.commit(reviewed, () => {
        const markdown = `Revision ${i}.\n`
        const hash = documentHash(markdown)
        const page: PageNode = { id: "p0", type: "document", title: "Page", slug: "page", document: hash, createdAt: at, updatedAt: at, pages: [] }
        return Effect.succeed({ pages: [page], documents: new Map([[hash, markdown]]) })
      })), 1)
    yield* progress(`pages-deep: seeding ${rows} pages with "${searchWord}" and ${rows} files in one space`)
    yield* as(content.commit(large, () => {
      const documents = new Map<string, string>()
      const pages = indexes.map((i): PageNode => {
        const markdown = `The ${searchWord} of topic ${i}.\n\nSome words about topic ${i}.\n`
        const hash = documentHash(markdown)
        documents.set(hash, markdown)
        return { id: `p${i}`, type: "document", title: `Topic ${i}`, slug: `topic-${i}`, document: hash, createdAt: at, updatedAt: at, pages: [] }
      })
      const files = indexes.map((i): FileNode => ({
        id: `f${i}`, name: `file-${i}.png`, contentType: "image/png", size: 100, blob: documentHash(`file ${i}`)
      }))
      return Effect.succeed({ pages, documents, files })
    }))
    yield* progress(`pages-deep: seeding ${rows} members`)
    yield* sql`
      INSERT INTO identity_users (id, email, display_name, instance_admin, created_at)
      SELECT 'deep_user_' || i, 'deep' || i || '@bench.test', 'Member ' || i, false, now() - i * interval '1 second'
      FROM generate_series(1, ${rows}) AS i`
    yield* sql`
      INSERT INTO identity_members (organization_id, user_id, role, joined_at)
      SELECT ${org}, 'deep_user_' || i, 'read', now() - i * interval '1 second' FROM generate_series(1, ${rows}) AS i`
    yield* sql`ANALYZE`
    const listings: ReadonlyArray<Listing> = [
      { name: "spaces of an organization", path: `/v1/orgs/${org}/spaces` },
      { name: "members of an organization", path: `/v1/orgs/${org}/members` },
      { name: "change requests of a space", path: `/v1/spaces/${reviewed}/change-requests`, query: { status: "draft" } },
      { name: "comments of a space", path: `/v1/spaces/${reviewed}/comments` },
      { name: "revisions of a space (history)", path: `/v1/spaces/${reviewed}/revisions` },
      { name: "files of a space", path: `/v1/spaces/${large}/content/files` },
      { name: "search results of a space (offset, capped)", path: `/v1/spaces/${large}/search`, query: { query: searchWord }, capped: true }
    ]
    return listings
  }).pipe(Effect.provide(Services.layerSql.pipe(Layer.provide([Queue.layerEnqueueOnly, CollabStoredMarkdown.layer]), Layer.provideMerge(Database.layerUrl(databaseUrl)))))

interface ListPage {
  readonly items: ReadonlyArray<unknown>
  readonly next?: { readonly page: string }
}

const getPage = async (baseUrl: string, listing: Listing, page: string | undefined): Promise<ListPage> => {
  const params = new URLSearchParams({ ...listing.query, limit: String(limit), ...(page === undefined ? {} : { page }) })
  const response = await fetch(`${baseUrl}${listing.path}?${params}`, { headers: { authorization: `Bearer ${token}` } })
  const text = await response.text()
  if (response.status !== 200) throw new Error(`${listing.name}: GET ${listing.path} answered ${response.status}: ${text.slice(0, 300)}`)
  return JSON.parse(text) as ListPage
}

const timed = async (f: () => Promise<unknown>) => {
  const start = performance.now()
  await f()
  return performance.now() - start
}

interface Figure {
  readonly listing: string
  readonly first: number
  readonly deep: number
  /** The page compared with page 1: `depth`, or the last page of a capped listing. */
  readonly page: number
  /** Mean latency of the pages walked on the way down. */
  readonly walk: number
}

/** Follows the cursors to page `depth`, then times page 1 and page `depth`, alternating. */
const measure = (baseUrl: string, listing: Listing, depth: number) =>
  Effect.promise(async (): Promise<Figure> => {
    let cursor: string | undefined
    let page = 1
    const walkStart = performance.now()
    for (; page < depth; page++) {
      const next = (await getPage(baseUrl, listing, cursor)).next?.page
      if (next === undefined && listing.capped === true) break
      if (next === undefined) throw new Error(`${listing.name}: page ${page} has no next page`)
      cursor = next
    }
    const walk = (performance.now() - walkStart) / page
    const deep = await getPage(baseUrl, listing, cursor)
    if (deep.items.length === 0) throw new Error(`${listing.name}: page ${page} is empty`)
    const first: Array<number> = []
    const last: Array<number> = []
    for (let i = 0; i < 3; i++) {
      await getPage(baseUrl, listing, undefined)
      await getPage(baseUrl, listing, cursor)
    }
    for (let i = 0; i < samples; i++) {
      first.push(await timed(() => getPage(baseUrl, listing, undefined)))
      last.push(await timed(() => getPage(baseUrl, listing, cursor)))
    }
    return { listing: listing.name, first: median(first), deep: median(last), page, walk }
  })

export const run = (options: DeepPagesOptions, progress: (message: string) => Effect.Effect<void>) =>
  Effect.scoped(Effect.gen(function*() {
    const depth = Math.max(2, options.depth)
    // Page `depth` of `limit` items exists with (depth - 1) * limit + 1 rows; a few more.
    const rows = depth * limit + 10
    const seedStart = performance.now()
    const listings = yield* seed(options.databaseUrl, rows, progress)
    const seedSeconds = (performance.now() - seedStart) / 1000
    const server = yield* Servers.start("quire (postgres)", {
      server: "quire",
      backend: { kind: "postgres", url: options.databaseUrl },
      adminToken: token,
      adminEmail: email
    })
    const figures: Array<Figure> = []
    for (const listing of listings) {
      yield* progress(`pages-deep: ${listing.name}, following the cursors to page ${depth}`)
      figures.push(yield* measure(server.baseUrl, listing, depth))
    }
    const header = ["listing", "page 1 ms", "page", "its ms", "ratio", "walk ms/page", `goal <= ${goal}x`]
    const body = figures.map((f) => {
      const ratio = f.deep / f.first
      return [f.listing, ms(f.first), String(f.page), ms(f.deep), ratio.toFixed(2), ms(f.walk), ratio <= goal ? "PASS" : "MISS"]
    })
    const widths = header.map((h, i) => Math.max(h.length, ...body.map((r) => r[i]!.length)))
    const line = (cells: ReadonlyArray<string>) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join("  ")
    return [
      `Keyset pagination on PostgreSQL over HTTP: limit=${limit}, page 1 vs page ${depth} (median of ${samples} each, alternating); ` +
      `${rows} rows per listing seeded in ${seedSeconds.toFixed(0)} s`,
      "",
      line(header),
      widths.map((w) => "-".repeat(w)).join("  "),
      ...body.map(line)
    ].join("\n")
  }))
