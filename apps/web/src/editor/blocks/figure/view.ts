import type { NodeViewRenderer } from "@tiptap/core"
import { getHtmlAttr, setHtmlAttr, type HtmlAttr } from "@quire/document"
import { atomView, field, h, setAttrs } from "../shared/view.ts"

import type { FileUrlResolver } from "../../../features/files/file-urls.ts"

export type { FileUrlResolver }

/** The image with its caption and width as fields; `resolve` gives the image's URL (set before the first load). */
export const createFigureView = (resolve?: FileUrlResolver): NodeViewRenderer =>
  atomView((props, node) => {
    const img = node.attrs.img as ReadonlyArray<HtmlAttr>
    const set = (name: string) => (value: string) => setAttrs({ ...props, node }, { img: setHtmlAttr(img, name, value) })
    const caption = (node.attrs.caption as string).replace(/^<p>([\s\S]*)<\/p>$/, "$1")
    const src = getHtmlAttr(img, "src") ?? ""
    return h(
      "figure",
      {},
      h("img", { src: (src === "" ? undefined : resolve?.(src)) ?? src, alt: getHtmlAttr(img, "alt") ?? "", ...(getHtmlAttr(img, "width") ? { width: getHtmlAttr(img, "width")! } : {}) }),
      field("Caption", caption, (c) => setAttrs({ ...props, node }, { caption: c === "" ? "" : `<p>${c}</p>` })).root,
      field("Alt text", getHtmlAttr(img, "alt") ?? "", set("alt")).root,
      field("Width", getHtmlAttr(img, "width") ?? "", set("width")).root
    )
  })

export const figureView = createFigureView()
