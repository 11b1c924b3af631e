/**
 * Plain DOM node views (no React: many React node views make typing slow). Each is built when TipTap mounts a
 * node, never at import, so the markdown code stays runnable in Node.
 */
import type { NodeViewRenderer, NodeViewRendererProps } from "@tiptap/core"
import type { Node as PMNode } from "@tiptap/pm/model"

export const h = <K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, string> = {},
  ...children: Array<Node | string>
): HTMLElementTagNameMap[K] => {
  const el = document.createElement(tag)
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v)
  el.append(...children)
  return el
}

/** Updates the node's attributes from a control in its view (one undoable step). */
export const setAttrs = (props: NodeViewRendererProps, attrs: Record<string, unknown>): void => {
  const pos = typeof props.getPos === "function" ? props.getPos() : undefined
  if (pos === undefined) return
  props.editor.view.dispatch(props.editor.state.tr.setNodeMarkup(pos, undefined, { ...props.node.attrs, ...attrs }))
}

/** A text input bound to one attribute-derived value; `onCommit` turns the typed value into attributes. */
export const field = (
  label: string,
  value: string,
  onCommit: (value: string) => void,
  multiline = false
): { root: HTMLElement; input: HTMLInputElement | HTMLTextAreaElement } => {
  const input = multiline ? h("textarea", { rows: String(Math.max(2, value.split("\n").length)), spellcheck: "false" }) : h("input", { type: "text" })
  input.value = value
  input.addEventListener("change", () => onCommit(input.value))
  // Keys typed in a control are the control's, not the editor's.
  input.addEventListener("keydown", (e) => e.stopPropagation())
  return { root: h("label", { class: "quire-field" }, h("span", {}, label), input), input }
}

/** An atom's view: rebuilt when the node changes type-compatibly, so controls always show the current attributes. */
export const atomView =
  (render: (props: NodeViewRendererProps, node: PMNode) => HTMLElement): NodeViewRenderer =>
  (props) => {
    let node = props.node
    const dom = h("div", { class: `quire-block quire-${node.type.name}`, contenteditable: "false" })
    dom.append(render(props, node))
    return {
      dom,
      stopEvent: (event) => event.target instanceof HTMLInputElement || event.target instanceof HTMLTextAreaElement || event.target instanceof HTMLSelectElement,
      ignoreMutation: () => true,
      update: (next) => {
        if (next.type !== node.type) return false
        node = next
        dom.replaceChildren(render({ ...props, node: next }, next))
        return true
      }
    }
  }
