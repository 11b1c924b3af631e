/**
 * What one revision may hold: pages, files, the encoded size of its tree and of each node, its
 * metadata, and each page's markdown. Every writer meets them through the RevisionWriter, so no
 * stored row grows past what the database client reads back (see "Bounded rows" in
 * docs/content.md).
 */
import { Effect } from "effect"
import { Errors } from "@quire/kernel"
import { describeBreach, markdownLimitBreach } from "@quire/markdown"
import type { FileNode, PageNode, Revision } from "./Revision.ts"

const KiB = 1024
const MiB = 1024 * KiB

export interface RevisionLimits {
  /** Pages of a revision, nested ones included. */
  readonly pages: number
  /** Files of a revision. */
  readonly files: number
  /** UTF-8 bytes of the JSON of the whole page tree and file list. */
  readonly treeBytes: number
  /** UTF-8 bytes of the JSON of one page (without its children) or one file. */
  readonly nodeBytes: number
  /** UTF-8 bytes of the JSON of the revision's parents, variables and Git origin (commit message). */
  readonly metadataBytes: number
  /** UTF-8 bytes of one page's markdown. */
  readonly documentBytes: number
}

/**
 * The defaults. Stored rows stay well under the client's 16 MiB message (`@quire/db`'s
 * `clientMaxMessageBytes`): the tree is stored in parts of at most `partBytes` of JSON (and a
 * node, at most `nodeBytes`, fits one part), markdown is one row of at most 8 MiB. `treeBytes`
 * holds 100,000 pages of a Git import (about 570 bytes each with a description and a Git path:
 * 54 MiB) and some files; it bounds the memory of a revision, not a row.
 */
export const defaultRevisionLimits: RevisionLimits = {
  pages: 100_000,
  files: 100_000,
  treeBytes: 64 * MiB,
  nodeBytes: 256 * KiB,
  metadataBytes: 1 * MiB,
  documentBytes: 8 * MiB
}

/** The JSON of one stored part of a revision's tree: a run of nodes (see RevisionParts.ts). */
export const partBytes = 512 * KiB

/** UTF-8 bytes of `value`'s JSON. */
export const jsonBytes = (value: unknown): number => Buffer.byteLength(JSON.stringify(value))

/** A page without its children: what one stored node of the tree holds. */
export const ownFields = (page: PageNode): Omit<PageNode, "pages"> => {
  const { pages: _children, ...own } = page
  return own
}

/** A document over `documentBytes`, which the adapters refuse as a defect (the RevisionWriter refuses it first). */
export const unstorableDocument = (documents: ReadonlyMap<string, string>): string | undefined => {
  for (const [hash, markdown] of documents) {
    if (Buffer.byteLength(markdown) > defaultRevisionLimits.documentBytes) {
      return `Document ${hash} is over ${defaultRevisionLimits.documentBytes} bytes: its write bypassed the RevisionWriter's limits`
    }
  }
  return undefined
}

/** A page with its subtree: how many pages, the bytes of their own fields, and the largest of those. */
export interface SubtreeSize {
  readonly pages: number
  readonly bytes: number
  readonly largest: number
}

/** How the limits measure a tree; `treeMeasure` makes one, which the RevisionWriter keeps, as nodes are immutable. */
export interface TreeMeasure {
  readonly subtree: (page: PageNode) => SubtreeSize
  /** UTF-8 bytes of a file's JSON. */
  readonly file: (file: FileNode) => number
}

/** A measure that remembers each page's subtree and each file by object: a tree that shares its parent's nodes is measured along what it changed. */
export const treeMeasure = (): TreeMeasure => {
  const subtrees = new WeakMap<PageNode, SubtreeSize>()
  const files = new WeakMap<FileNode, number>()
  const subtree = (page: PageNode): SubtreeSize => {
    const known = subtrees.get(page)
    if (known !== undefined) return known
    const own = jsonBytes(ownFields(page))
    let pages = 1
    let bytes = own
    let largest = own
    for (const child of page.pages) {
      const size = subtree(child)
      pages += size.pages
      bytes += size.bytes
      largest = Math.max(largest, size.largest)
    }
    const size = { pages, bytes, largest }
    subtrees.set(page, size)
    return size
  }
  const file = (node: FileNode): number => {
    const known = files.get(node)
    if (known !== undefined) return known
    const bytes = jsonBytes(node)
    files.set(node, bytes)
    return bytes
  }
  return { subtree, file }
}

const refuse = (field: string, reason: string) => Effect.fail(new Errors.InvalidInput({ field, reason }))

const mib = (bytes: number) => bytes % MiB === 0 ? `${bytes / MiB} MiB` : bytes % KiB === 0 ? `${bytes / KiB} KiB` : `${bytes} bytes`

