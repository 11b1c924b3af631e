/**
 * `pnpm bench --sites`: published docs sites (issue 9, "Performance"), side by side in one run.
 *
 * On each backend (PostgreSQL, embedded PGlite), the built server's administrator and organization
 * (on PostgreSQL seeded as the HTTP comparison seeds them, Seed.ts; on a new PGlite directory made
 * through the API); then, through Quire's API, a space gets 1,000 pages in
 * 20 requests of 50 changes (40 chapters of 4 sections of 5 pages) on a change request that is
 * merged, and a site showing it is created and published. Then:
 * - a cached published page: the home page of that site, warm, the same URL under autocannon (50
 *   connections), without and with `If-None-Match` (304), against a plain node:http server
 *   answering the same status, headers and bytes from memory (StaticServer.ts), in alternating
 *   rounds; target at least 0.5 of its requests per second and p99 under 25 ms. The same for a
 *   25-page site seeded alike, whose pages carry a small sidebar, to tell the cost per byte from
 *   the cost per request; on PostgreSQL, the database's transactions per cached request;
 * - uncached pages: every other page of the space requested once, one at a time (each misses the
 *   renderer's cache), end-to-end latency and the server's CPU per page; target median under 30 ms.
 * In process, on the memory adapters, with a 1,000-page revision of 20 groups of 5 chapters of
 * 1 + 9 pages:
 * - the server-side time of `SiteRenderer.render` for each of the 999 uncached pages, and of the
 *   markdown alone (`Markdown.renderPage`), to tell the page's markdown from the rest;
 * - the navigation: `render` of a not-found path (the sidebar tree of the whole space, built and
 *   laid out once per revision in the warm-up, marked for the page; no markdown: the renderer's
 *   navigation step with the revision read and the chrome around it, uncached), next to the same
 *   on a 1-page space; target under 50 ms.
 */
import { Effect, Layer, Option } from "effect"
import { writeFile } from "node:fs/promises"
import pg from "pg"
import { join } from "node:path"
import { type PageNode, documentHash, SpaceContent, Spaces } from "@quire/content"
import { Database } from "@quire/db"
import { CollabStoredMarkdown } from "@quire/live"
import { Queue, Services } from "@quire/platform"
import { CodeHighlighter, MarkdownRender as Markdown, PublishedSites, SiteRenderer, Sites } from "@quire/sites"
import * as Load from "./Load.ts"
import * as ProfileSummary from "./ProfileSummary.ts"
import * as Scratch from "./Scratch.ts"
import * as Seed from "./Seed.ts"
import * as Servers from "./Servers.ts"

export interface SitesBenchOptions {
  readonly load: Load.LoadOptions
  readonly backends: ReadonlySet<string>
  readonly adminUrl: string
  /** Where CPU profiles of Quire go (cached load, the uncached pass); none when undefined. */
  readonly profileDir?: string | undefined
  /** Chapters of 25 pages of the published space (40). */
  readonly chapters?: number | undefined
  /**
   * The sites record insights and ask for feedback (`--sites-insights`): their pages carry the
   * insights script, and each cached-page request is followed by the page's beacon (`~insights`,
   * a page view), as a reader's browser sends it; the events written are counted after the load.
   */
  readonly insights?: boolean | undefined
  /** Built servers that others use too (the smoke's), for their backend instead of one of its own. */
  readonly embedded?: Effect.Effect<Servers.Running, Servers.ServerError> | undefined
  readonly postgres?: Effect.Effect<Servers.OnPostgres, unknown> | undefined
}

const targets = {
  cachedRatio: 0.5,
  cachedP99: 25,
  uncachedMedian: 30,
  navigation: 50
} as const

// ---------------------------------------------------------------------------------------------
// Content

const words = ("site page space reader section group content revision search theme render cache request server " +
  "token change merge publish audience visitor claim header footer sidebar table code block hint link file " +
  "image layout style color font index query result answer order route value field schema model record")
  .split(" ")

/**
 * A documentation page of about 3 KB: a lead, three sections with a list, a table, a hint, a
 * code block (TypeScript or bash, highlighted) and links to sibling pages.
 */
const markdownOf = (n: number, siblings: ReadonlyArray<string>): string => {
  const { word, sentence, paragraph, link } = Seed.prose(Seed.random(n + 1), words, siblings, ".md")
  const parts = [paragraph(), `See ${link()} and [the guide](https://example.com/${word()}).`]
  for (let s = 0; s < 3; s++) {
    parts.push(`## The ${word()} ${word()} ${s + 1}`, paragraph())
    if (s === 0) parts.push(["- **First**: " + sentence(), "- Second: `" + word() + "` " + sentence(), "- Third: " + link()].join("\n"))
    if (s === 1) {
      parts.push(n % 2 === 0
        ? `\`\`\`typescript\nconst ${word()} = await client.${word()}({ id: "${n}", limit: ${n % 50} })\nif (${word()}.ok) console.log(${word()}.value)\n\`\`\``
        : `\`\`\`bash\nquire ${word()} --${word()} ${n} | grep ${word()}\n\`\`\``)
      parts.push(`| Name | Value | Notes |\n| --- | --- | --- |\n| ${word()} | ${n} | ${sentence()} |\n| ${word()} | ${n * 2} | ${sentence()} |`)
    }
    if (s === 2) parts.push(`{% hint style="info" %}\n${sentence()}\n{% endhint %}`)
  }
  return `${parts.join("\n\n")}\n`
}

