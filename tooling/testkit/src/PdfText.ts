/** The text of a PDF as a reader would copy it (pdf.js), page by page, and the fonts it embeds. */
import { Effect } from "effect"
import { getDocument } from "pdfjs-dist/legacy/build/pdf.mjs"

/** Each page's text: pdf.js's text items joined, a line break where it marks one. */
export const pdfText = (bytes: Uint8Array): Effect.Effect<ReadonlyArray<string>> =>
  Effect.promise(async () => {
    const task = getDocument({ data: new Uint8Array(bytes), useSystemFonts: false, disableFontFace: true })
    const document = await task.promise
    const pages: Array<string> = []
    for (let n = 1; n <= document.numPages; n++) {
      const content = await (await document.getPage(n)).getTextContent()
      pages.push(content.items.map((item) => ("str" in item ? item.str + (item.hasEOL ? "\n" : "") : "")).join(""))
    }
    await task.destroy()
    return pages
  })

/** The fonts a PDF embeds (`/FontFile2` programs), by base name without the subset tag. */
export const embeddedFonts = (bytes: Uint8Array): ReadonlyArray<string> => {
  const text = Buffer.from(bytes).toString("latin1")
  const names = [...text.matchAll(/\/FontName \/[A-Z]{6}\+([^\s/]+)/g)].map(([, name]) => name!)
  return [...new Set(names)].toSorted()
}
