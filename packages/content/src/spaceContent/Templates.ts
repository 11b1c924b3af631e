/** The use case that adds a built-in template's pages and files after a space's pages, as one commit. */
import { Effect } from "effect"
import { Errors } from "@quire/kernel"
import { documentHash, type FileNode, type PageNode } from "../domain/Revision.ts"
import { slugify, uniqueSlug } from "@quire/markdown"
import type { SpaceContentShape } from "./SpaceContentTypes.ts"
import { type TemplatePage, templates } from "../templates/Templates.ts"
import type { ContentEdit } from "./ContentEdit.ts"
import { relink } from "./Relink.ts"

export const templateImport = (edit: ContentEdit, writes: Pick<SpaceContentShape, "commit" | "storeFile">) => {
  const { access, ids, now } = edit
  const { commit, storeFile } = writes

  /** Pages (and their documents) made from template pages, with fresh ids and slugs unique among `taken`. */
  const templatePages = Effect.fnUntraced(function*(
    nodes: ReadonlyArray<TemplatePage>,
    taken: Set<string>,
    fileIds: ReadonlyMap<string, string>,
    documents: Map<string, string>,
    renames: Map<string, string>,
    at: string
  ): Effect.fn.Return<ReadonlyArray<PageNode>> {
    const out: Array<PageNode> = []
    for (const node of nodes) {
      const wanted = slugify(node.title)
      const slug = uniqueSlug(wanted, taken)
      taken.add(slug)
      if (slug !== wanted) renames.set(wanted, slug)
      const children = yield* templatePages(node.pages ?? [], new Set(), fileIds, documents, new Map(), at)
      const type = node.type ?? "document"
      let document: string | undefined
      if (type === "document") {
        const markdown = (node.markdown ?? "").replace(/\{\{file:([a-z0-9-]+)\}\}/g, (match, key: string) => fileIds.get(key) ?? match)
        document = documentHash(markdown)
        documents.set(document, markdown)
      }
      out.push({
        id: yield* ids.make,
        type,
        title: node.title,
        slug,
        ...(node.emoji === undefined ? {} : { emoji: node.emoji }),
        ...(node.description === undefined ? {} : { description: node.description }),
        ...(document === undefined ? {} : { document }),
        createdAt: at,
        updatedAt: at,
        pages: children
      })
    }
    return out
  })

  const applyTemplate = Effect.fn("SpaceContent.applyTemplate")(function*(spaceId: string, templateId: string) {
    const template = templates.get(templateId)
    if (template === undefined) {
      return yield* new Errors.InvalidInput({
        field: "id",
        reason: `no template ${JSON.stringify(templateId)}; the templates are ${Array.from(templates.keys()).join(", ")}`
      })
    }
    const { space } = yield* access.space(spaceId)
    // The files are stored once, not again on a retry of the write; they count against the
    // quota with the revision that points to them.
    const stored: Array<FileNode> = []
    const fileIds = new Map<string, string>()
    return yield* Effect.gen(function*() {
      for (const f of template.files) {
        const node = yield* storeFile(space.organizationId, { name: f.name, contentType: f.contentType, bytes: Buffer.from(f.base64, "base64") })
        stored.push(node)
        fileIds.set(f.key, node.id)
      }
      return yield* commit(spaceId, (parent) =>
        Effect.gen(function*() {
          const at = (yield* now).toISOString()
          const documents = new Map<string, string>()
          const renames = new Map<string, string>()
          const taken = new Set(parent.pages.map((p) => p.slug))
          const made = yield* templatePages(template.pages, taken, fileIds, documents, renames, at)
          const linked = relink(made, documents, renames)
          return {
            pages: [...parent.pages, ...linked.pages],
            files: [...parent.files, ...stored],
            documents: linked.documents
          }
        }))
    })
  })

  return { applyTemplate }
}
