/**
 * A space's content as the writer's commands see it: the space's main content, or a change
 * request's with `--cr`; pages named by id or by path; and writes, which always go through a
 * change request (the one given, else a new one opened for the write).
 */
import { Console, Effect, Option } from "effect"
import { Flag } from "effect/cli"
import type { ChangeRequestContentChange, RevisionPage } from "@quire/api"
import * as Syntax from "@quire/document/syntax"
import { CliFailure } from "./Failure.ts"
import * as GlobalFlags from "./GlobalFlags.ts"
import type * as Output from "./Output.ts"
import { QuireClient } from "./QuireClient.ts"

/** `--cr CR`: read or write a change request's content rather than the space's. */
export const changeRequestFlag = Flag.String("cr").pipe(
  Flag.withDescription("A change request of the space (its id or number): its content instead of the space's"),
  Flag.optional
)

/** `--cr CR` of a write: where it goes; without it, a new change request is opened for it. */
export const writeFlags = {
  changeRequest: Flag.String("cr").pipe(
    Flag.withDescription("Write in this change request (its id or number); default: open a new one"),
    Flag.optional
  ),
  subject: Flag.String("subject").pipe(
    Flag.withDescription("The subject of the change request opened for the write (without --cr)"),
    Flag.optional
  )
} as const

/** A page of a tree with its depth. */
export interface PageRow {
  readonly depth: number
  readonly page: RevisionPage
}

/** Every page of a tree, parents before their subpages. */
export const flatten = (pages: ReadonlyArray<RevisionPage>, depth = 0): ReadonlyArray<PageRow> =>
  pages.flatMap((page) => [{ depth, page }, ...flatten(page.pages ?? [], depth + 1)])

/** The table of a page tree: each page's path, its title indented by depth, kind and id. */
export const pageColumns: ReadonlyArray<Output.Column<PageRow>> = [
  { header: "path", value: ({ page }) => page.path, shrink: "start" },
  { header: "title", value: ({ depth, page }) => `${"  ".repeat(depth)}${page.title}`, shrink: "end" },
  { header: "kind", value: ({ page }) => page.kind },
  { header: "id", value: ({ page }) => page.id }
]

/** A page path as a writer may type it: without leading or trailing slashes, nor a `.md` ending. */
export const normalizePath = (path: string): string => path.trim().replace(/^\/+|\/+$/g, "").replace(/\.md$/i, "")

/** The page named `ref` (its id, else its path) in `pages`. */
export const findPage = (pages: ReadonlyArray<RevisionPage>, ref: string): RevisionPage | undefined => {
  const rows = flatten(pages)
  return rows.find(({ page }) => page.id === ref)?.page ?? rows.find(({ page }) => page.path === normalizePath(ref))?.page
}

/** The page tree of the space's content, or of change request `cr`'s. */
export const tree = Effect.fnUntraced(function*(spaceId: string, cr: Option.Option<string>) {
  const client = yield* QuireClient
  const { pages } = Option.isNone(cr)
    ? yield* client.spaceContent.listPages({ params: { spaceId }, query: {} })
    : yield* client.changeRequestContent.listPagesInChangeRequest({ params: { spaceId, changeRequestId: cr.value }, query: {} })
  return pages
})

/** The page `ref` (id or path) of `pages`, or a failure naming it. */
export const requirePage = (pages: ReadonlyArray<RevisionPage>, ref: string, where: string) => {
  const page = findPage(pages, ref)
  return page === undefined
    ? Effect.fail(new CliFailure({ message: `No page ${JSON.stringify(ref)} in ${where} (quire pages list shows their ids and paths)` }))
    : Effect.succeed(page)
}

/** "the space" or "change request CR", for messages. */
export const where = (cr: Option.Option<string>) => Option.match(cr, { onNone: () => "the space", onSome: (cr) => `change request ${cr}` })

/** A page of the space's content or of change request `cr`, with its markdown. */
export const pageMarkdown = Effect.fnUntraced(function*(spaceId: string, cr: Option.Option<string>, pageId: string) {
  const client = yield* QuireClient
  return Option.isNone(cr)
    ? yield* client.spaceContent.getPageById({ params: { spaceId, pageId }, query: { format: "markdown" } })
    : yield* client.changeRequestContent.getPageInChangeRequestById({
      params: { spaceId, changeRequestId: cr.value, pageId },
      query: { format: "markdown" }
    })
})

/**
 * The change request a write goes to: `cr` when given, else a new one opened (and said so on
 * stderr, so that stdout stays the result) with `subject`.
 */
export const changeRequestFor = Effect.fnUntraced(function*(spaceId: string, cr: Option.Option<string>, subject: string) {
  if (Option.isSome(cr)) return cr.value
  const client = yield* QuireClient
  const created = yield* client.changeRequests.createChangeRequest({ params: { spaceId }, payload: { subject } })
  const opened = created.status === "draft"
    ? yield* client.changeRequests.updateChangeRequestById({
      params: { spaceId, changeRequestId: created.id },
      payload: { status: "open" }
    })
    : created
  const json = yield* GlobalFlags.Json
  if (!json) yield* Console.error(`Opened change request #${opened.number} (${opened.id}): "${opened.subject}".`)
  return opened.id
})

/**
 * Sends `changes` to change request `cr`, else to one opened for them with `subject`; a change
 * request opened here whose write is refused is archived, so a failed command leaves none behind.
 */
export const writeThrough = Effect.fnUntraced(function*(
  spaceId: string,
  cr: Option.Option<string>,
  subject: string,
  changes: ReadonlyArray<ChangeRequestContentChange>,
  baseRevision?: string | undefined
) {
  const client = yield* QuireClient
  const target = yield* changeRequestFor(spaceId, cr, subject)
  return yield* write(spaceId, target, changes, baseRevision).pipe(
    Effect.tapError(() =>
      Option.isSome(cr) ? Effect.void : client.changeRequests.updateChangeRequestById({
        params: { spaceId, changeRequestId: target },
        payload: { status: "archived" }
      }).pipe(Effect.ignore)
    )
  )
})

/**
 * Sends `changes` as one batch to change request `changeRequestId`; the API's answer. With
 * `baseRevision` (the revision the local files came from), a page changed since is merged by the
 * server, or the batch refused with the conflict shown.
 */
export const write = Effect.fnUntraced(function*(
  spaceId: string,
  changeRequestId: string,
  changes: ReadonlyArray<ChangeRequestContentChange>,
  baseRevision?: string | undefined
) {
  const client = yield* QuireClient
  return yield* client.changeRequestContent.updateChangeRequestContent({
    params: { spaceId, changeRequestId },
    payload: baseRevision === undefined ? { changes } : { changes, baseRevision }
  })
})

/** What the server takes as a page's slug: letters, digits, "-" and "_", starting with a letter or digit. */
export { validSlug } from "@quire/content/domain/Revision"

/** Whether markdown names its own title: frontmatter `title`, or a leading `# heading` (after any frontmatter). */
export const hasTitle = (markdown: string): boolean => {
  const front = Syntax.findFrontmatter(markdown)
  if (front !== undefined && /^title:[ \t]*\S/m.test(markdown.slice(front.yamlStart, front.yamlEnd))) return true
  return /^\s*#[ \t]+\S/.test(front === undefined ? markdown : markdown.slice(front.end))
}

/** A file's media type from its name (what uploads send), else `application/octet-stream`: the rule Git imports use. */
export { contentTypeOf } from "@quire/content/domain/MediaType"