// ---------------------------------------------------------------------------------------------
// Seeding through the API

interface SeededSite {
  readonly siteId: string
  readonly sitePath: string
  /** Page paths below the site, in reading order; the first is the home page (`""`). */
  readonly pages: ReadonlyArray<string>
  readonly requests: number
  readonly seconds: number
}

const sectionsPerChapter = 4
const pagesPerSection = 5

const api = (baseUrl: string) => {
  let requests = 0
  const admin = Seed.adminCall(baseUrl)
  const call = <A>(method: string, path: string, body?: unknown): Promise<A> => {
    requests++
    return admin<A>(method, path, body)
  }
  return { call, requests: () => requests }
}

/** A space of `chapters` × 25 pages (1,000 by default), a site showing it, published: 6 + chapters / 2 requests to Quire's API. */
const seedSite = (baseUrl: string, organizationId: string, chapters = 40, insights = false) =>
  Effect.promise(async (): Promise<SeededSite> => {
    const started = performance.now()
    const { call, requests } = api(baseUrl)
    const space = await call<{ id: string }>("POST", `/v1/orgs/${organizationId}/spaces`, { title: `${chapters * 25} pages` })
    const cr = await call<{ id: string }>("POST", `/v1/spaces/${space.id}/change-requests`, { subject: "Import the docs" })
    const paths: Array<string> = []
    let n = 0
    for (let c = 0; c < chapters; c += 2) {
      const changes: Array<unknown> = []
      for (const chapter of [c, c + 1].filter((n) => n < chapters)) {
        const chapterPath = `chapter-${chapter}`
        const sectionSlugs = Array.from({ length: sectionsPerChapter }, (_, s) => `section-${s}`)
        changes.push({
          operation: "insert_page", ref: `c${chapter}`, title: `Chapter ${chapter}`, slug: chapterPath,
          document: { markdown: markdownOf(n++, [chapterPath]) }
        })
        paths.push(chapterPath)
        for (let s = 0; s < sectionsPerChapter; s++) {
          changes.push({
            operation: "insert_page", ref: `c${chapter}s${s}`, into: `c${chapter}`, title: `Section ${chapter}.${s}`,
            slug: `section-${s}`, document: { markdown: markdownOf(n++, sectionSlugs) }
          })
          paths.push(`${chapterPath}/section-${s}`)
          const pageSlugs = Array.from({ length: pagesPerSection }, (_, p) => `page-${p}`)
          for (let p = 0; p < pagesPerSection; p++) {
            changes.push({
              operation: "insert_page", into: `c${chapter}s${s}`, title: `Page ${chapter}.${s}.${p}`, slug: `page-${p}`,
              document: { markdown: markdownOf(n++, pageSlugs.filter((slug) => slug !== `page-${p}`)) }
            })
            paths.push(`${chapterPath}/section-${s}/page-${p}`)
          }
        }
      }
      await call("POST", `/v1/spaces/${space.id}/change-requests/${cr.id}/content`, { changes })
    }
    await call("POST", `/v1/spaces/${space.id}/change-requests/${cr.id}/merge`)
    const site = await call<{ id: string }>("POST", `/v1/orgs/${organizationId}/sites`, { title: `Bench docs (${chapters * 25} pages)`, spaces: [space.id] })
    if (insights) {
      await call("PUT", `/v1/orgs/${organizationId}/sites/${site.id}/customization`, { insights: { trackingCookie: false }, feedback: { enabled: true } })
    }
    await call("POST", `/v1/orgs/${organizationId}/sites/${site.id}/publish`)
    // The first page lives at the site's root.
    return {
      siteId: site.id,
      sitePath: `/~sites/${site.id}/`,
      pages: ["", ...paths.slice(1)],
      requests: requests(),
      seconds: (performance.now() - started) / 1000
    }
  })

// ---------------------------------------------------------------------------------------------
// Measuring

