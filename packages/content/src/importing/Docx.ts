/**
 * Word documents (`.docx`) as import pages, through mammoth: headings, lists, tables, links and
 * images kept (images become space files); a document is one page titled by its paragraph in
 * Word's Title style, else its first heading, else its file name.
 */
import { escapeHtml } from "@quire/kernel"
import type { DomDocument, DomElement } from "../markdown/Dom.ts"
import type { ImportTree, TreeAsset, TreePage } from "./ImportTree.ts"
import { htmlPage, type Resolver } from "./Links.ts"
import { humanize, splitMarkdown } from "./MarkdownFolder.ts"

/** Whether `bytes` are a Word document: a zip holding `word/document.xml`. */
export const isDocx = (name: string): boolean => /\.docx$/i.test(name)

const extensions: Record<string, string> = { "image/png": "png", "image/jpeg": "jpg", "image/gif": "gif", "image/svg+xml": "svg", "image/bmp": "bmp", "image/tiff": "tiff", "image/webp": "webp", "image/x-emf": "emf", "image/x-wmf": "wmf" }

/**
 * Word tables have no header cells: the first row becomes the header, and cells lose the
 * paragraphs around their text, so that the converter writes markdown tables.
 */
const headerRows = (document: DomDocument) => {
  for (const table of Array.from(document.querySelectorAll("table") as unknown as ArrayLike<DomElement>)) {
    const rows = Array.from(table.querySelectorAll("tr") as unknown as ArrayLike<DomElement>)
    rows.forEach((row, index) => {
      const cells = Array.from(row.querySelectorAll("td, th") as unknown as ArrayLike<DomElement>)
      const tag = index === 0 ? "th" : "td"
      row.innerHTML = cells.map((cell) => `<${tag}>${escapeHtml((cell.textContent ?? "").trim())}</${tag}>`).join("")
    })
  }
}

/**
 * Word's Title style (and Subtitle, which mammoth would also flatten into a plain paragraph):
 * marked so that `takeTitle` finds them; the others keep mammoth's mapping.
 */
const styleMap = ["p[style-name='Title'] => h1.docx-title:fresh", "p[style-name='Subtitle'] => p.docx-subtitle:fresh"]

/**
 * The page's title: the first paragraph in the Title style, taken out of the body. A document with
 * several keeps the others as headings; a subtitle stays a paragraph, in italics.
 */
const takeTitle = (document: DomDocument): string | undefined => {
  const titles = Array.from(document.querySelectorAll("h1.docx-title") as unknown as ArrayLike<DomElement>)
  const text = titles[0]?.textContent?.replace(/\s+/g, " ").trim()
  for (const [index, element] of titles.entries()) {
    if (index === 0 && text !== undefined && text !== "") element.remove()
    else element.removeAttribute("class")
  }
  for (const subtitle of Array.from(document.querySelectorAll("p.docx-subtitle") as unknown as ArrayLike<DomElement>)) {
    subtitle.removeAttribute("class")
    subtitle.innerHTML = `<em>${subtitle.innerHTML}</em>`
  }
  return text === "" ? undefined : text
}

/** One page per document; `documents` are the uploads' names and bytes. */
export const docxTree = async (documents: ReadonlyArray<{ readonly name: string; readonly bytes: Uint8Array }>): Promise<ImportTree> => {
  const mammoth = (await import("mammoth")).default
  const assets = new Map<string, TreeAsset>()
  const pages: Array<TreePage> = []
  for (const [index, document] of documents.entries()) {
    const stem = document.name.replace(/\.docx$/i, "")
    let images = 0
    const converted = await mammoth.convertToHtml({ buffer: Buffer.from(document.bytes) }, {
      styleMap,
      convertImage: mammoth.images.imgElement(async (image) => {
        const bytes = new Uint8Array(await image.readAsBuffer())
        const name = `${stem}-image-${++images}.${extensions[image.contentType] ?? "bin"}`
        const key = `docx/${index}/${name}`
        assets.set(key, { name, bytes })
        // A path from the upload's root, which the conversion turns into the file's reference.
        return { src: `/${key}` }
      })
    })
    const resolver: Resolver = { page: () => undefined, file: (path) => assets.has(path) }
    let styledTitle: string | undefined
    const markdown = await htmlPage(converted.value, document.name, resolver, (dom) => {
      styledTitle = takeTitle(dom)
      headerRows(dom)
    })
    // With a Title paragraph, a first heading stays the page's first heading.
    const split = styledTitle === undefined ? splitMarkdown(markdown) : { title: styledTitle, body: markdown.trim() }
    pages.push({ key: `${index}/${document.name}`, title: split.title ?? humanize(stem), markdown: split.body, children: [] })
  }
  return { pages, assets }
}
