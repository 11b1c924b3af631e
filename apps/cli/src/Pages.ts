/** Lists: follow `next.page` until the server has no more, or until `--limit` items. */
import { Effect, Option } from "effect"
import { Flag } from "effect/cli"

/** The API's list envelope. */
export interface ListPage<A> {
  readonly next?: { readonly page: string } | undefined
  readonly count: number
  readonly items: ReadonlyArray<A>
}

/** The query every list operation takes. */
export interface PageQuery {
  readonly page?: string
  readonly limit: number
}

/** The flags every list command takes. */
export const flags = {
  limit: Flag.Int("limit").pipe(
    Flag.withDescription("Fetch at most this many items (default: all)"),
    Flag.filter((n) => n >= 1, (n) => `--limit must be at least 1, got ${n}`),
    Flag.optional
  ),
  pageSize: Flag.Int("page-size").pipe(
    Flag.withDescription("Items per request, 1 to 1000"),
    Flag.filter((n) => n >= 1 && n <= 1000, (n) => `--page-size must be between 1 and 1000, got ${n}`),
    Flag.withDefault(100)
  )
} as const

/**
 * Every item of a list, page after page, as one envelope of the API's shape: `next` is kept
 * only when `limit` stopped the walk before the server's last page.
 */
export const collect = Effect.fnUntraced(function*<A, E, R>(
  fetch: (query: PageQuery) => Effect.Effect<ListPage<A>, E, R>,
  options: { readonly limit: Option.Option<number>; readonly pageSize: number }
) {
  const items: Array<A> = []
  let page: string | undefined
  while (true) {
    const wanted = Option.match(options.limit, {
      onNone: () => options.pageSize,
      onSome: (limit) => Math.min(options.pageSize, limit - items.length)
    })
    const answer = yield* fetch(page === undefined ? { limit: wanted } : { page, limit: wanted })
    items.push(...answer.items)
    page = answer.next?.page
    const full = Option.isSome(options.limit) && items.length >= options.limit.value
    // An empty page that still points further would otherwise loop forever.
    if (page === undefined || full || answer.items.length === 0) break
  }
  const result: ListPage<A> = page === undefined
    ? { count: items.length, items }
    : { next: { page }, count: items.length, items }
  return result
})