const percentile = (sorted: ReadonlyArray<number>, p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!

interface Spread {
  readonly median: number
  readonly p95: number
  readonly max: number
}

const spread = (values: ReadonlyArray<number>): Spread => {
  const sorted = values.toSorted((a, b) => a - b)
  return { median: percentile(sorted, 50), p95: percentile(sorted, 95), max: sorted[sorted.length - 1] ?? 0 }
}

interface CachedFigures {
  readonly page: string
  /** The page's HTML, in bytes. */
  readonly bytes: number
  readonly conditional: boolean
  readonly baseline: Load.Measurement
  readonly quire: Load.Measurement
}

interface BackendFigures {
  readonly backend: string
  readonly seed: SeededSite
  readonly cached: ReadonlyArray<CachedFigures>
  readonly uncached: { readonly latency: Spread; readonly cpuPerPage: number; readonly pages: number; readonly failures: number }
  readonly profiles: ReadonlyArray<string>
  /** PostgreSQL transactions (one per statement outside a transaction) per cached page request. */
  readonly statements: number | undefined
  /** With insights on: the page views the sites' insights hold after the load. */
  readonly recorded: number | undefined
}

/** A page view of the site at `siteUrl`, as the page's insights script posts it. */
const beaconOf = (siteUrl: string, sitePath: string) => ({
  method: "POST" as const,
  path: `${sitePath}~insights`,
  body: JSON.stringify({ events: [{ type: "page_view", url: siteUrl }] }),
  headers: { "content-type": "application/json" }
})

/** The page views the sites' insights hold (the recorder's queue is written before an aggregation answers). */
const eventsRecorded = (baseUrl: string, organizationId: string, siteIds: ReadonlyArray<string>) =>
  Effect.promise(async () => {
    const admin = Seed.adminCall(baseUrl)
    let total = 0
    for (const siteId of siteIds) {
      const result = await admin<{ columns: Array<{ values: Array<number> }> }>("POST", `/v1/orgs/${organizationId}/sites/${siteId}/insights/events/aggregate`, {
        range: "last24Hours",
        where: [{ column: "eventType", values: ["page_view"] }],
        select: [{ column: "eventsCount" }]
      })
      total += result.columns[0]?.values[0] ?? 0
    }
    return total
  })

/** Quire's answer for the page, to serve it again from memory. */
const capture = (url: string) =>
  Effect.promise(async () => {
    const response = await fetch(url)
    const body = await response.text()
    if (response.status !== 200) throw new Error(`GET ${url} answered ${response.status}: ${body.slice(0, 300)}`)
    const headers: Record<string, string> = {}
    response.headers.forEach((value, name) => {
      if (!["date", "connection", "keep-alive", "content-length", "transfer-encoding"].includes(name)) headers[name] = value
    })
    return { headers, body }
  })

/**
 * What a cached page costs the database: the database's committed transactions (each statement
 * outside a transaction commits one) over `requests` sequential requests of `url`, less what the
 * server commits without requests (its job queue's polling) over as long, per request. The idle
 * rate is measured over six seconds: measured over a window as short as the requests' (a second or
 * two), one poll more or less in it moved the figure by ±1 a request, below zero too.
 */
const transactionsPerRequest = (databaseUrl: string, url: string, requests: number) =>
  Effect.promise(async () => {
    const client = new pg.Client({ connectionString: databaseUrl })
    await client.connect()
    // Statistics are flushed by backends at most once a second, and cleared from the snapshot per transaction.
    const committed = async () => {
      await new Promise((resolve) => setTimeout(resolve, 1_500))
      await client.query("SELECT pg_stat_clear_snapshot()")
      const result = await client.query<{ n: string }>("SELECT xact_commit AS n FROM pg_stat_database WHERE datname = current_database()")
      return { n: Number(result.rows[0]!.n), at: performance.now() }
    }
    try {
      const idleFrom = await committed()
      await new Promise((resolve) => setTimeout(resolve, 4_500))
      const idleTo = await committed()
      // Each reading commits two transactions of this client's own, counted by the next.
      const idlePerMs = (idleTo.n - idleFrom.n - 2) / (idleTo.at - idleFrom.at)
      const before = await committed()
      for (let i = 0; i < requests; i++) await (await fetch(url)).arrayBuffer()
      const after = await committed()
      return (after.n - before.n - 2 - idlePerMs * (after.at - before.at)) / requests
    } finally {
      await client.end()
    }
  })

/** Each of `paths` once, one at a time: latency per page and the server's CPU per page. */
const uncachedPass = (quire: Servers.Running, sitePath: string, paths: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    const cpuBefore = yield* quire.cpuMicros
    const { times, failures } = yield* Effect.promise(async () => {
      const times: Array<number> = []
      let failures = 0
      for (const path of paths) {
        const start = performance.now()
        const response = await fetch(`${quire.baseUrl}${sitePath}${path}`)
        await response.arrayBuffer()
        times.push(performance.now() - start)
        if (response.status !== 200) failures++
      }
      return { times, failures }
    })
    const cpuAfter = yield* quire.cpuMicros
    return { latency: spread(times), cpuPerPage: (cpuAfter - cpuBefore) / 1000 / paths.length, pages: paths.length, failures }
  })

/**
 * The built server for `backend` and an organization of the administrator there: the shared one
 * when given, else its own on a new database (PostgreSQL seeded in process, as --http's is).
 */
