/**
 * A folder of markdown files as a tree of pages: each file a page, each folder a page holding its
 * files' pages (its `README.md` or `index.md` gives the folder's page its title and text, else the
 * folder's name does), the root's readme first, then by name as people sort them. Then the tree in
 * batches the API takes, parents before children. Pure, so Node tests it.
 */
import { pageOfFile, type StartPage } from "./templates.ts"

export interface ImportedPage extends StartPage {
  readonly children: ReadonlyArray<ImportedPage>
}

/** A page to insert, and the index (in the insertion order) of the page it goes into. */
export interface PlannedPage extends StartPage {
  readonly parent: number | undefined
}

const readmeName = /^(readme|index)\.(md|markdown)$/i
const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: "base" })

/** A folder's name as a title: `getting-started` → `Getting started`. */
const titleOfFolder = (name: string): string => {
  const words = name.replace(/[-_]+/g, " ").trim()
  return words === "" ? "Untitled" : words.charAt(0).toUpperCase() + words.slice(1)
}

interface Folder {
  readonly folders: Map<string, Folder>
  readonly files: Array<{ readonly name: string; readonly path: string; readonly text: string }>
}

const emptyFolder = (): Folder => ({ folders: new Map(), files: [] })

/**
 * The pages of `files` (paths relative to the chosen folder, `/`-separated). A folder picked whole
 * arrives with the folder's own name first in every path: one common first folder is left out.
 */
export const pagesOfFolder = (files: ReadonlyArray<{ readonly path: string; readonly text: string }>): Array<ImportedPage> => {
  const split = files.map((file) => ({ ...file, parts: file.path.split("/").filter((part) => part !== "" && part !== ".") }))
  const first = split[0]?.parts[0]
  const common = first !== undefined && split.every((file) => file.parts.length > 1 && file.parts[0] === first)
  const root = emptyFolder()
  for (const file of split) {
    const parts = common ? file.parts.slice(1) : file.parts
    let folder = root
    for (const name of parts.slice(0, -1)) {
      let next = folder.folders.get(name)
      if (next === undefined) folder.folders.set(name, next = emptyFolder())
      folder = next
    }
    folder.files.push({ name: parts.at(-1)!, path: file.path, text: file.text })
  }
  const pagesOf = (folder: Folder): Array<ImportedPage> => {
    const entries = [
      ...folder.files.filter((file) => !readmeName.test(file.name)).map((file) => ({ name: file.name, page: { ...pageOfFile(file.path, file.text), children: [] } })),
      ...[...folder.folders].map(([name, inner]) => {
        const readme = inner.files.find((file) => readmeName.test(file.name))
        const own = readme === undefined ? { title: titleOfFolder(name), markdown: "" } : pageOfFile(readme.path, readme.text)
        // A readme titled only by its file name takes the folder's name instead.
        const title = readme !== undefined && own.title.toLowerCase() === readme.name.replace(/\.(md|markdown)$/i, "").toLowerCase() ? titleOfFolder(name) : own.title
        return { name, page: { title, markdown: own.markdown, children: pagesOf(inner) } }
      })
    ].toSorted((a, b) => collator.compare(a.name.replace(/\.(md|markdown)$/i, ""), b.name.replace(/\.(md|markdown)$/i, "")))
    return entries.map((entry) => entry.page)
  }
  const readme = root.files.find((file) => readmeName.test(file.name))
  const pages = pagesOf(root)
  return readme === undefined ? pages : [{ ...pageOfFile(readme.path, readme.text), children: [] }, ...pages]
}

/** The tree in insertion order, depth first, each page naming its parent's index. */
export const insertionOrder = (pages: ReadonlyArray<ImportedPage>): Array<PlannedPage> => {
  const out: Array<PlannedPage> = []
  const walk = (list: ReadonlyArray<ImportedPage>, parent: number | undefined) => {
    for (const page of list) {
      const at = out.length
      out.push({ title: page.title, markdown: page.markdown, parent })
      walk(page.children, at)
    }
  }
  walk(pages, undefined)
  return out
}

/** The number of pages in a tree. */
export const countPages = (pages: ReadonlyArray<ImportedPage>): number => pages.reduce((n, page) => n + 1 + countPages(page.children), 0)

/** Batches of at most `size` pages and `maxMarkdown` characters of markdown, in order. */
export const batches = (pages: ReadonlyArray<PlannedPage>, size: number, maxMarkdown: number): Array<{ readonly from: number; readonly to: number }> => {
  const out: Array<{ from: number; to: number }> = []
  let from = 0
  let chars = 0
  pages.forEach((page, i) => {
    if (i > from && (i - from >= size || chars + page.markdown.length > maxMarkdown)) {
      out.push({ from, to: i })
      from = i
      chars = 0
    }
    chars += page.markdown.length
  })
  if (pages.length > from) out.push({ from, to: pages.length })
  return out
}
