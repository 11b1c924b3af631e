import type { NodeViewRenderer } from "@tiptap/core"
import { getHtmlAttr, setHtmlAttr, type HtmlAttr } from "@quire/document"
import { atomView, field, h, setAttrs } from "../shared/view.ts"

import type { FileUrlResolver } from "../../../features/files/file-urls.ts"

export type { FileUrlResolver }

/**
 * The image with its caption under it, typed in place; its alt text and width in a small bar over the image,
 * shown while the block is selected, hovered or has a field focused (editor.css). `resolve` gives the image's
 * URL (set before the first load).
 */
export const createFigureView = (resolve?: FileUrlResolver): NodeViewRenderer =>
  atomView((props, node) => {
    const img = node.attrs.img as ReadonlyArray<HtmlAttr>
    const set = (name: string) => (value: string) => setAttrs({ ...props, node }, { img: setHtmlAttr(img, name, value) })
    const caption = (node.attrs.caption as string).replace(/^<p>([\s\S]*)<\/p>$/, "$1")
    const src = getHtmlAttr(img, "src") ?? ""
    const captionField = field("Caption", caption, (c) => setAttrs({ ...props, node }, { caption: c === "" ? "" : `<p>${c}</p>` }))
    captionField.root.classList.add("quire-figure-caption")
    captionField.input.placeholder = "Add a caption"
    const alt = field("Alt text", getHtmlAttr(img, "alt") ?? "", set("alt"))
    alt.input.placeholder = "Describe the image"
    const width = field("Width", getHtmlAttr(img, "width") ?? "", set("width"))
    width.input.inputMode = "numeric"
    width.input.placeholder = "auto"
    return h(
      "figure",
      {},
      h("div", { class: "quire-block-bar quire-figure-options" }, alt.root, width.root),
      h("img", { src: (src === "" ? undefined : resolve?.(src)) ?? src, alt: getHtmlAttr(img, "alt") ?? "", ...(getHtmlAttr(img, "width") ? { width: getHtmlAttr(img, "width")! } : {}) }),
      captionField.root
    )
  })

export const figureView = createFigureView()