const serverFor = (backend: string, options: SitesBenchOptions, progress: (message: string) => Effect.Effect<void>) =>
  Effect.gen(function*() {
    if (backend === "postgres") {
      const shared = options.postgres === undefined ? undefined : yield* options.postgres
      const url = shared?.databaseUrl ?? (yield* Scratch.postgresDatabase(options.adminUrl))
      const seeded = shared === undefined ? yield* progress(`sites: seeding ${url}`).pipe(Effect.andThen(Seed.seed(Database.layerUrl(url)))) : undefined
      const quire = shared?.server ??
        (yield* Servers.start(`quire (${backend})`, { server: "quire", backend: { kind: "postgres", url }, adminToken: Seed.adminToken, adminEmail: Seed.adminEmail }))
      return { quire, databaseUrl: url as string | undefined, organizationId: seeded?.organizationId ?? (yield* Seed.organization(quire.baseUrl)) }
    }
    if (options.embedded !== undefined) {
      const quire = yield* options.embedded
      return { quire, databaseUrl: undefined, organizationId: yield* Seed.organization(quire.baseUrl) }
    }
    const dataDir = join(yield* Scratch.directory, "quire")
    yield* progress(`sites: a new embedded database in ${dataDir}`)
    const quire = yield* Servers.start(`quire (${backend})`, { server: "quire", backend: { kind: "embedded", dataDir }, adminToken: Seed.adminToken, adminEmail: Seed.adminEmail })
    return { quire, databaseUrl: undefined, organizationId: yield* Seed.organization(quire.baseUrl) }
  })

const measureBackend = (
  backend: string,
  options: SitesBenchOptions,
  progress: (message: string) => Effect.Effect<void>
) =>
  Effect.scoped(Effect.gen(function*() {
    const { quire, databaseUrl, organizationId } = yield* serverFor(backend, options, progress)
    yield* progress(`sites (${backend}): seeding ${(options.chapters ?? 40) * 25} pages, a site and its publication through the API`)
    const seed = yield* seedSite(quire.baseUrl, organizationId, options.chapters, options.insights)
    yield* progress(`sites (${backend}): seeded in ${seed.seconds.toFixed(1)} s, ${seed.requests} requests`)

    const small = yield* seedSite(quire.baseUrl, organizationId, 1, options.insights)
    const cached: Array<CachedFigures> = []
    const profiles: Array<string> = []
    const scratch = yield* Scratch.directory
    for (const [site, label] of [[seed, `${(options.chapters ?? 40) * 25}-page site`], [small, "25-page site"]] as const) {
      const stored = yield* capture(`${quire.baseUrl}${site.sitePath}`)
      const file = join(scratch, `page-${site.siteId}.json`)
      yield* Effect.promise(() => writeFile(file, JSON.stringify(stored)))
      const baseline = yield* Servers.start(`node:http from memory (${backend})`, {
        server: "static",
        backend: { kind: "memory" },
        adminToken: Seed.adminToken,
        adminEmail: Seed.adminEmail,
        staticResponse: file
      })
      const etag = stored.headers["etag"]
      if (options.insights === true && !stored.body.includes("data-insights-views")) throw new Error(`the ${label} records no insights`)
      // With insights on, each page read is followed by its beacon, as a reader's browser sends it.
      const followedBy = options.insights === true ? [beaconOf(`${quire.baseUrl}${site.sitePath}`, site.sitePath)] : undefined
      const endpoints: ReadonlyArray<Load.Endpoint & { readonly conditional: boolean }> = [
        // Readers of a published page send no API token (captured above without one too).
        { name: `home page of the ${label}`, path: site.sitePath, conditional: false, anonymous: true, followedBy },
        ...(etag === undefined
          ? []
          : [{
            name: `home page of the ${label}, If-None-Match`,
            path: site.sitePath,
            headers: { "if-none-match": etag },
            notModified: true,
            conditional: true,
            anonymous: true,
            followedBy
          }])
      ]
      for (const endpoint of endpoints) {
        const [b, q] = yield* Load.compare([baseline, quire], endpoint, Seed.adminToken, options.load, progress)
        cached.push({ page: label, bytes: Buffer.byteLength(stored.body), conditional: endpoint.conditional, baseline: b!, quire: q! })
        if (options.profileDir !== undefined) {
          const profile = join(options.profileDir, `sites-${backend}-${site.pages.length}-${endpoint.conditional ? "304" : "200"}.cpuprofile`)
          yield* progress(`sites (${backend}): profiling Quire, ${endpoint.name}`)
          const seconds = options.load.duration / options.load.rounds
          yield* Load.sample(quire, endpoint, Seed.adminToken, options.load.connections, seconds).pipe(quire.profiled(profile))
          profiles.push(`Quire (${backend}), ${endpoint.name} (${profile}):\n${yield* Effect.promise(() => ProfileSummary.summarize(profile, q!.cpuPerRequest))}`)
        }
      }
    }

    // 1,000 requests under the default 10 s of load; 100 per second of load, at least 20 (the smoke's).
    const statements = databaseUrl !== undefined
      ? yield* transactionsPerRequest(databaseUrl, `${quire.baseUrl}${seed.sitePath}`, Math.max(20, Math.round(100 * options.load.duration)))
      : undefined

    yield* progress(`sites (${backend}): ${seed.pages.length - 1} uncached pages, one at a time`)
    const others = seed.pages.slice(1)
    let uncached: BackendFigures["uncached"]
    if (options.profileDir !== undefined) {
      const profile = join(options.profileDir, `sites-${backend}-uncached.cpuprofile`)
      uncached = yield* uncachedPass(quire, seed.sitePath, others).pipe(quire.profiled(profile))
      profiles.push(`Quire (${backend}), uncached pages (${profile}):\n${yield* Effect.promise(() => ProfileSummary.summarize(profile, uncached.cpuPerPage * 1000))}`)
    } else {
      uncached = yield* uncachedPass(quire, seed.sitePath, others)
    }
    const recorded = options.insights === true ? yield* eventsRecorded(quire.baseUrl, organizationId, [seed.siteId, small.siteId]) : undefined
    return { backend, seed, cached, uncached, profiles, statements, recorded } satisfies BackendFigures
  }))

