/**
 * Immutable revisions of a space's content. A revision holds the page tree, the files and the
 * variables; page markdown lives in a content-addressed document store (keyed by the SHA-256 of
 * the markdown), so a revision that changes one page of a thousand writes one new document and
 * shares the rest with its parent.
 */
import { createHash } from "node:crypto"

export type PageType = "document" | "group" | "link"

export type RevisionType = "edits" | "merge" | "rollback" | "update" | "computed"

export interface PageLayout {
  readonly width?: "default" | "wide" | undefined
  readonly cover?: boolean | undefined
  readonly coverSize?: "hero" | "full" | undefined
  readonly title?: boolean | undefined
  readonly description?: boolean | undefined
  readonly tableOfContents?: boolean | undefined
  readonly outline?: boolean | undefined
  readonly pagination?: boolean | undefined
  readonly metadata?: boolean | undefined
}

/** Where a link page (or a cover) points. */
export type ContentRef =
  | { readonly kind: "url"; readonly url: string }
  | { readonly kind: "page"; readonly page: string }
  | { readonly kind: "file"; readonly file: string }

export interface PageNode {
  readonly id: string
  readonly type: PageType
  readonly title: string
  /** URL segment, unique among siblings; stable across edits unless the page is renamed on purpose. */
  readonly slug: string
  readonly emoji?: string | undefined
  readonly icon?: string | undefined
  readonly description?: string | undefined
  readonly hidden?: boolean | undefined
  readonly layout?: PageLayout | undefined
  readonly cover?: { readonly ref: ContentRef; readonly refDark?: ContentRef | undefined; readonly yPos?: number | undefined } | undefined
  readonly variables?: Readonly<Record<string, string>> | undefined
  /** Documents: the hash of the page's markdown in the document store. */
  readonly document?: string | undefined
  /** Links: the target. */
  readonly target?: ContentRef | undefined
  /** Pages that came from Git: the blob and its path in the repository. */
  readonly git?: { readonly oid: string; readonly path: string } | undefined
  readonly createdAt: string
  readonly updatedAt: string
  readonly pages: ReadonlyArray<PageNode>
}

export interface FileNode {
  readonly id: string
  readonly name: string
  readonly contentType: string
  readonly size: number
  readonly dimensions?: { readonly width: number; readonly height: number } | undefined
  /** The SHA-256 of the bytes in the blob store. */
  readonly blob: string
  readonly git?: { readonly oid: string; readonly path: string } | undefined
}

export interface RevisionGit {
  readonly oid: string
  readonly message: string
  readonly createdByService: boolean
  readonly url?: string | undefined
  readonly ref?: string | undefined
}

export interface Revision {
  readonly id: string
  readonly spaceId: string
  readonly parents: ReadonlyArray<string>
  readonly type: RevisionType
  readonly pages: ReadonlyArray<PageNode>
  readonly files: ReadonlyArray<FileNode>
  readonly variables: Readonly<Record<string, string>>
  readonly git: RevisionGit | null
  readonly createdAt: Date
}

/** The key of a markdown document in the content-addressed store. */
export const documentHash = (markdown: string): string => createHash("sha256").update(markdown).digest("hex")

/** Every page of a tree, depth first, with its path (slugs from the root, joined by `/`). */
export const flattenPages = (
  pages: ReadonlyArray<PageNode>,
  prefix = ""
): ReadonlyArray<{ readonly page: PageNode; readonly path: string; readonly parentId: string | null }> => {
  const out: Array<{ page: PageNode; path: string; parentId: string | null }> = []
  const walk = (nodes: ReadonlyArray<PageNode>, base: string, parentId: string | null) => {
    for (const page of nodes) {
      const path = base === "" ? page.slug : `${base}/${page.slug}`
      out.push({ page, path, parentId })
      walk(page.pages, path, page.id)
    }
  }
  walk(pages, prefix, null)
  return out
}
