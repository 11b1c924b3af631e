/**
 * Uploaded files as one import tree: each file read as the format it is (or the run names): a Word
 * document, a zip of a Confluence or Notion export, a zip of markdown or HTML files, or one
 * markdown or HTML file. Every zip is read within the archive bounds first, a Word document too:
 * mammoth is handed its files as read within them.
 */
import { zipSync } from "fflate"
import type { ImportFormat } from "../domain/ImportRun.ts"
import { type ArchiveLimits, ArchiveRefused, isZip, readArchive, withoutCommonFolder } from "./Archive.ts"
import { confluenceTree, isConfluenceExport } from "./Confluence.ts"
import { docxTree, isDocx } from "./Docx.ts"
import { type ImportTree, renameRefs, type TreeAsset, type TreePage } from "./ImportTree.ts"
import { markdownFolderTree } from "./MarkdownFolder.ts"
import { isNotionExport, notionTree } from "./Notion.ts"

export interface Upload {
  readonly name: string
  readonly bytes: Uint8Array
}

/** The format of an upload: the run's when it names one, else what its name and bytes say. */
export const formatOf = (upload: Upload, format: ImportFormat, limits: ArchiveLimits): Exclude<ImportFormat, "auto"> => {
  if (format !== "auto") return format
  if (isDocx(upload.name)) return "docx"
  if (!isZip(upload.bytes)) return "markdown"
  const files = withoutCommonFolder(readArchive(upload.bytes, limits))
  return isConfluenceExport(files) ? "confluence" : isNotionExport(files) ? "notion" : "markdown"
}

/** Checks an upload before a run is queued: a zip within bounds, a file of a format imports read. Throws `ArchiveRefused`. */
export const checkUpload = (upload: Upload, format: ImportFormat, limits: ArchiveLimits): void => {
  const kind = formatOf(upload, format, limits)
  if (kind === "docx") {
    if (!isZip(upload.bytes)) throw new ArchiveRefused(`“${upload.name}” is not a Word document (.docx)`)
    readArchive(upload.bytes, limits)
    return
  }
  if (isZip(upload.bytes)) {
    readArchive(upload.bytes, limits)
    return
  }
  if (kind !== "markdown" || !/\.(md|markdown|mdx|html?)$/i.test(upload.name)) {
    throw new ArchiveRefused(`“${upload.name}” is not a zip archive, a Word document or a markdown or HTML file`)
  }
  if (upload.bytes.byteLength > limits.maxExpandedBytes) throw new ArchiveRefused(`“${upload.name}” is larger than an import takes`)
}

const prefixed = (tree: ImportTree, prefix: string): ImportTree => {
  const rename = (page: TreePage): TreePage => ({
    ...page,
    key: `${prefix}${page.key}`,
    ...(page.markdown === undefined ? {} : { markdown: renameRefs(page.markdown, (key) => `${prefix}${key}`) }),
    children: page.children.map(rename)
  })
  return { pages: tree.pages.map(rename), assets: new Map([...tree.assets].map(([key, asset]) => [`${prefix}${key}`, asset])) }
}

/** The import tree of the uploads, in their order. */
export const uploadsTree = async (uploads: ReadonlyArray<Upload>, format: ImportFormat, limits: ArchiveLimits): Promise<ImportTree> => {
  const pages: Array<TreePage> = []
  const assets = new Map<string, TreeAsset>()
  const docx: Array<Upload> = []
  for (const [index, upload] of uploads.entries()) {
    const kind = formatOf(upload, format, limits)
    if (kind === "docx") {
      // Word reads the files as inflated within bounds, stored uncompressed: it inflates nothing itself.
      docx.push({ name: upload.name, bytes: zipSync(Object.fromEntries(readArchive(upload.bytes, limits)), { level: 0 }) })
      continue
    }
    const files = isZip(upload.bytes) ? withoutCommonFolder(readArchive(upload.bytes, limits)) : new Map([[upload.name, upload.bytes]])
    const tree = kind === "confluence" ? await confluenceTree(files) : kind === "notion" ? notionTree(files) : await markdownFolderTree(files)
    // Keys of several uploads must not meet: each upload's are under its own prefix.
    const own = uploads.length === 1 ? tree : prefixed(tree, `${index}:`)
    pages.push(...own.pages)
    for (const [key, asset] of own.assets) assets.set(key, asset)
  }
  if (docx.length > 0) {
    const tree = await docxTree(docx)
    pages.push(...tree.pages)
    for (const [key, asset] of tree.assets) assets.set(key, asset)
  }
  return { pages, assets }
}