// ---------------------------------------------------------------------------------------------
// In process: the renderer itself

interface InProcessFigures {
  readonly render: Spread
  readonly markdown: Spread
  readonly navigation: Spread
  readonly navigationOnePage: Spread
  readonly pages: number
}

/** `groups` groups (20 by default) of 5 chapters of 1 + 9 pages: 50 documents a group, 1,000 by default. */
const revisionPages = (at: string, groupCount = 20) => {
  const documents = new Map<string, string>()
  const paths: Array<string> = []
  let n = 0
  const page = (slug: string, title: string, siblings: ReadonlyArray<string>, children: Array<PageNode>): PageNode => {
    const markdown = markdownOf(n, siblings)
    const hash = documentHash(markdown)
    documents.set(hash, markdown)
    return { id: `p${n++}`, type: "document", title, slug, document: hash, createdAt: at, updatedAt: at, pages: children }
  }
  const groups: Array<PageNode> = []
  for (let g = 0; g < groupCount; g++) {
    const chaptersOf: Array<PageNode> = []
    for (let c = 0; c < 5; c++) {
      const slugs = Array.from({ length: 9 }, (_, p) => `page-${p}`)
      const chapter = page(`chapter-${c}`, `Chapter ${g}.${c}`, [], [])
      const chapterPath = `part-${g}/chapter-${c}`
      paths.push(chapterPath)
      const children = slugs.map((slug, p) => {
        paths.push(`${chapterPath}/${slug}`)
        return page(slug, `Page ${g}.${c}.${p}`, slugs.filter((s) => s !== slug), [])
      })
      chaptersOf.push({ ...chapter, pages: children })
    }
    groups.push({ id: `g${g}`, type: "group", title: `Part ${g}`, slug: `part-${g}`, createdAt: at, updatedAt: at, pages: chaptersOf })
  }
  return { pages: groups, documents, paths }
}

const timeIt = async (f: () => Promise<unknown>): Promise<number> => {
  const start = performance.now()
  await f()
  return performance.now() - start
}

