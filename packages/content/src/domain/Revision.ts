/**
 * Immutable revisions of a space's content. A revision holds the page tree, the files and the
 * variables; page markdown lives in a content-addressed document store (keyed by the SHA-256 of
 * the markdown), so a revision that changes one page of a thousand writes one new document and
 * shares the rest with its parent.
 */
import { Schema } from "effect"
import { createHash } from "node:crypto"

export const PageType = Schema.Literals(["document", "group", "link"])
export type PageType = typeof PageType.Type

export const RevisionType = Schema.Literals(["edits", "merge", "rollback", "update", "computed"])
export type RevisionType = typeof RevisionType.Type

export const PageWidth = Schema.Literals(["default", "wide"])
export type PageWidth = typeof PageWidth.Type

/** GitBook's `RevisionPageLayoutOptionsCoverSize`: above the title, the whole width, or behind the header. */
export const CoverSize = Schema.Literals(["hero", "full", "background"])
export type CoverSize = typeof CoverSize.Type

export interface PageLayout {
  readonly width?: PageWidth | undefined
  readonly cover?: boolean | undefined
  readonly coverSize?: CoverSize | undefined
  readonly title?: boolean | undefined
  readonly description?: boolean | undefined
  readonly tableOfContents?: boolean | undefined
  readonly outline?: boolean | undefined
  readonly pagination?: boolean | undefined
  readonly metadata?: boolean | undefined
}

export const PageLayout: Schema.Codec<PageLayout> = Schema.Struct({
  width: Schema.optional(PageWidth),
  cover: Schema.optional(Schema.Boolean),
  coverSize: Schema.optional(CoverSize),
  title: Schema.optional(Schema.Boolean),
  description: Schema.optional(Schema.Boolean),
  tableOfContents: Schema.optional(Schema.Boolean),
  outline: Schema.optional(Schema.Boolean),
  pagination: Schema.optional(Schema.Boolean),
  metadata: Schema.optional(Schema.Boolean)
})

/** Where a link page (or a cover) points. */
export const ContentRef = Schema.Union([
  Schema.Struct({ kind: Schema.Literal("url"), url: Schema.String }),
  // `anchor`: a heading of the page (GitBook's anchor reference), a link page to `page.md#anchor`.
  Schema.Struct({ kind: Schema.Literal("page"), page: Schema.String, anchor: Schema.optional(Schema.String) }),
  Schema.Struct({ kind: Schema.Literal("file"), file: Schema.String })
])
export type ContentRef = typeof ContentRef.Type

/** Content that came from Git: the blob and its path in the repository. */
export const GitBlob = Schema.Struct({ oid: Schema.String, path: Schema.String })
export type GitBlob = typeof GitBlob.Type

export const PageCover = Schema.Struct({
  ref: ContentRef,
  refDark: Schema.optional(ContentRef),
  yPos: Schema.optional(Schema.Finite),
  /** GitBook's cover `height` in pixels (frontmatter `coverHeight`; 240 when absent). */
  height: Schema.optional(Schema.Finite)
})
export type PageCover = typeof PageCover.Type

/** A slug a writer may give a page: letters, digits, "-" and "_", starting with a letter or digit. */
export const validSlug = /^[a-z0-9][a-z0-9_-]*$/i

export interface PageNode {
  readonly id: string
  readonly type: PageType
  readonly title: string
  /** GitBook's `linkTitle`: the title the navigation shows instead of `title` (a `SUMMARY.md` link's own title, `[Title](page.md "Label")`). */
  readonly linkTitle?: string | undefined
  /** URL segment, unique among siblings; stable across edits unless the page is renamed on purpose. */
  readonly slug: string
  readonly emoji?: string | undefined
  readonly icon?: string | undefined
  readonly description?: string | undefined
  readonly hidden?: boolean | undefined
  readonly layout?: PageLayout | undefined
  readonly cover?: PageCover | undefined
  readonly variables?: Readonly<Record<string, string>> | undefined
  /** Documents: the keys of the page's frontmatter that no field models (GitBook's `tags`, `metadata`, ...), as written through the API. */
  readonly frontmatter?: Readonly<Record<string, unknown>> | undefined
  /** Documents: the hash of the page's markdown in the document store. */
  readonly document?: string | undefined
  /** Links: the target. */
  readonly target?: ContentRef | undefined
  /** Pages that came from Git: the blob and its path in the repository. */
  readonly git?: GitBlob | undefined
  readonly createdAt: string
  readonly updatedAt: string
  readonly pages: ReadonlyArray<PageNode>
}