/** The first page (depth first) whose own JSON is over `max` bytes. */
const firstOversized = (pages: ReadonlyArray<PageNode>, max: number): { readonly id: string; readonly bytes: number } | undefined => {
  for (const page of pages) {
    const own = jsonBytes(ownFields(page))
    if (own > max) return { id: page.id, bytes: own }
    const nested = firstOversized(page.pages, max)
    if (nested !== undefined) return nested
  }
  return undefined
}

/** The tree's page count and bytes, and its first page (depth first) whose own JSON is over `max` bytes. */
const measurePages = (pages: ReadonlyArray<PageNode>, max: number, measure: TreeMeasure) => {
  let count = 0
  let bytes = 0
  let largest = 0
  for (const page of pages) {
    const size = measure.subtree(page)
    count += size.pages
    bytes += size.bytes
    largest = Math.max(largest, size.largest)
  }
  return { count, bytes, oversized: largest > max ? firstOversized(pages, max) : undefined }
}

const measureFiles = (files: ReadonlyArray<FileNode>, max: number, measure: TreeMeasure) => {
  let bytes = 0
  let oversized: { readonly id: string; readonly bytes: number } | undefined
  for (const file of files) {
    const own = measure.file(file)
    bytes += own
    if (own > max && oversized === undefined) oversized = { id: file.id, bytes: own }
  }
  return { bytes, oversized }
}

/**
 * Refuses a revision over `limits`, naming the limit (InvalidInput, a 400): its pages, files, tree
 * size, one node, its metadata, or the markdown of a document it introduces.
 */
export const checkRevisionLimits = (
  revision: Revision,
  documents: ReadonlyMap<string, string>,
  limits: RevisionLimits = defaultRevisionLimits,
  measure: TreeMeasure = treeMeasure()
): Effect.Effect<void, Errors.InvalidInput> => {
  if (revision.files.length > limits.files) {
    return refuse("files", `a revision holds at most ${limits.files} files (the files-per-revision limit); this one has ${revision.files.length}`)
  }
  const pages = measurePages(revision.pages, limits.nodeBytes, measure)
  if (pages.count > limits.pages) {
    return refuse("pages", `a revision holds at most ${limits.pages} pages (the pages-per-revision limit); this one has ${pages.count}`)
  }
  if (pages.oversized !== undefined) {
    return refuse("pages", `page ${JSON.stringify(pages.oversized.id)} takes ${pages.oversized.bytes} bytes; one page's title, description and ` +
      `other fields take at most ${mib(limits.nodeBytes)} (the page-size limit)`)
  }
  const files = measureFiles(revision.files, limits.nodeBytes, measure)
  if (files.oversized !== undefined) {
    return refuse("files", `file ${JSON.stringify(files.oversized.id)} takes ${files.oversized.bytes} bytes of metadata; one file takes at most ` +
      `${mib(limits.nodeBytes)} (the file-size limit of the tree)`)
  }
  if (pages.bytes + files.bytes > limits.treeBytes) {
    return refuse("pages", `the page tree and file list take ${pages.bytes + files.bytes} bytes; a revision's tree takes at most ` +
      `${mib(limits.treeBytes)} (the tree-size limit)`)
  }
  const metadata = jsonBytes([revision.parents, revision.variables, revision.git])
  if (metadata > limits.metadataBytes) {
    return refuse("variables", `the revision's variables and Git origin take ${metadata} bytes; at most ${mib(limits.metadataBytes)} ` +
      `(the revision-metadata limit)`)
  }
  for (const [hash, markdown] of documents) {
    const bytes = Buffer.byteLength(markdown)
    if (bytes > limits.documentBytes) {
      const page = findPage(revision.pages, hash)
      return refuse("markdown", `the markdown of ${page === undefined ? "a page" : `page ${JSON.stringify(page.title)}`} takes ${bytes} bytes ` +
        `(UTF-8); a page's markdown takes at most ${mib(limits.documentBytes)} (the page-markdown limit)`)
    }
    // Nesting that would make every later parse of the page slow (see "Markdown limits" in docs/content.md).
    const breach = markdownLimitBreach(markdown)
    if (breach !== undefined) {
      const page = findPage(revision.pages, hash)
      return refuse("markdown", `the markdown of ${page === undefined ? "a page" : `page ${JSON.stringify(page.title)}`} is over ${describeBreach(breach)}`)
    }
  }
  return Effect.void
}

const findPage = (pages: ReadonlyArray<PageNode>, document: string): PageNode | undefined => {
  for (const page of pages) {
    if (page.document === document) return page
    const nested = findPage(page.pages, document)
    if (nested !== undefined) return nested
  }
  return undefined
}
