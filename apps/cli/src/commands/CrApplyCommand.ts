/**
 * `quire cr apply SPACE CR FILE.md|DIR`: markdown files as a change request's pages. A file is the
 * page named after it (updated when the change request has a page at that path, else added); a
 * folder is a page tree (src/Apply.ts). Links are checked and images uploaded before the pages are
 * sent; a broken link stops the apply unless `--allow-broken-links`.
 */
import { Effect, FileSystem, Layer, Option, Path } from "effect"
import { Argument, CliError, Command, Flag } from "effect/cli"
import type { ChangeRequestContentChange, RevisionPage } from "@quire/api"
import * as Apply from "../Apply.ts"
import * as Content from "../Content.ts"
import { CliFailure } from "../Failure.ts"
import * as GlobalFlags from "../GlobalFlags.ts"
import * as LocalBase from "../LocalBase.ts"
import * as Output from "../Output.ts"
import * as Pages from "../Pages.ts"
import { QuireClient, QuireHttp } from "../QuireClient.ts"
import { maxBatchFiles, maxFileBytes, readFiles, upload } from "./FilesCommands.ts"

/** Changes one request may carry (the API's limit). */
const maxChanges = 50

const brokenColumns: ReadonlyArray<Output.Column<Apply.BrokenLink>> = [
  { header: "file", value: (link) => `${link.file}:${link.line}` },
  { header: "link", value: (link) => link.url },
  { header: "problem", value: (link) => link.reason }
]

/** A page change of the apply, before it is placed in a batch. */
type Planned =
  | {
    readonly kind: "update"
    readonly path: string
    readonly change: ChangeRequestContentChange
    /** The revision the file's content came from, sent as the batch's `baseRevision`. */
    readonly base: string | undefined
  }
  | {
    readonly kind: "insert"
    readonly path: string
    readonly parentPath: string
    readonly change: Extract<ChangeRequestContentChange, { readonly operation: "insert_page" }>
  }

/** `n things`, or `1 thing`. */
const count = (n: number, what: string) => `${n} ${what}${n === 1 ? "" : "s"}`

const pathIndex = (pages: ReadonlyArray<RevisionPage>) => new Map(Content.flatten(pages).map(({ page }) => [page.path, page]))

/**
 * Sends the planned changes in batches of at most 50; a new page goes under its parent by id, or by
 * the ref of the batch that adds it. The last batch's answer; none when nothing was planned.
 */
const sendPlanned = Effect.fnUntraced(function*(spaceId: string, changeRequestId: string, planned: ReadonlyArray<Planned>, listed: ReadonlyArray<RevisionPage>) {
  const client = yield* QuireClient
  const params = { spaceId, changeRequestId }
  let pages = listed
  let answer: Effect.Success<ReturnType<typeof Content.write>> | undefined
  let next = 0
  while (next < planned.length) {
    const byPath = pathIndex(pages)
    const refs = new Map<string, string>()
    const changes: Array<ChangeRequestContentChange> = []
    // One base revision per batch: updates from files of another revision go in the next one.
    let base: string | undefined
    while (next < planned.length && changes.length < maxChanges) {
      const item = planned[next]!
      if (item.kind === "update") {
        if (item.base !== undefined && base !== undefined && item.base !== base) break
        base ??= item.base
        changes.push(item.change)
      } else {
        const into = item.parentPath === "" ? undefined : byPath.get(item.parentPath)?.id ?? refs.get(item.parentPath)
        if (item.parentPath !== "" && into === undefined) break
        const ref = `page-${next}`
        refs.set(item.path, ref)
        changes.push({ ...item.change, ref, ...(into === undefined ? {} : { into }) })
      }
      next++
    }
    answer = yield* Content.write(spaceId, changeRequestId, changes, base)
    pages = (yield* client.changeRequestContent.listPagesInChangeRequest({ params, query: {} })).pages
  }
  return answer
})

