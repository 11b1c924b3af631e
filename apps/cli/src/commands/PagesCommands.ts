/**
 * `quire pages`: the pages of a space (or of a change request, `--cr`) as markdown files. `get`
 * prints a page as `# Title` and its body, which `put` takes back as it is; writes (`put`, `mv`,
 * `rm`) go through a change request, the one given with `--cr` or one opened for them.
 */
import { Effect, FileSystem, Option, Path } from "effect"
import { Argument, Command, Flag } from "effect/cli"
import type { ChangeRequestContentChange, RevisionPage } from "@quire/api"
import * as Syntax from "@quire/document/syntax"
import * as Content from "../Content.ts"
import { CliFailure } from "../Failure.ts"
import * as Fields from "../Fields.ts"
import * as LocalBase from "../LocalBase.ts"
import * as Output from "../Output.ts"
import { QuireClient } from "../QuireClient.ts"

const spaceId = Argument.String("space-id").pipe(Argument.withDescription("The space's id"))
const pageRef = Argument.String("page").pipe(Argument.withDescription("The page: its id, or its path (guides/install)"))

/** A title as the text of a `# heading` that reads back as the same title (markdown's punctuation escaped). */
const headingText = (title: string) => title.replace(/[\\`*_[\]<>&]/g, (char) => `\\${char}`).replace(/#+$/, (hashes) => `\\${hashes}`)

/**
 * A page as a markdown file: its description as frontmatter (when it has one), `# Title`, a blank
 * line, its body. Applying that text to the page (`pages put`, `cr apply`) gives back the same
 * title, description and body.
 */
export const pageText = (page: { readonly title: string; readonly description?: string | undefined; readonly markdown?: string | undefined }) => {
  // The page's own frontmatter (icon, cover, layout, other keys) leads the file, with the description.
  const markdown = page.markdown ?? ""
  const own = Syntax.findFrontmatter(markdown)
  const body = own === undefined ? markdown : markdown.slice(own.end).replace(/^(?:[ \t]*\r?\n)+/, "")
  const description = page.description === undefined || page.description === "" ? "" : `description: ${JSON.stringify(page.description)}\n`
  const yaml = description + (own === undefined ? "" : markdown.slice(own.yamlStart, own.yamlEnd))
  const front = yaml === "" ? "" : `---\n${yaml}---\n\n`
  return `${front}# ${headingText(page.title)}\n\n${body}`
}


/** A page's path split into its parent's path and its slug. */
const splitPath = (path: string) => {
  const normalized = Content.normalizePath(path)
  const cut = normalized.lastIndexOf("/")
  return { parent: cut === -1 ? "" : normalized.slice(0, cut), slug: normalized.slice(cut + 1) }
}


/** The parent page at `parentPath` ("" is the top level: no parent). */
const parentAt = (pages: ReadonlyArray<RevisionPage>, parentPath: string, where: string) =>
  parentPath === "" ? Effect.succeed(undefined) : Content.requirePage(pages, parentPath, where)

/** Sends `change` to `--cr` or a new change request; prints what happened (or the answer with --json). */
const writeOne = Effect.fnUntraced(function*(
  spaceId: string,
  options: { readonly changeRequest: Option.Option<string>; readonly subject: Option.Option<string> },
  subject: string,
  change: ChangeRequestContentChange,
  done: (number: number) => string,
  baseRevision?: string | undefined
) {
  const answer = yield* Content.writeThrough(spaceId, options.changeRequest, Option.getOrElse(options.subject, () => subject), [change], baseRevision)
  yield* Output.done(`${done(answer.number)} (revision ${answer.revision}).`, answer)
  return answer
})

const list = Command.make(
  "list",
  { spaceId, changeRequest: Content.changeRequestFlag },
  Effect.fn("quire.pages.list")(function*({ changeRequest, spaceId }) {
    const pages = yield* Content.tree(spaceId, changeRequest)
    yield* Output.print({ pages }, ({ pages }) =>
      pages.length === 0 ? `No pages in ${Content.where(changeRequest)}.` : Output.table(Content.pageColumns, Content.flatten(pages), Output.terminalWidth))
  })
).pipe(
  Command.provide(QuireClient.layer),
  Command.withDescription("The page tree of a space (or of a change request with --cr): path, title, kind and id"),
  Command.withAlias("ls")
)

/** The revision of the space's content, or of change request `cr`'s, that reads see now. */
const currentRevision = Effect.fnUntraced(function*(spaceId: string, cr: Option.Option<string>) {
  const client = yield* QuireClient
  const revision = Option.isNone(cr)
    ? yield* client.spaceContent.getCurrentRevision({ params: { spaceId }, query: {} })
    : yield* client.changeRequestContent.getRevisionOfChangeRequestById({ params: { spaceId, changeRequestId: cr.value }, query: {} })
  return revision.id
})

const get = Command.make(
  "get",
  {
    spaceId,
    page: pageRef,
    changeRequest: Content.changeRequestFlag,
    output: Flag.File("output").pipe(
      Flag.withAlias("o"),
      Flag.withDescription(`Write the page to this file, and the revision it was read from to ${LocalBase.fileName} beside it (pages put sends it back)`),
      Flag.optional
    )
  },
  Effect.fn("quire.pages.get")(function*({ changeRequest, output, page, spaceId }) {
    const where = Content.where(changeRequest)
    const found = yield* Content.requirePage(yield* Content.tree(spaceId, changeRequest), page, where)
    if (found.kind !== "sheet") {
      return yield* new CliFailure({ message: `Page ${found.path} is a ${found.kind}: it has no markdown` })
    }
    if (Option.isSome(output)) {
      const fs = yield* FileSystem.FileSystem
      const path = yield* Path.Path
      const client = yield* QuireClient
      // The page as it is in one revision, so that the revision recorded is the one the text came from.
      const revisionId = yield* currentRevision(spaceId, changeRequest)
      const read = yield* client.revisions.getPageInRevisionById({ params: { spaceId, revisionId, pageId: found.id }, query: { format: "markdown" } })
      yield* fs.writeFileString(output.value, pageText(read))
      const folder = path.dirname(output.value)
      yield* LocalBase.write(folder, LocalBase.withFiles(yield* LocalBase.read(folder), spaceId, revisionId, [path.basename(output.value)], found.id))
      return yield* Output.done(`Wrote page ${found.path} to ${output.value} (revision ${revisionId}).`, { path: found.path, revision: revisionId })
    }
    const full = yield* Content.pageMarkdown(spaceId, changeRequest, found.id)
    // Console.log ends the text with a newline: one the body ends with is not printed twice.
    yield* Output.print(full, (page) => pageText(page).replace(/\n$/, ""))
  })
).pipe(
  Command.provide(QuireClient.layer),
  Command.withDescription("Print a page as markdown: # Title, then its body (the description, if any, as frontmatter)"),
  Command.withExamples([{ command: "quire pages get SPACE_ID guides/install > install.md" }])
)

const put = Command.make(
  "put",
  {
    spaceId,
    page: pageRef,
    file: Argument.File("file", { mustExist: true }).pipe(Argument.withDescription("The page's markdown (# Title, then the body)")),
    base: Flag.String("base").pipe(
      Flag.withDescription(`The revision the file's content came from (default: the one ${LocalBase.fileName} beside it records)`),
      Flag.optional
    ),
    ...Content.writeFlags
  },
  Effect.fn("quire.pages.put")(function*({ base, changeRequest, file, page, spaceId, subject }) {
    const fs = yield* FileSystem.FileSystem
    const path = yield* Path.Path
    const markdown = yield* fs.readFileString(file)
    const folder = path.dirname(file)
    const state = yield* LocalBase.read(folder)
    // The file now is the page as this revision has it.
    const record = (revision: string, pageId?: string) => LocalBase.write(folder, LocalBase.withFiles(state, spaceId, revision, [path.basename(file)], pageId))
    const where = Content.where(changeRequest)
    const pages = yield* Content.tree(spaceId, changeRequest)
    const existing = Content.findPage(pages, page)
    if (existing !== undefined) {
      if (existing.kind !== "sheet") {
        return yield* new CliFailure({ message: `Page ${existing.path} is a ${existing.kind}: it has no markdown to replace` })
      }
      const baseRevision = Option.isSome(base) ? base.value : LocalBase.baseOf(state, path.basename(file), spaceId, existing.id)
      const updated = yield* writeOne(
        spaceId,
        { changeRequest, subject },
        `Edit ${existing.path}`,
        { operation: "update_page", page: existing.id, document: { markdown } },
        (number) => `Updated page ${existing.path} (${existing.id}) in change request #${number}`,
        baseRevision
      )
      yield* record(updated.revision, existing.id)
      return updated
    }
    // A path that names no page yet: a new page there, under its parent.
    const { parent: parentPath, slug } = splitPath(page)
    if (!Content.validSlug.test(slug)) {
      return yield* new CliFailure({
        message: `No page ${JSON.stringify(page)} in ${where}, and ${JSON.stringify(slug)} cannot be a new page's slug (letters, digits, "-" or "_")`
      })
    }
    const parent = yield* parentAt(pages, parentPath, where)
    const answer = yield* writeOne(
      spaceId,
      { changeRequest, subject },
      `Add ${Content.normalizePath(page)}`,
      {
        operation: "insert_page",
        slug,
        ...(Content.hasTitle(markdown) ? {} : { title: slug }),
        ...Fields.optional("into", Option.fromNullishOr(parent?.id)),
        document: { markdown }
      },
      (number) => `Added page ${Content.normalizePath(page)} in change request #${number}`
    )
    yield* record(answer.revision)
    return answer
  })
).pipe(
  Command.provide(QuireClient.layer),
  Command.withDescription(
    "Write a markdown file to a page (its id or path) through a change request; a path that names no page adds one there. " +
      "A page changed since the revision the file came from (--base, or what pages get -o recorded) is merged, or refused with the conflict shown"
  ),
  Command.withExamples([
    { command: "quire pages put SPACE_ID guides/install install.md --cr 3", description: "Replace a page in change request #3" },
    { command: "quire pages put SPACE_ID guides/faq faq.md", description: "Add a page, in a new change request" }
  ])
)

const move = Command.make(
  "mv",
  {
    spaceId,
    page: pageRef,
    destination: Argument.String("destination").pipe(
      Argument.withDescription("The page's new path: its new parent's path and its new slug (guides/setup)")
    ),
    at: Flag.Int("at").pipe(Flag.withDescription("Its index among its new siblings (default: where it was, or last)"), Flag.optional),
    ...Content.writeFlags
  },
  Effect.fn("quire.pages.mv")(function*({ at, changeRequest, destination, page, spaceId, subject }) {
    const where = Content.where(changeRequest)
    const pages = yield* Content.tree(spaceId, changeRequest)
    const found = yield* Content.requirePage(pages, page, where)
    const from = splitPath(found.path)
    const to = splitPath(destination)
    if (!Content.validSlug.test(to.slug)) {
      return yield* new CliFailure({ message: `${JSON.stringify(to.slug)} cannot be a slug (letters, digits, "-" or "_")` })
    }
    const parent = yield* parentAt(pages, to.parent, where)
    const moves = to.parent !== from.parent || Option.isSome(at)
    if (!moves && to.slug === from.slug) {
      return yield* new CliFailure({ message: `Nothing to move: ${found.path} is already there` })
    }
    yield* writeOne(
      spaceId,
      { changeRequest, subject },
      `Move ${found.path} to ${Content.normalizePath(destination)}`,
      {
        operation: "update_page",
        page: found.id,
        ...(to.slug === from.slug ? {} : { slug: to.slug }),
        ...(moves ? { into: parent?.id ?? null } : {}),
        ...Fields.optional("at", at)
      },
      (number) => `Moved page ${found.path} to ${Content.normalizePath(destination)} in change request #${number}`
    )
  })
).pipe(
  Command.provide(QuireClient.layer),
  Command.withDescription("Move or rename a page (with its subpages) through a change request"),
  Command.withExamples([{ command: "quire pages mv SPACE_ID guides/old-name reference/new-name --cr 3" }])
)

const remove = Command.make(
  "rm",
  { spaceId, page: pageRef, ...Content.writeFlags },
  Effect.fn("quire.pages.rm")(function*({ changeRequest, page, spaceId, subject }) {
    const found = yield* Content.requirePage(yield* Content.tree(spaceId, changeRequest), page, Content.where(changeRequest))
    const subpages = Content.flatten(found.pages ?? []).length
    yield* writeOne(
      spaceId,
      { changeRequest, subject },
      `Delete ${found.path}`,
      { operation: "delete_page", page: found.id },
      (number) =>
        `Deleted page ${found.path}${subpages === 0 ? "" : ` and its ${subpages} subpages`} in change request #${number}`
    )
  })
).pipe(
  Command.provide(QuireClient.layer),
  Command.withDescription("Delete a page (with its subpages) through a change request")
)

/** `quire pages ...` */
export const pages = Command.make("pages").pipe(
  Command.withDescription("The pages of a space as markdown: list, get, put (add or replace), mv, rm"),
  Command.withSubcommands([list, get, put, move, remove])
)
