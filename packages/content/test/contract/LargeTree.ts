/** A page tree and file list larger than the database client reads in one row, for the parted-storage tests. */
import type { FileNode, PageNode } from "../../src/domain/Revision.ts"

const stamp = "2024-01-01T00:00:00.000Z"

/** A title of about 400 characters, some outside ASCII, different for each page. */
const longTitle = (n: number) => `Page ${n}: ${"Übersicht des Kapitels « réglages » ".repeat(11)}${n}`

const node = (id: string, n: number, pages: ReadonlyArray<PageNode>): PageNode => ({
  id,
  type: pages.length === 0 ? "link" : "group",
  title: longTitle(n),
  slug: id,
  ...(pages.length === 0 ? { target: { kind: "url" as const, url: `https://example.com/${id}` } } : {}),
  description: `Description of page ${n}, long enough to count.`,
  createdAt: stamp,
  updatedAt: stamp,
  pages
})

/**
 * What the contract suites' database client reads in one message (Repos.test.ts): a tree or a row
 * just over it is "larger than one row may hold" without the 16 MiB the production client reads.
 */
export const contractMaxMessageBytes = 2 * 1024 * 1024

/**
 * `groups` top-level pages (100 by default) of 30 children of 9 grandchildren each (30,100 pages,
 * about 18 MB of JSON, over the 16 MiB a row may take; about 180 KB a group), and `files` files.
 */
export const largeTree = (prefix: string, files = 0, groups = 100): { readonly pages: ReadonlyArray<PageNode>; readonly files: ReadonlyArray<FileNode> } => {
  let n = 0
  const pages = Array.from({ length: groups }, (_, a) => {
    const children = Array.from({ length: 30 }, (_, b) => {
      const grandchildren = Array.from({ length: 9 }, (_, c) => node(`${prefix}-${a}-${b}-${c}`, n++, []))
      return node(`${prefix}-${a}-${b}`, n++, grandchildren)
    })
    return node(`${prefix}-${a}`, n++, children)
  })
  const fileNodes = Array.from({ length: files }, (_, i): FileNode => ({
    id: `${prefix}-f${i}`,
    name: `asset ${i} — é.png`,
    contentType: "image/png",
    size: 1000 + i,
    dimensions: { width: 640, height: 480 },
    blob: i.toString(16).padStart(64, "0")
  }))
  return { pages, files: fileNodes }
}
