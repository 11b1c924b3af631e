/**
 * Use cases on a space's content: reads of its current revision (the tree of pages, a page with
 * its markdown, the files) and `commit`, which moves the space's main content through the
 * RevisionWriter. Templates and website imports are commits. Each group of use cases is a module
 * under spaceContent/ (reading, changes, files, templates, website imports); `commit` is here.
 */
import { Context, Effect, Layer } from "effect"
import type { Actor, Errors } from "@quire/kernel"
import * as Access from "./Access.ts"
import type { Revision } from "./domain/Revision.ts"
import { breather } from "./markdown/Breather.ts"
import { findReusableContent } from "./markdown/IncludeTags.ts"
import { documentMarkdown } from "./markdown/DocumentMarkdown.ts"
import { withKeys } from "./markdown/DocumentKeys.ts"
import { type IncludeResolver, type JsonDocument, jsonDocumentBuilder, type RefResolver, toJsonDocument } from "./markdown/JsonDocument.ts"
import { resolveLink } from "@quire/markdown"
import { pageLinkContext, revisionLinkIndex } from "./ContentLinks.ts"
import { ParsePool } from "./markdown/ParsePool.ts"
import type { ContentChange, Head } from "./RevisionWriter.ts"
import { changeLists } from "./spaceContent/Changes.ts"
import * as ContentEdit from "./spaceContent/ContentEdit.ts"
import { storedFiles } from "./spaceContent/Files.ts"
import { reading } from "./spaceContent/Reading.ts"
import { reusableContentReading } from "./spaceContent/ReusableContents.ts"
import type { CommitOptions, MainHead, RevisionPage, SpaceContentOptions, SpaceContentShape } from "./spaceContent/SpaceContentTypes.ts"
import { templateImport } from "./spaceContent/Templates.ts"
import { websiteImport } from "./spaceContent/WebsiteImport.ts"
import { OrganizationStorageBytes } from "./StorageUsageRepo.ts"

export type * from "./spaceContent/SpaceContentTypes.ts"

type Denied = Errors.NotFound | Errors.Forbidden

export { OrganizationStorageBytes }

export { rewriteLinks } from "./spaceContent/Relink.ts"

// Page documents -----------------------------------------------------------------------------------

/** Markdown of a revision, read at `path` (a page's; `""` for a reusable content): what a JSON document is made of. */
export type DocumentSource = Pick<RevisionPage, "revision" | "path" | "markdown">

/**
 * A page's markdown as GitBook's JSON document, its links resolved against the page's revision:
 * pages by id, files by id, anything else as a URL; every node with GitBook's `key`.
 */
export const pageDocument = (content: DocumentSource): JsonDocument => {
  const { refs, includes } = pageResolvers(content)
  return withKeys(toJsonDocument(content.markdown ?? "", refs, includes))
}

/**
 * `pageDocument`, a large page parsed by the server's parse workers (`ParsePool`) and a small one
 * here a piece at a time, giving the event loop back between pieces, so that reading one never
 * holds the server for long.
 */
export const pageDocumentEffect = (content: DocumentSource): Effect.Effect<JsonDocument, never, ParsePool> =>
  Effect.gen(function*() {
    const pool = yield* ParsePool
    const { refs, includes } = pageResolvers(content)
    const builder = jsonDocumentBuilder(refs, includes)
    const breathe = breather()
    for (const blocks of yield* pool.digestPieces(content.markdown ?? "", "blocks", breathe)) {
      builder.addPieceBlocks(blocks)
      yield* breathe
    }
    return withKeys(builder.done())
  })

/**
 * A GitBook document written as a page's markdown, as Git sync writes GitBook's: links to pages and
 * files by id (`/pages/<id>`, `/files/<id>`, which a Git export writes as relative paths), and each
 * block that reads the same as one of `before` (the page's current content) as that block was
 * written, so that a document read, edited and written back changes only the blocks it changed.
 */
export const documentPageMarkdown = (document: Pick<JsonDocument, "nodes">, before?: DocumentSource): string => {
  if (before === undefined) return documentMarkdown(document)
  const { refs, includes } = pageResolvers(before)
  return documentMarkdown(document, { base: { markdown: before.markdown ?? "", refs, includes } })
}

/**
 * How a page's document resolves its links (pages and files by id, anything else as a URL) and its
 * includes (reusable contents found as published pages find them), over one link index of its revision.
 */
const pageResolvers = (content: DocumentSource): { readonly refs: RefResolver; readonly includes: IncludeResolver } => {
  const index = revisionLinkIndex(content.revision)
  const page = index.entries.find((entry) => entry.path === content.path)?.page
  const context = pageLinkContext(index, page ?? {}, content.path, "")
  const file = content.path === "" ? undefined : page?.git?.path
  const includes: IncludeResolver = (ref) => findReusableContent(ref, file, content.revision.reusableContents ?? [])?.id
  const refs: RefResolver = (url, kind) => {
    const target = resolveLink({ url, kind }, context)?.target
    if (target?.kind === "file" && context.fileIds.has(target.file)) return { kind: "file", file: target.file }
    if (target?.kind === "page" && "page" in target) return { kind: "page", page: target.page }
    return { kind: "url", url }
  }
  return { refs, includes }
}

// The service -------------------------------------------------------------------------------------

export class SpaceContent extends Context.Service<SpaceContent, SpaceContentShape>()("@quire/content/SpaceContent") {
  static readonly layerWith = (options: SpaceContentOptions = {}) =>
    Layer.effect(
      SpaceContent,
      Effect.gen(function*() {
        const edit = yield* ContentEdit.make(options)
        const { access, spaces, writer } = edit

        const mainHead = (spaceId: string, permission: "edit" | "merge" = "edit"): Head<MainHead, Denied, Actor.Actor> => ({
          read: Effect.gen(function*() {
            const spaceAccess = yield* access.space(spaceId)
            yield* Access.ensure(
              spaceAccess.permissions[permission],
              permission === "merge" ? "merge change requests in this space" : "edit this space's content"
            )
            return { access: spaceAccess, space: spaceAccess.space, revisionId: spaceAccess.space.revisionId }
          }),
          move: (head, next) => spaces.setRevision(head.space.id, head.revisionId, next.id, next.createdAt),
          main: true,
          describe: (head) => `space ${JSON.stringify(head.space.id)}`
        })

        const commit = <E = never, R = never>(
          spaceId: string,
          build: (current: Revision) => Effect.Effect<ContentChange, E, R>,
          options?: CommitOptions<E, R>
        ): Effect.Effect<Revision, E | Denied | Errors.Conflict | Errors.InvalidInput, R | Actor.Actor> => {
          const within = options?.within
          return writer.write(mainHead(spaceId), build, { system: options?.system, within: within === undefined ? undefined : () => within }).pipe(
            Effect.map((written) => written.revision),
            Effect.withSpan("SpaceContent.commit", { attributes: { spaceId } })
          )
        }

        const fileUse = storedFiles(edit)
        return SpaceContent.of({
          ...reading(edit),
          ...reusableContentReading(edit),
          ...changeLists(edit),
          ...fileUse,
          mainHead,
          commit,
          ...templateImport(edit, { commit, storeFile: fileUse.storeFile }),
          ...websiteImport(edit, { commit })
        })
      })
    )

  /** The use cases with default bounds; needs the content ports, ContentAccess, the RevisionWriter, a BlobStore and OutboundFetch. */
  static readonly layer = SpaceContent.layerWith()
}
