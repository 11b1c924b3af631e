import { getHtmlAttr, setHtmlAttr, type HtmlAttr } from "../shared/html.ts"
import { atomView, field, h, setAttrs } from "../shared/view.ts"

/** The image with its caption and width as fields. */
export const figureView = atomView((props, node) => {
  const img = node.attrs.img as ReadonlyArray<HtmlAttr>
  const set = (name: string) => (value: string) => setAttrs({ ...props, node }, { img: setHtmlAttr(img, name, value) })
  const caption = (node.attrs.caption as string).replace(/^<p>([\s\S]*)<\/p>$/, "$1")
  return h(
    "figure",
    {},
    h("img", { src: getHtmlAttr(img, "src") ?? "", alt: getHtmlAttr(img, "alt") ?? "", ...(getHtmlAttr(img, "width") ? { width: getHtmlAttr(img, "width")! } : {}) }),
    field("Caption", caption, (c) => setAttrs({ ...props, node }, { caption: c === "" ? "" : `<p>${c}</p>` })).root,
    field("Alt text", getHtmlAttr(img, "alt") ?? "", set("alt")).root,
    field("Width", getHtmlAttr(img, "width") ?? "", set("width")).root
  )
})
