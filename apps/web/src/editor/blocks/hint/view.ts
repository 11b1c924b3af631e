import type { NodeViewRenderer } from "@tiptap/core"
import { getParam, type LiquidParam, setParam } from "@quire/document"
import { h, setAttrs, sourceButton } from "../shared/view.ts"

export const HINT_STYLES = ["info", "success", "warning", "danger"] as const

/** A hint: its style picker and its blocks (the content stays ProseMirror's). */
export const hintView: NodeViewRenderer = (props) => {
  let node = props.node
  const select = h("select", { "aria-label": "Hint style" }, ...HINT_STYLES.map((s) => h("option", { value: s }, s)))
  const contentDOM = h("div", { class: "quire-hint-body" })
  const dom = h("div", { class: "quire-block quire-hint" }, h("div", { contenteditable: "false" }, sourceButton(props), select), contentDOM)
  const sync = () => {
    const style = getParam(node.attrs.params as ReadonlyArray<LiquidParam>, "style") ?? "info"
    select.value = style
    dom.dataset.style = style
    // The site's classes: render.css draws the hint as the published page does.
    dom.className = `quire-block quire-hint hint hint-${style}`
  }
  select.addEventListener("change", () => setAttrs({ ...props, node }, { params: setParam(node.attrs.params as ReadonlyArray<LiquidParam>, "style", select.value) }))
  sync()
  return {
    dom,
    contentDOM,
    stopEvent: (e) => e.target instanceof HTMLSelectElement || e.target instanceof HTMLButtonElement,
    ignoreMutation: (m) => !contentDOM.contains(m.target),
    update: (next) => {
      if (next.type !== node.type) return false
      node = next
      sync()
      return true
    }
  }
}
