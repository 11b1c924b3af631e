/**
 * What every file import produces before it is written: a tree of pages whose markdown refers to
 * other imported pages and to imported files by their path in the upload
 * (`quire-import:page/<path>`, `quire-import:file/<path>`), and the files' bytes. `materialize`
 * gives the pages their ids and slugs, and those references become GitBook's `/pages/<id>` and
 * `/files/<id>`, which a Git export writes as relative paths.
 */
import { slugify, uniqueSlug } from "@quire/markdown"
import { documentHash, type PageNode } from "../domain/Revision.ts"

/** A page of an import; a folder when it has no markdown. */
export interface TreePage {
  /** Its path in the upload, unique: what references name. */
  readonly key: string
  readonly title: string
  readonly markdown?: string | undefined
  readonly children: ReadonlyArray<TreePage>
}

/** A file of the import, stored as a space file when a page refers to it. */
export interface TreeAsset {
  readonly name: string
  readonly bytes: Uint8Array
}

export interface ImportTree {
  readonly pages: ReadonlyArray<TreePage>
  /** By path in the upload. */
  readonly assets: ReadonlyMap<string, TreeAsset>
}

const encodeKey = (key: string) => encodeURIComponent(key).replace(/[()'!*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)

/** How a page's markdown refers to the imported page at `key`. */
export const pageRef = (key: string, anchor = ""): string => `quire-import:page/${encodeKey(key)}${anchor}`
/** How a page's markdown refers to the imported file at `key`. */
export const fileRef = (key: string): string => `quire-import:file/${encodeKey(key)}`

const refPattern = /quire-import:(page|file)\/([A-Za-z0-9%._~-]+)/g

/** `markdown` with each reference's key passed through `rename`. */
export const renameRefs = (markdown: string, rename: (key: string) => string): string =>
  markdown.replace(refPattern, (_m, kind: string, encoded: string) => `quire-import:${kind}/${encodeKey(rename(decodeURIComponent(encoded)))}`)

/** The file paths the pages refer to, each once. */
export const referencedFiles = (pages: ReadonlyArray<TreePage>): ReadonlySet<string> => {
  const found = new Set<string>()
  const walk = (list: ReadonlyArray<TreePage>) => {
    for (const page of list) {
      for (const match of (page.markdown ?? "").matchAll(refPattern)) if (match[1] === "file") found.add(decodeURIComponent(match[2]!))
      walk(page.children)
    }
  }
  walk(pages)
  return found
}

/** Every page of the tree, depth first. */
export const countPages = (pages: ReadonlyArray<TreePage>): number => pages.reduce((n, page) => n + 1 + countPages(page.children), 0)

/** The pages, with ids from `newId` and slugs unique among siblings (`taken` holds the slugs already beside the first level). */
export interface Materialized {
  readonly pages: ReadonlyArray<PageNode>
  readonly documents: ReadonlyMap<string, string>
  /** Each page's id and where it came from. */
  readonly states: ReadonlyArray<{ readonly id: string; readonly key: string; readonly folder: boolean }>
}

/**
 * Content's pages for `tree`: references to imported pages become `/pages/<id>`, to stored files
 * `/files/<id>` (`fileIds` by path); a reference to what was not imported becomes its path as written.
 */
export const materialize = (
  tree: ImportTree,
  ids: ReadonlyArray<string>,
  fileIds: ReadonlyMap<string, string>,
  taken: ReadonlySet<string>,
  at: string,
  atRoot = true
): Materialized => {
  const idByKey = new Map<string, string>()
  let next = 0
  const assign = (list: ReadonlyArray<TreePage>) => {
    for (const page of list) {
      idByKey.set(page.key, ids[next++]!)
      assign(page.children)
    }
  }
  assign(tree.pages)
  const resolve = (markdown: string) =>
    markdown.replace(refPattern, (_match, kind: string, encoded: string) => {
      const key = decodeURIComponent(encoded)
      const id = kind === "page" ? idByKey.get(key) : fileIds.get(key)
      if (id === undefined) return encodeURI(key)
      return kind === "page" ? `/pages/${id}` : `/files/${id}`
    })
  const documents = new Map<string, string>()
  const states: Array<Materialized["states"][number]> = []
  // A folder is a group at the first level (GitBook's groups are there only), else a page without text.
  const build = (list: ReadonlyArray<TreePage>, siblings: ReadonlySet<string>, top: boolean): ReadonlyArray<PageNode> => {
    const used = new Set(siblings)
    return list.map((page): PageNode => {
      const slug = uniqueSlug(slugify(page.title) || "page", used)
      used.add(slug)
      const id = idByKey.get(page.key)!
      const group = page.markdown === undefined && top && page.children.length > 0
      const markdown = group ? undefined : page.markdown === undefined ? "" : `${resolve(page.markdown).trim()}\n`
      const document = markdown === undefined ? undefined : documentHash(markdown)
      if (markdown !== undefined && document !== undefined) documents.set(document, markdown)
      states.push({ id, key: page.key, folder: page.markdown === undefined })
      return {
        id,
        type: group ? "group" : "document",
        title: page.title.trim() === "" ? slug : page.title.trim(),
        slug,
        ...(document === undefined ? {} : { document }),
        createdAt: at,
        updatedAt: at,
        pages: build(page.children, new Set(), false)
      }
    })
  }
  const pages = build(tree.pages, taken, atRoot)
  return { pages, documents, states }
}