export const Variables = Schema.Record(Schema.String, Schema.String)

export const PageNode: Schema.Codec<PageNode> = Schema.Struct({
  id: Schema.String,
  type: PageType,
  title: Schema.String,
  linkTitle: Schema.optional(Schema.String),
  slug: Schema.String,
  emoji: Schema.optional(Schema.String),
  icon: Schema.optional(Schema.String),
  description: Schema.optional(Schema.String),
  hidden: Schema.optional(Schema.Boolean),
  layout: Schema.optional(PageLayout),
  cover: Schema.optional(PageCover),
  variables: Schema.optional(Variables),
  frontmatter: Schema.optional(Schema.Record(Schema.String, Schema.Unknown)),
  document: Schema.optional(Schema.String),
  target: Schema.optional(ContentRef),
  git: Schema.optional(GitBlob),
  createdAt: Schema.String,
  updatedAt: Schema.String,
  pages: Schema.Array(Schema.suspend((): Schema.Codec<PageNode> => PageNode))
})

export const FileNode = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  contentType: Schema.String,
  size: Schema.Finite,
  dimensions: Schema.optional(Schema.Struct({ width: Schema.Finite, height: Schema.Finite })),
  /** The SHA-256 of the bytes in the blob store. */
  blob: Schema.String,
  git: Schema.optional(GitBlob)
})
export type FileNode = typeof FileNode.Type

/**
 * A reusable content of the space (GitBook's `RevisionReusableContent`): markdown that pages
 * include with `{% include %}`. Its markdown is a document of the store, like a page's.
 */
export const ReusableContentNode = Schema.Struct({
  id: Schema.String,
  title: Schema.String,
  /** The hash of its markdown in the document store; absent: an empty reusable content. */
  document: Schema.optional(Schema.String),
  /** Reusable contents that came from Git: `.gitbook/includes/<name>.md`. */
  git: Schema.optional(GitBlob)
})
export type ReusableContentNode = typeof ReusableContentNode.Type

export const RevisionGit = Schema.Struct({
  oid: Schema.String,
  message: Schema.String,
  createdByService: Schema.Boolean,
  url: Schema.optional(Schema.String),
  ref: Schema.optional(Schema.String)
})
export type RevisionGit = typeof RevisionGit.Type

export interface Revision {
  readonly id: string
  readonly spaceId: string
  readonly parents: ReadonlyArray<string>
  readonly type: RevisionType
  readonly pages: ReadonlyArray<PageNode>
  readonly files: ReadonlyArray<FileNode>
  /** Absent: none (revisions written before reusable contents, and most spaces). */
  readonly reusableContents?: ReadonlyArray<ReusableContentNode> | undefined
  readonly variables: Readonly<Record<string, string>>
  readonly git: RevisionGit | null
  readonly createdAt: Date
}

/** The key of a markdown document in the content-addressed store. */
export const documentHash = (markdown: string): string => createHash("sha256").update(markdown).digest("hex")

/** Whether a page lies under a hidden page (or is one): published sites leave it out of navigation, machine files and search. */
export const hiddenPath = (pages: ReadonlyArray<PageNode>, path: string): boolean => {
  let nodes = pages
  for (const slug of path.split("/")) {
    const node = nodes.find((p) => p.slug === slug)
    if (node === undefined) return false
    if (node.hidden === true) return true
    nodes = node.pages
  }
  return false
}

/** The page at `path` of a tree and the titles of its ancestors, top-level first; undefined when no page is there. */
export const pageTrail = (pages: ReadonlyArray<PageNode>, path: string): { readonly page: PageNode; readonly ancestors: ReadonlyArray<string> } | undefined => {
  let nodes = pages
  const ancestors: Array<string> = []
  const slugs = path.split("/")
  for (const [i, slug] of slugs.entries()) {
    const node = nodes.find((p) => p.slug === slug)
    if (node === undefined) return undefined
    if (i === slugs.length - 1) return { page: node, ancestors }
    ancestors.push(node.title)
    nodes = node.pages
  }
  return undefined
}

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