export const apply = Command.make(
  "apply",
  {
    spaceId: Argument.String("space-id").pipe(Argument.withDescription("The space's id")),
    changeRequestId: Argument.String("change-request").pipe(
      Argument.withDescription("The change request's id, or its number in the space")
    ),
    source: Argument.Path("path", { pathType: "either", mustExist: true }).pipe(
      Argument.withDescription("A markdown file, or a folder of them (a page tree)")
    ),
    page: Flag.String("page").pipe(
      Flag.withDescription("Replace the content of this page (its id or path) with the file"),
      Flag.optional
    ),
    into: Flag.String("into").pipe(
      Flag.withDescription("Put the pages under this page (its id or path; default: at the top level)"),
      Flag.optional
    ),
    title: Flag.String("title").pipe(
      Flag.withDescription("The page's title (one file; default: its # heading, else its file name)"),
      Flag.optional
    ),
    allowBrokenLinks: Flag.Boolean("allow-broken-links").pipe(
      Flag.withDescription("Send the change even when some of its links are broken (they are listed all the same)"),
      Flag.withDefault(false)
    ),
    base: Flag.String("base").pipe(
      Flag.withDescription(`The revision the files came from (default: what ${LocalBase.fileName} records, written by the last apply or pages get -o)`),
      Flag.optional
    )
  },
  Effect.fn("quire.cr.apply")(function*({ allowBrokenLinks, base: baseFlag, changeRequestId, into, page, source, spaceId, title }) {
    const fs = yield* FileSystem.FileSystem
    const nodePath = yield* Path.Path
    const client = yield* QuireClient
    const json = yield* GlobalFlags.Json
    const folder = (yield* fs.stat(source)).type === "Directory"
    // Where the files came from, and the images already sent, are recorded in the folder applied (or the file's).
    const stateFolder = folder ? source : nodePath.dirname(source)
    const state = yield* LocalBase.read(stateFolder)
    const relative = (file: string) => nodePath.relative(stateFolder, file).split(nodePath.sep).join("/")
    if (folder && (Option.isSome(page) || Option.isSome(title))) {
      return yield* new CliFailure({ message: "--page and --title apply to one file, not to a folder" })
    }
    const params = { spaceId, changeRequestId }
    const where = `change request ${changeRequestId}`
    const pages = (yield* client.changeRequestContent.listPagesInChangeRequest({ params, query: {} })).pages
    const target = Option.isSome(page) ? Option.some(yield* Content.requirePage(pages, page.value, where)) : Option.none()
    const parent = Option.isSome(into) ? Option.some(yield* Content.requirePage(pages, into.value, where)) : Option.none()
    const prefix = Option.match(parent, { onNone: () => "", onSome: (parent) => parent.path })

    const read = folder ? yield* Apply.readFolder(source) : [yield* Apply.readFile(source)]
    // With --page the file is that page, wherever it is.
    const documents = Option.isSome(target) ? read.map((document) => ({ ...document, path: target.value.path })) : read
    const base = Option.isSome(target) ? "" : prefix
    if (documents.length === 0) return yield* new CliFailure({ message: `No markdown files in ${source}` })
    if (Option.isNone(target)) yield* Apply.checkSlugs(documents)

    const files = yield* Pages.collect(
      (query) => client.changeRequestContent.listFilesInChangeRequestById({ params, query }),
      { limit: Option.none(), pageSize: 1000 }
    )
    const { broken, images } = yield* Apply.check(documents, {
      prefix: base,
      existing: pages,
      fileIds: new Set(files.items.map((file) => file.id)),
      appBaseUrl: yield* GlobalFlags.Url
    })
    if (broken.length > 0) {
      const summary = `${broken.length} broken link${broken.length === 1 ? "" : "s"}`
      if (!allowBrokenLinks) {
        yield* Output.print({ broken }, ({ broken }) => Output.table(brokenColumns, broken))
        return yield* new CliFailure({ message: `${summary}: nothing was sent (fix them, or pass --allow-broken-links)` })
      }
      if (!json) yield* Output.print({ broken }, ({ broken }) => `${summary}, sent anyway:\n${Output.table(brokenColumns, broken)}`)
    }

    // The images first: their ids go into the pages' links. An image sent before, unchanged and still in the change request, is not sent again.
    const existingFiles = new Set(files.items.map((file) => file.id))
    const fileIds = new Map<string, string>()
    const hashes = new Map<string, string>()
    const uploads: Array<string> = []
    for (const file of new Set([...images.values()].flatMap((found) => found.map((image) => image.file)))) {
      const sha256 = yield* LocalBase.sha256Of(file)
      hashes.set(file, sha256)
      const known = LocalBase.imageOf(state, relative(file), spaceId, sha256)
      if (known !== undefined && existingFiles.has(known)) fileIds.set(file, known)
      else uploads.push(file)
    }
    const uploaded: Array<{ readonly name: string; readonly id: string }> = []
    // An image over what a batch takes inline goes as its bytes, through the upload route.
    const inline: Array<string> = []
    for (const file of uploads) {
      if (Number((yield* fs.stat(file)).size) <= maxFileBytes) {
        inline.push(file)
        continue
      }
      const stored = (yield* upload(spaceId, changeRequestId, file)).file
      fileIds.set(file, stored.id)
      uploaded.push({ name: stored.name, id: stored.id })
    }
    for (let i = 0; i < inline.length; i += maxBatchFiles) {
      const batch = inline.slice(i, i + maxBatchFiles)
      const answer = yield* Content.write(spaceId, changeRequestId, [{ operation: "insert_files", files: yield* readFiles(batch) }])
      const stored = answer.files ?? []
      batch.forEach((file, index) => {
        const id = stored[index]?.id
        if (id !== undefined) {
          fileIds.set(file, id)
          uploaded.push({ name: stored[index]!.name, id })
        }
      })
    }

    const full = (path: string) => (base === "" ? path : `${base}/${path}`)
    const existing = pathIndex(pages)
    const planned: Array<Planned> = []
    for (const document of documents) {
      const path = full(document.path)
      const replacements = new Map(
        (images.get(document) ?? []).flatMap((image) => {
          const id = fileIds.get(image.file)
          return id === undefined ? [] : [[image.url, `/files/${id}`] as const]
        })
      )
      const markdown = Apply.rewriteUrls(document.markdown, replacements)
      const found = existing.get(path)
      if (found !== undefined) {
        // A folder without README.md says nothing about its page's content.
        if (document.file === undefined) continue
        planned.push({
          kind: "update",
          path,
          change: { operation: "update_page", page: found.id, ...(Option.isSome(title) ? { title: title.value } : {}), document: { markdown } },
          base: Option.isSome(baseFlag) ? baseFlag.value : LocalBase.baseOf(state, relative(document.file), spaceId)
        })
        continue
      }
      const cut = path.lastIndexOf("/")
      const pageTitle = Option.isSome(title) ? title.value : Content.hasTitle(markdown) ? undefined : document.fallbackTitle
      planned.push({
        kind: "insert",
        path,
        parentPath: cut === -1 ? "" : path.slice(0, cut),
        change: {
          operation: "insert_page",
          slug: path.slice(cut + 1),
          ...(pageTitle === undefined ? {} : { title: pageTitle }),
          document: { markdown }
        }
      })
    }

    const answer = yield* sendPlanned(spaceId, changeRequestId, planned, pages)

    const added = planned.filter((item) => item.kind === "insert").map((item) => item.path)
    const updated = planned.filter((item) => item.kind === "update").map((item) => item.path)
    const changeRequest = answer ?? (yield* client.changeRequests.getChangeRequestById({ params }))
    // The files are now the change request's pages at this revision; the images, its files.
    const sent = documents.flatMap((document) => document.file === undefined ? [] : [relative(document.file)])
    const sentImages = Array.from(fileIds, ([file, id]) => ({ image: relative(file), sha256: hashes.get(file)!, file: id }))
    yield* LocalBase.write(stateFolder, LocalBase.withImages(LocalBase.withFiles(state, spaceId, changeRequest.revision, sent), spaceId, sentImages))
    const one = folder ? undefined : planned[0]
    const what = one === undefined
      ? `Applied ${source} to change request #${changeRequest.number}: ${count(added.length, "page")} added, ${updated.length} updated`
      : one.kind === "update"
      ? `Updated page ${one.path} (${one.change.operation === "update_page" ? one.change.page : ""}) in change request #${changeRequest.number}`
      : `Added page ${one.path} in change request #${changeRequest.number}`
    yield* Output.done(
      `${what}${uploaded.length === 0 ? "" : `, ${count(uploaded.length, "image")} uploaded`} (revision ${changeRequest.revision}).`,
      changeRequest
    )
  })
).pipe(
  Command.validate(({ into, page }) =>
    Option.isSome(page) && Option.isSome(into)
      ? Effect.fail(new CliError.ValidationError({ message: "Pass --page or --into, not both" }))
      : Effect.void
  ),
  Command.provide(Layer.merge(QuireClient.layer, QuireHttp.layer)),
  Command.withDescription(
    "Apply markdown to a change request: a file is the page named after it (added, or updated if the change request has it), " +
      "a folder a page tree; relative images are uploaded (unless sent before unchanged), and broken links stop it before anything is sent. " +
      "A page changed since the revision the files came from (--base, or what the last apply recorded) is merged, or refused with the conflict shown"
  ),
  Command.withExamples([
    { command: "quire cr apply SPACE_ID 3 docs/", description: "A folder as a page tree (docs/guides/install.md is guides/install)" },
    { command: "quire cr apply SPACE_ID 3 quickstart.md --page PAGE_ID", description: "Replace a page's content" },
    { command: "quire cr apply SPACE_ID 3 faq.md --into guides --title FAQ", description: "Add a page under guides" }
  ])
)
