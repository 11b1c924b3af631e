/**
 * Use cases that import a website: fetched through OutboundFetch, its pages added after a
 * space's pages as one commit.
 */
import { Effect } from "effect"
import { OutboundFetch, type OutboundFetchError } from "@quire/outbound"
import { Errors } from "@quire/kernel"
import * as Access from "../Access.ts"
import { documentHash, type FileNode, type PageNode, type Revision } from "../domain/Revision.ts"
import { importWebsite as fetchWebsite, type WebsiteImportError } from "../importing/WebsiteImporter.ts"
import { uniqueSlug } from "@quire/markdown"
import { type ContentChange, ensureWritable } from "../RevisionWriter.ts"
import type { SpaceContentShape } from "./SpaceContentTypes.ts"
import type { ContentEdit } from "./ContentEdit.ts"
import { relink } from "./Relink.ts"

/** Same-site images fetched at most by an import run of a website. */
const maxImportedImages = 100

/** The markdown with each stored image's URL (as a link target) in the space's stored form, `/files/<id>`. */
const showStored = (markdown: string, stored: ReadonlyMap<string, FileNode>): string =>
  markdown.replace(/\]\((<?)([^)\s>]+)(>?)/g, (whole, open: string, url: string, close: string) => {
    const file = stored.get(url)
    return file === undefined ? whole : `](${open}/files/${file.id}${close}`
  })

export const websiteImport = (edit: ContentEdit, writes: Pick<SpaceContentShape, "commit">) => {
  const { options, access, fetcher, ids, now } = edit
  const { commit } = writes

  const fetchSite = Effect.fn("SpaceContent.fetchWebsite")(function*(url: string, wanted: { readonly images?: boolean } = {}) {
    const site = yield* fetchWebsite(url, { ...options.import, maxImages: wanted.images === true ? (options.import?.maxImages ?? maxImportedImages) : 0 }).pipe(
      Effect.provideService(OutboundFetch, fetcher),
      Effect.mapError((error: OutboundFetchError | WebsiteImportError) =>
        new Errors.InvalidInput({ field: "url", reason: error.message })
      )
    )
    const build = (parent: Revision, stored: ReadonlyMap<string, FileNode> = new Map()): Effect.Effect<ContentChange> =>
      Effect.gen(function*() {
        const at = (yield* now).toISOString()
        const taken = new Set(parent.pages.map((p) => p.slug))
        const renames = new Map<string, string>()
        const documents = new Map<string, string>()
        const pages: Array<PageNode> = []
        for (const page of site.pages) {
          // An image stored as a file is shown from the space, the others stay links to the website.
          const imported = stored.size === 0 ? page : { ...page, markdown: showStored(page.markdown, stored) }
          const slug = uniqueSlug(imported.path, taken)
          taken.add(slug)
          if (slug !== imported.path) renames.set(imported.path, slug)
          const document = documentHash(imported.markdown)
          documents.set(document, imported.markdown)
          pages.push({
            id: yield* ids.make,
            type: "document",
            title: imported.title === "" ? slug : imported.title,
            slug,
            document,
            createdAt: at,
            updatedAt: at,
            pages: []
          })
        }
        const linked = relink(pages, documents, renames)
        const files = stored.size === 0 ? undefined : [...parent.files, ...stored.values()]
        return { pages: [...parent.pages, ...linked.pages], documents: linked.documents, ...(files === undefined ? {} : { files }) }
      })
    return { build, images: site.images, importedResources: site.importedResources, totalResources: site.totalResources }
  })

  const importWebsite = Effect.fn("SpaceContent.importWebsite")(function*(spaceId: string, url: string) {
    // Checked before anything is fetched, so that nobody makes Quire fetch for a space they cannot change.
    const { permissions, space } = yield* access.space(spaceId)
    yield* Access.ensure(permissions.edit, "edit this space's content")
    yield* ensureWritable(space)
    const site = yield* fetchSite(url)
    const next = yield* commit(spaceId, (parent) => site.build(parent))
    return { revision: next, importedResources: site.importedResources, totalResources: site.totalResources }
  })

  return { fetchWebsite: fetchSite, importWebsite }
}
