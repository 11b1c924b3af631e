import type { NodeViewRenderer } from "@tiptap/core"
import { getParam, type LiquidParam, setParam } from "@quire/document"
import { blockBar, h, setAttrs, sourceButton } from "../shared/view.ts"

export const HINT_STYLES = ["info", "success", "warning", "danger"] as const

const titled = (style: string) => style[0]!.toUpperCase() + style.slice(1)

/**
 * A hint: its blocks (the content stays ProseMirror's), and, on the block the caret or the pointer is in, a
 * small bar with its style (four pressed-or-not buttons, as GitBook's hint toolbar) and "Markdown".
 */
export const hintView: NodeViewRenderer = (props) => {
  let node = props.node
  const styles = HINT_STYLES.map((style) => {
    const button = h("button", { type: "button", class: `quire-hint-style quire-hint-style-${style}`, "aria-pressed": "false" }, titled(style))
    button.addEventListener("mousedown", (e) => e.preventDefault())
    button.addEventListener("click", () => setAttrs({ ...props, node }, { params: setParam(node.attrs.params as ReadonlyArray<LiquidParam>, "style", style) }))
    return button
  })
  const contentDOM = h("div", { class: "quire-hint-body" })
  const bar = blockBar(h("div", { role: "group", "aria-label": "Hint style", class: "quire-block-bar-group" }, ...styles), sourceButton(props))
  const dom = h("div", { class: "quire-block quire-hint" }, bar, contentDOM)
  const sync = () => {
    const style = getParam(node.attrs.params as ReadonlyArray<LiquidParam>, "style") ?? "info"
    styles.forEach((button, i) => button.setAttribute("aria-pressed", String(HINT_STYLES[i] === style)))
    dom.dataset.style = style
    // The site's classes: render.css draws the hint as the published page does.
    dom.className = `quire-block quire-hint hint hint-${style}`
  }
  sync()
  return {
    dom,
    contentDOM,
    stopEvent: (e) => e.target instanceof HTMLButtonElement,
    ignoreMutation: (m) => !contentDOM.contains(m.target),
    update: (next) => {
      if (next.type !== node.type) return false
      node = next
      sync()
      return true
    }
  }
}