/** The renderer in process on a revision of `groups` groups of 50 pages (20: 1,000 pages). */
const inProcess = (groups: number, progress: (message: string) => Effect.Effect<void>) =>
  Effect.gen(function*() {
    const spaces = yield* Spaces
    const content = yield* SpaceContent
    const sites = yield* Sites
    const published = yield* PublishedSites
    const renderer = yield* SiteRenderer
    const { as, organization } = yield* Seed.benchAdmin("sites@bench.test", "quire_bench_sites_token_0123456789", "Sites bench")
    const org = organization.organization.id
    const at = new Date().toISOString()

    const siteOf = (title: string, pages: ReadonlyArray<PageNode>, documents: ReadonlyMap<string, string>) =>
      Effect.gen(function*() {
        const space = (yield* as(spaces.create(org, { title }))).space.id
        yield* as(content.commit(space, () => Effect.succeed({ pages, documents })))
        const site = (yield* as(sites.create(org, { title, spaces: [space] }))).site.id
        yield* as(sites.publish(org, site))
        const found = yield* published.byId(site)
        if (Option.isNone(found)) return yield* Effect.die(new Error(`site ${site} is not published`))
        return found.value
      })
    const large = revisionPages(at, groups)
    const big = yield* siteOf(`${large.paths.length} pages`, large.pages, large.documents)
    const single = revisionPages(at, 1)
    const one = yield* siteOf("One page", [single.pages[0]!.pages[0]!], single.documents)

    const render = (site: typeof big, path: string) =>
      renderer.render({ site, root: `http://sites.bench.test/~sites/${site.site.id}/`, path, query: new URLSearchParams(), claims: {}, noindex: false })
    const timed = (site: typeof big, path: string, expect: string) =>
      Effect.gen(function*() {
        const start = performance.now()
        const answer = yield* render(site, path)
        const ms = performance.now() - start
        if (answer.kind !== "Html" || (expect === "page") !== (answer.status === 200)) {
          return yield* Effect.die(new Error(`${path}: unexpected ${JSON.stringify(answer).slice(0, 300)}`))
        }
        return ms
      })

    yield* progress(`sites (in process): navigation of ${large.paths.length} pages (not-found paths, uncached)`)
    // Warm-up: JIT, the layout's stylesheet, the highlighter's grammars (on a 1-page site, so the large one stays uncached).
    // 30 warm-ups and 100 measured paths, fewer on a revision under 1,000 pages (5 of each per 50 pages: the smoke's 50).
    const runs = Math.min(100, 5 * groups)
    for (let i = 0; i < Math.min(30, runs); i++) {
      yield* timed(one, `~missing-warm-${i}`, "404")
      yield* timed(big, `~missing-warm-${i}`, "404")
    }
    const oneHome = yield* render(one, "")
    if (oneHome.kind !== "Html") return yield* Effect.die(new Error("the 1-page site has no home page"))
    const navigation: Array<number> = []
    const navigationOnePage: Array<number> = []
    for (let i = 0; i < runs; i++) {
      navigation.push(yield* timed(big, `~missing-${i}`, "404"))
      navigationOnePage.push(yield* timed(one, `~missing-${i}`, "404"))
    }

    yield* progress(`sites (in process): ${large.paths.length - 1} uncached pages`)
    const renders: Array<number> = []
    for (const path of large.paths.slice(1)) renders.push(yield* timed(big, path, "page"))

    yield* progress("sites (in process): the same pages' markdown alone")
    const options: Markdown.RenderOptions = {
      resolveLink: (url) => (/^https?:/.test(url) ? undefined : `/docs/${url.replace(/\.md(?=#|$)/, "")}`),
      resolveFile: (ref) => ({ url: `/files/${encodeURIComponent(ref)}`, name: ref }),
      // The server's highlighter, as the pages above had it.
      highlighter: yield* CodeHighlighter
    }
    const markdowns = [...large.documents.values()]
    const markdownTimes = yield* Effect.promise(async () => {
      const times: Array<number> = []
      for (const markdown of markdowns.slice(1)) times.push(await timeIt(() => Markdown.renderPage(markdown, options)))
      return times
    })
    return {
      render: spread(renders),
      markdown: spread(markdownTimes),
      navigation: spread(navigation),
      navigationOnePage: spread(navigationOnePage),
      pages: renders.length
    } satisfies InProcessFigures
  }).pipe(Effect.provide(Services.layerMemory.pipe(Layer.provide([Queue.layerEnqueueOnly, CollabStoredMarkdown.layer]))))

// ---------------------------------------------------------------------------------------------
// Report

const verdict = (pass: boolean) => (pass ? "PASS" : "MISS")
const fixed = (n: number, digits = 1) => n.toFixed(digits)

