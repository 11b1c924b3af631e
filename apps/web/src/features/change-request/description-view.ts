/**
 * A change request's description as the header reads and writes it, loaded with `import()`:
 * GitBook's document to markdown and back with content's one codec, and the markdown drawn as the
 * review draws a page's blocks (render.ts, the site's `.markdown` styles; text put in as text).
 */
import { createMarkdownCodec, createSchema } from "@quire/document"
import { documentText, markdownDocument } from "@quire/content/markdown/DocumentCodec"
import { linkRenderStylesheet } from "../../ui/render-stylesheet.ts"
import { blockDrawer } from "../review/render.ts"

const schema = createSchema()
const codec = createMarkdownCodec(schema)
// A description names no stored file of a page: an image by URL alone.
const draw = blockDrawer(schema, () => undefined)

export { documentText, markdownDocument }

/** The markdown drawn, block by block. */
export const descriptionHtml = (markdown: string): string => {
  linkRenderStylesheet()
  const doc = codec.parse(markdown)
  const html: Array<string> = []
  doc.forEach((node) => { html.push(draw(node)) })
  return html.join("")
}
