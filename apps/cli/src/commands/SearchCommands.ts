/**
 * `quire search` (an organization's spaces) and `quire spaces search` (one space): full-text
 * search of the current content, best matches first.
 */
import { Effect } from "effect"
import { Argument, Command, Flag } from "effect/cli"
import type { SearchPageResult, SearchSectionResult, SearchSpaceResult } from "@quire/api"
import * as Output from "../Output.ts"
import type { ListPage, PageQuery } from "../Pages.ts"
import { QuireClient } from "../QuireClient.ts"
import { organizationId } from "./OrganizationsCommands.ts"

/** How many matching pages a search shows unless `--limit` says otherwise. */
export const defaultLimit = 20

/** The most results the API gives in one answer. */
const maxPerRequest = 1000

const query = Argument.String("query").pipe(Argument.withDescription("The words to search for"))

const limit = Flag.Int("limit").pipe(
  Flag.withDescription(`Show at most this many matching pages (default: ${defaultLimit})`),
  Flag.filter((n) => n >= 1, (n) => `--limit must be at least 1, got ${n}`),
  Flag.withDefault(defaultLimit)
)

/** The section of a page that matches best (the first of equals); none for a page without sections. */
const bestSection = (page: SearchPageResult): SearchSectionResult | undefined =>
  page.sections.reduce<SearchSectionResult | undefined>(
    (best, section) => (best === undefined || section.score > best.score ? section : best),
    undefined
  )

/** An excerpt on one line: the API's excerpts keep the page's line breaks. */
const excerpt = (page: SearchPageResult) => (bestSection(page)?.body ?? "").replace(/\s+/g, " ").trim()

const pageColumns: ReadonlyArray<Output.Column<SearchPageResult>> = [
  { header: "path", value: (page) => page.path },
  { header: "title", value: (page) => page.title },
  { header: "excerpt", value: excerpt }
]

interface SpacePage {
  readonly space: SearchSpaceResult
  readonly page: SearchPageResult
}

const spaceColumns: ReadonlyArray<Output.Column<SpacePage>> = [
  { header: "space", value: ({ space }) => space.title },
  ...pageColumns.map((column) => ({ header: column.header, value: ({ page }: SpacePage) => column.value(page) }))
]

/** A table of results, or `No results for "QUERY".`, and a hint when `--limit` cut the results short. */
const render = <A>(columns: ReadonlyArray<Output.Column<A>>, rows: ReadonlyArray<A>, text: string, more: boolean) => {
  if (rows.length === 0) return `No results for ${JSON.stringify(text)}.`
  const table = Output.table(columns, rows)
  return more ? `${table}\nMore results: raise --limit (showing ${rows.length}).` : table
}

/**
 * The first `limit` matching pages, answer after answer, as one envelope of the API's shape
 * (`next` kept when more remain). `pagesOf` says how many pages an item holds; `join` merges
 * an item continued at the start of the next answer into the last one collected (organization
 * search counts pages, so a space may be split across answers).
 */
const collectPages = Effect.fnUntraced(function*<A, E, R>(
  fetch: (query: PageQuery) => Effect.Effect<ListPage<A>, E, R>,
  options: {
    readonly limit: number
    readonly pagesOf: (item: A) => number
    readonly join: (last: A, next: A) => A | undefined
  }
) {
  const items: Array<A> = []
  let pages = 0
  let page: string | undefined
  while (pages < options.limit) {
    const wanted = Math.min(maxPerRequest, options.limit - pages)
    const answer = yield* fetch(page === undefined ? { limit: wanted } : { page, limit: wanted })
    for (const item of answer.items) {
      pages += options.pagesOf(item)
      const last = items.at(-1)
      const joined = last === undefined ? undefined : options.join(last, item)
      if (joined === undefined) items.push(item)
      else items[items.length - 1] = joined
    }
    page = answer.next?.page
    // An empty answer that still points further would otherwise loop forever.
    if (page === undefined || answer.items.length === 0) break
  }
  const result: ListPage<A> = page === undefined
    ? { count: items.length, items }
    : { next: { page }, count: items.length, items }
  return result
})

/** `quire search ORG QUERY` */
export const search = Command.make(
  "search",
  { organizationId, query, limit },
  Effect.fn("quire.search")(function*({ limit, organizationId, query }) {
    const client = yield* QuireClient
    const found = yield* collectPages(
      (page) => client.search.searchOrganizationContent({ params: { organizationId }, query: { query, ...page } }),
      {
        limit,
        pagesOf: (space) => space.pages.length,
        join: (last, next) => (last.id === next.id ? { ...last, pages: [...last.pages, ...next.pages] } : undefined)
      }
    )
    yield* Output.print(found, ({ items, next }) =>
      render(
        spaceColumns,
        items.flatMap((space) => space.pages.map((page) => ({ space, page }))),
        query,
        next !== undefined
      ))
  })
).pipe(
  Command.provide(QuireClient.layer),
  Command.withDescription(
    "Search the content of an organization's spaces you can view: matching pages, best first, with an excerpt"
  ),
  Command.withExamples([
    { command: "quire search ORG_ID \"incident response\"", description: "The 20 best matching pages" },
    { command: "quire search ORG_ID deploy --limit 100 --json", description: "More results, as the API's JSON" }
  ])
)

/** `quire spaces search SPACE QUERY` */
export const inSpace = Command.make(
  "search",
  {
    spaceId: Argument.String("space-id").pipe(Argument.withDescription("The space's id")),
    query,
    limit
  },
  Effect.fn("quire.spaces.search")(function*({ limit, query, spaceId }) {
    const client = yield* QuireClient
    const found = yield* collectPages(
      (page) => client.search.searchSpaceContent({ params: { spaceId }, query: { query, ...page } }),
      { limit, pagesOf: () => 1, join: () => undefined }
    )
    yield* Output.print(found, ({ items, next }) => render(pageColumns, items, query, next !== undefined))
  })
).pipe(
  Command.provide(QuireClient.layer),
  Command.withDescription("Search the content of a space: matching pages, best first, with an excerpt"),
  Command.withExamples([{ command: "quire spaces search SPACE_ID rotation --limit 5" }])
)