const table = (header: ReadonlyArray<string>, rows: ReadonlyArray<ReadonlyArray<string>>): string => {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)))
  const line = (cells: ReadonlyArray<string>) => cells.map((c, i) => (i === 0 || (i === 1 && header[1] === "page") ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join("  ")
  return [line(header), widths.map((w) => "-".repeat(w)).join("  "), ...rows.map(line)].join("\n")
}

export const run = (options: SitesBenchOptions, progress: (message: string) => Effect.Effect<void>) =>
  Effect.gen(function*() {
    const started = Date.now()
    const figures: Array<BackendFigures> = []
    for (const backend of ["postgres", "embedded"]) {
      if (options.backends.has(backend)) figures.push(yield* measureBackend(backend, options, progress))
    }
    // The in-process revision is as large as the published space (chapters of 25 pages).
    const local = yield* inProcess(Math.max(1, Math.round((options.chapters ?? 40) / 2)), progress)

    const load = options.load
    const lines: Array<string> = [
      `Published sites: cached page at ${load.connections} connections, ${load.duration} s per target in ${load.rounds} ` +
      `alternating rounds after ${load.warmup} s of warm-up; total ${((Date.now() - started) / 1000).toFixed(0)} s`,
      ...(options.insights === true
        ? ["Insights on: the pages carry the insights script and feedback box; each page request is followed by its beacon (POST ~insights), counted with it (the baseline answers the beacon with the page)."]
        : []),
      ""
    ]
    const loadRows: Array<Array<string>> = []
    for (const f of figures) {
      for (const c of f.cached) {
        for (const m of [c.baseline, c.quire]) {
          loadRows.push([
            m.target,
            `${c.page} (${(c.bytes / 1024).toFixed(0)} KB)`,
            c.conditional ? "304 (If-None-Match)" : "200",
            fixed(m.requestsPerSecond, 0),
            fixed(m.p50),
            fixed(m.p99),
            fixed(m.cpuPerRequest, 0),
            fixed(m.requestsPerSecond / c.baseline.requestsPerSecond, 2),
            String(m.failures)
          ])
        }
      }
    }
    lines.push(table(["target", "page", "answer", "req/s", "p50 ms", "p99 ms", "CPU µs/req", "vs baseline", "failed"], loadRows), "")

    const targetRows: Array<Array<string>> = []
    for (const f of figures) {
      for (const c of f.cached) {
        const what = `cached page, ${c.page}${c.conditional ? ", 304" : ""} (${f.backend})`
        const ratio = c.quire.requestsPerSecond / c.baseline.requestsPerSecond
        targetRows.push([`${what}: req/s vs node:http`, fixed(ratio, 2), `>= ${targets.cachedRatio}`, verdict(ratio >= targets.cachedRatio)])
        targetRows.push([`${what}: p99 ms`, fixed(c.quire.p99), `< ${targets.cachedP99}`, verdict(c.quire.p99 < targets.cachedP99)])
      }
      const u = f.uncached
      targetRows.push([
        `uncached page (${f.backend}): end-to-end median ms (p95 ${fixed(u.latency.p95)}, max ${fixed(u.latency.max)}, ${u.pages} pages, ${u.failures} failed)`,
        fixed(u.latency.median),
        `< ${targets.uncachedMedian}`,
        verdict(u.latency.median < targets.uncachedMedian && u.failures === 0)
      ])
      targetRows.push([`uncached page (${f.backend}): server CPU ms per page (mean)`, fixed(u.cpuPerPage), "", ""])
    }
    targetRows.push([
      `uncached page (in process): SiteRenderer.render median ms (p95 ${fixed(local.render.p95)}, ${local.pages} pages)`,
      fixed(local.render.median),
      `< ${targets.uncachedMedian}`,
      verdict(local.render.median < targets.uncachedMedian)
    ])
    targetRows.push([`  of which the page's markdown alone (Markdown.renderPage) median ms (p95 ${fixed(local.markdown.p95)})`, fixed(local.markdown.median), "", ""])
    targetRows.push([
      `navigation of ${local.pages + 1} pages (in process, render of a not-found path) median ms (p95 ${fixed(local.navigation.p95)})`,
      fixed(local.navigation.median),
      `< ${targets.navigation}`,
      verdict(local.navigation.median < targets.navigation)
    ])
    targetRows.push([`  the same on a 1-page space (the fixed part) median ms`, fixed(local.navigationOnePage.median), "", ""])
    lines.push(table(["figure", "value", "target", ""], targetRows), "")
    for (const f of figures) {
      lines.push(`Seeding (${f.backend}): ${(options.chapters ?? 40) * 25} pages, a site and its publication in ${f.seed.requests} API requests, ${fixed(f.seed.seconds)} s`)
    }
    for (const f of figures) {
      if (f.statements !== undefined) lines.push(`Database (${f.backend}): ${fixed(f.statements, 2)} transactions per cached page request`)
    }
    for (const f of figures) {
      if (f.recorded !== undefined) lines.push(`Insights (${f.backend}): ${f.recorded} page views recorded from the beacons, written in batches off the request path`)
    }
    for (const f of figures) for (const p of f.profiles) lines.push("", p)
    return yield* Load.unlessFailed(lines.join("\n"), figures.flatMap((f) => [
      ...f.cached.flatMap((c) => [c.baseline, c.quire]).map((m) => ({ what: `${m.target}, ${m.endpoint}`, failures: m.failures })),
      { what: `uncached pages (${f.backend})`, failures: f.uncached.failures }
    ]))
  })

// ---------------------------------------------------------------------------------------------
// A large site: `pnpm bench --sites-large`

export interface LargeSiteOptions {
  readonly adminUrl: string
  /** Pages of the space, in groups of 50 (10,000 by default). */
  readonly pages: number
  /** Where CPU profiles of Quire go (navigation, uncached pages); none when undefined. */
  readonly profileDir?: string | undefined
}

const largeToken = "quire_bench_large_site_token_0123456789"

/**
 * A space of `pages` pages (groups of 5 chapters of 1 + 9 pages of about 3 KB, one commit per
 * group as an import writes them) published as a site, on a fresh PostgreSQL database, seeded
 * through the use cases in process; then the built server (Servers.ts) answers, one request at a
 * time: the first page, cold (the revision read, its sidebar tree built, laid out and encoded, which
 * every later page of the revision shares, and the JIT and grammars warming; no target), the navigation (a not-found path of the site: the
 * sidebar of the whole space marked for the page, no markdown; 100 paths, each uncached; target
 * median under 50 ms) and uncached pages (500 pages spread over the space, each requested once;
 * target median under 30 ms), end to end.
 */
export const runLarge = (options: LargeSiteOptions, progress: (message: string) => Effect.Effect<void>) =>
  Effect.scoped(Effect.gen(function*() {
    const url = yield* Scratch.postgresDatabase(options.adminUrl)
    const groupCount = Math.max(1, Math.round(options.pages / 50))
    const at = new Date().toISOString()
    const large = revisionPages(at, groupCount)
    const seedStart = performance.now()
    yield* progress(`sites-large: seeding ${large.paths.length} pages in ${url}`)
    const siteId = yield* Effect.gen(function*() {
      const spaces = yield* Spaces
      const content = yield* SpaceContent
      const sites = yield* Sites
      const { as, organization } = yield* Seed.benchAdmin("large-site@bench.test", largeToken, "Large site")
      const org = organization.organization.id
      const space = (yield* as(spaces.create(org, { title: `${large.paths.length} pages` }))).space.id
      const hashesOf = (nodes: ReadonlyArray<PageNode>): ReadonlyArray<string> =>
        nodes.flatMap((node) => [...(node.document === undefined ? [] : [node.document]), ...hashesOf(node.pages)])
      for (const [g, group] of large.pages.entries()) {
        const documents = new Map(hashesOf([group]).map((hash) => [hash, large.documents.get(hash)!]))
        yield* as(content.commit(space, (current) => Effect.succeed({ pages: [...current.pages, group], documents })))
        if ((g + 1) % 40 === 0) yield* progress(`sites-large: seeded ${(g + 1) * 50} pages`)
      }
      const site = (yield* as(sites.create(org, { title: "Large docs", spaces: [space] }))).site.id
      yield* as(sites.publish(org, site))
      return site
    }).pipe(Effect.provide(Services.layerSql.pipe(Layer.provide([Queue.layerEnqueueOnly, CollabStoredMarkdown.layer]), Layer.provideMerge(Database.layerUrl(url)))))
    const seedSeconds = (performance.now() - seedStart) / 1000
    const quire = yield* Servers.start("quire (postgres)", {
      server: "quire",
      backend: { kind: "postgres", url },
      adminToken: largeToken,
      adminEmail: "large-site@bench.test"
    })
    const sitePath = `/~sites/${siteId}/`
    // The first page reads the revision and lays its sidebar tree out for all the others.
    yield* progress("sites-large: the first page")
    const first = yield* uncachedPass(quire, sitePath, large.paths.slice(1, 2))
    // Warm-up: JIT, the stylesheet, the highlighter's grammars.
    yield* progress("sites-large: warming up")
    const warm = yield* uncachedPass(quire, sitePath, large.paths.slice(2, 21))
    if (first.failures + warm.failures > 0) return yield* Effect.die(new Error(`sites-large: ${first.failures + warm.failures} of 20 warm-up pages failed`))
    const profiles: Array<string> = []
    const profiled = <A, E, R>(name: string, requests: number, self: Effect.Effect<A, E, R>) =>
      options.profileDir === undefined ? self : Effect.gen(function*() {
        const file = join(options.profileDir!, `sites-large-${name}.cpuprofile`)
        const cpuBefore = yield* quire.cpuMicros
        const value = yield* self.pipe(quire.profiled(file))
        const cpu = (yield* quire.cpuMicros) - cpuBefore
        profiles.push(`Quire (postgres), ${name} (${file}):\n${yield* Effect.promise(() => ProfileSummary.summarize(file, cpu / requests))}`)
        return value
      })
    yield* progress("sites-large: navigation (100 not-found paths)")
    const navigation = yield* profiled("navigation", 100, Effect.promise(async () => {
      const times: Array<number> = []
      for (let i = 0; i < 100; i++) {
        const start = performance.now()
        const response = await fetch(`${quire.baseUrl}${sitePath}missing-${i}`)
        const body = await response.text()
        times.push(performance.now() - start)
        if (response.status !== 404 || !body.includes("part-1/chapter-0")) {
          throw new Error(`sites-large: a not-found path answered ${response.status} ${response.status === 404 ? "without the navigation" : ""}`)
        }
      }
      return spread(times)
    }))
    yield* progress("sites-large: 500 uncached pages")
    const step = Math.max(1, Math.floor((large.paths.length - 21) / 500))
    const sample = large.paths.slice(21).filter((_, i) => i % step === 0).slice(0, 500)
    const uncached = yield* profiled("uncached", sample.length, uncachedPass(quire, sitePath, sample))
    const rows = [
      [`first page, cold (the revision read, its tree laid out, JIT and grammars; end to end) ms`, fixed(first.latency.median), "", ""],
      [
        `navigation of ${large.paths.length} pages (not-found path, end to end) median ms (p95 ${fixed(navigation.p95)})`,
        fixed(navigation.median),
        `< ${targets.navigation}`,
        verdict(navigation.median < targets.navigation)
      ],
      [
        `uncached page of ${large.paths.length} (end to end) median ms (p95 ${fixed(uncached.latency.p95)}, ${uncached.pages} pages, ${uncached.failures} failed)`,
        fixed(uncached.latency.median),
        `< ${targets.uncachedMedian}`,
        verdict(uncached.latency.median < targets.uncachedMedian && uncached.failures === 0)
      ],
      [`  server CPU ms per uncached page (mean)`, fixed(uncached.cpuPerPage), "", ""]
    ]
    return [
      `Published site of ${large.paths.length} pages on PostgreSQL over HTTP, one request at a time; seeded in ${fixed(seedSeconds)} s (${groupCount} commits)`,
      "",
      table(["figure", "value", "target", ""], rows),
      ...profiles.flatMap((p) => ["", p])
    ].join("\n")
  }))
