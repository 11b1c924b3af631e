/**
 * What one revision may hold: pages, files, the encoded size of its tree and of each node, its
 * metadata, and each page's markdown. Every writer meets them through the RevisionWriter, so no
 * stored row grows past what the database client reads back (see "Bounded rows" in
 * docs/content.md).
 */
import { Effect } from "effect"
import { Errors } from "@quire/kernel"
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
 * node, at most `nodeBytes`, fits one part), markdown is one row of at most 8 MiB.
 */
export const defaultRevisionLimits: RevisionLimits = {
  pages: 50_000,
  files: 50_000,
  treeBytes: 32 * MiB,
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

/** UTF-8 bytes of the JSON of a page's own fields; the RevisionWriter passes one that remembers them by node, as nodes are immutable. */
export type OwnBytes = (page: PageNode) => number

const pageBytes: OwnBytes = (page) => jsonBytes(ownFields(page))

const refuse = (field: string, reason: string) => Effect.fail(new Errors.InvalidInput({ field, reason }))

const mib = (bytes: number) => bytes % MiB === 0 ? `${bytes / MiB} MiB` : bytes % KiB === 0 ? `${bytes / KiB} KiB` : `${bytes} bytes`

/** The first page (depth first) whose own JSON is over `max` bytes, and the tree's page count and bytes. */
const measurePages = (pages: ReadonlyArray<PageNode>, max: number, ownBytes: OwnBytes) => {
  let count = 0
  let bytes = 0
  let oversized: { readonly id: string; readonly bytes: number } | undefined
  const walk = (nodes: ReadonlyArray<PageNode>) => {
    for (const page of nodes) {
      count++
      const own = ownBytes(page)
      bytes += own
      if (own > max && oversized === undefined) oversized = { id: page.id, bytes: own }
      walk(page.pages)
    }
  }
  walk(pages)
  return { count, bytes, oversized }
}

const measureFiles = (files: ReadonlyArray<FileNode>, max: number) => {
  let bytes = 0
  let oversized: { readonly id: string; readonly bytes: number } | undefined
  for (const file of files) {
    const own = jsonBytes(file)
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
  ownBytes: OwnBytes = pageBytes
): Effect.Effect<void, Errors.InvalidInput> => {
  if (revision.files.length > limits.files) {
    return refuse("files", `a revision holds at most ${limits.files} files (the files-per-revision limit); this one has ${revision.files.length}`)
  }
  const pages = measurePages(revision.pages, limits.nodeBytes, ownBytes)
  if (pages.count > limits.pages) {
    return refuse("pages", `a revision holds at most ${limits.pages} pages (the pages-per-revision limit); this one has ${pages.count}`)
  }
  if (pages.oversized !== undefined) {
    return refuse("pages", `page ${JSON.stringify(pages.oversized.id)} takes ${pages.oversized.bytes} bytes; one page's title, description and ` +
      `other fields take at most ${mib(limits.nodeBytes)} (the page-size limit)`)
  }
  const files = measureFiles(revision.files, limits.nodeBytes)
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
