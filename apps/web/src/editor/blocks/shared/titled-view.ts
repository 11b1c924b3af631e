import type { NodeViewRenderer } from "@tiptap/core"
import { getParam, type LiquidParam, setParam } from "@quire/document"
import { h, setAttrs } from "./view.ts"

/** A container child with one parameter edited in its header (a tab's title, a column's width). */
export const titledView = (param: string, label: string): NodeViewRenderer => (props) => {
  let node = props.node
  const input = h("input", { type: "text", "aria-label": label, placeholder: label })
  const contentDOM = h("div", { class: "quire-body" })
  const dom = h("section", { class: `quire-block quire-${node.type.name}${node.type.name === "column" ? " column" : ""}` }, h("div", { contenteditable: "false" }, input), contentDOM)
  const sync = () => void (input.value = getParam(node.attrs.params as ReadonlyArray<LiquidParam>, param) ?? "")
  input.addEventListener("keydown", (e) => e.stopPropagation())
  input.addEventListener("change", () => setAttrs({ ...props, node }, { params: setParam(node.attrs.params as ReadonlyArray<LiquidParam>, param, input.value) }))
  sync()
  return {
    dom,
    contentDOM,
    stopEvent: (e) => e.target === input,
    ignoreMutation: (m) => !contentDOM.contains(m.target),
    update: (next) => {
      if (next.type !== node.type) return false
      node = next
      sync()
      return true
    }
  }
}
