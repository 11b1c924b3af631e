import type { NodeViewRenderer } from "@tiptap/core"
import { h, setAttrs, sourceButton } from "../shared/view.ts"

/** `<details>`: the summary as a field, always shown open while editing, with an "open by default" switch. */
export const expandableView: NodeViewRenderer = (props) => {
  let node = props.node
  const summary = h("input", { type: "text", "aria-label": "Summary", placeholder: "Summary" })
  const open = h("input", { type: "checkbox", "aria-label": "Open by default" })
  const contentDOM = h("div", { class: "quire-body" })
  const dom = h("div", { class: "quire-block quire-expandable" }, h("div", { contenteditable: "false" }, sourceButton(props), summary, h("label", {}, open, "Open by default")), contentDOM)
  const sync = () => {
    summary.value = node.attrs.summary as string
    open.checked = /\sopen\b/.test(node.attrs.openTag as string)
  }
  summary.addEventListener("keydown", (e) => e.stopPropagation())
  summary.addEventListener("change", () => setAttrs({ ...props, node }, { summary: summary.value }))
  open.addEventListener("change", () => setAttrs({ ...props, node }, { openTag: open.checked ? "<details open>" : "<details>" }))
  sync()
  return {
    dom,
    contentDOM,
    stopEvent: (e) => e.target === summary || e.target === open || e.target instanceof HTMLButtonElement,
    ignoreMutation: (m) => !contentDOM.contains(m.target),
    update: (next) => {
      if (next.type !== node.type) return false
      node = next
      sync()
      return true
    }
  }
}
