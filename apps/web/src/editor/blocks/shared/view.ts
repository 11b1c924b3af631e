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

/** Updates the node's attributes from a control in its view (one undoable step); nothing while the editor is read-only. */
export const setAttrs = (props: NodeViewRendererProps, attrs: Record<string, unknown>): void => {
  const pos = typeof props.getPos === "function" ? props.getPos() : undefined
  if (pos === undefined || !props.editor.isEditable) return
  props.editor.view.dispatch(props.editor.state.tr.setNodeMarkup(pos, undefined, { ...latestNode(props, props.node).attrs, ...attrs }))
}

/**
 * The node a view shows as the document holds it now: a control drawn before the last commit (a field
 * left as the next one is clicked) would otherwise write back the attributes it was drawn with.
 */
export const latestNode = (props: NodeViewRendererProps, node: PMNode): PMNode => {
  const pos = typeof props.getPos === "function" ? props.getPos() : undefined
  const now = pos === undefined ? undefined : props.editor.state.doc.nodeAt(pos)
  return now !== null && now !== undefined && now.type === node.type ? now : node
}

/**
 * Marks a control that commits as one types (`field`'s `live`): the editor then never counts it as
 * a field holding words not yet in the page (Editor.tsx, `onFieldOpen`).
 */
export const commitsAsTyped = "commitsAsTyped"

/** A text input bound to one attribute-derived value; `onCommit` turns the typed value into attributes. */
export const field = (
  label: string,
  value: string,
  onCommit: (value: string) => void,
  options: {
    readonly multiline?: boolean
    /**
     * Commit as one types, not only when the field is left: for views that update in place (an
     * atom's view is made again on each commit, which would take the focus from the field).
     */
    readonly live?: boolean
  } = {}
): { root: HTMLElement; input: HTMLInputElement | HTMLTextAreaElement } => {
  const input = options.multiline === true
    ? h("textarea", { rows: String(Math.max(2, value.split("\n").length)), spellcheck: "false" })
    : h("input", { type: "text" })
  input.value = value
  // What it was drawn with: a view drawn again keeps what was typed since (atomView).
  input.dataset["shown"] = value
  input.dataset["field"] = label
  input.addEventListener("change", () => onCommit(input.value))
  // Until it is committed, what is typed in any other field is an edit the page has not saved:
  // the editor tells the status so (Editor.tsx, `onFieldOpen`).
  if (options.live === true) {
    input.dataset[commitsAsTyped] = ""
    input.addEventListener("input", () => onCommit(input.value))
  }
  // Keys typed in a control are the control's, not the editor's.
  input.addEventListener("keydown", (e) => e.stopPropagation())
  return { root: h("label", { class: "quire-field" }, h("span", {}, label), input), input }
}

/**
 * A block's options, GitBook's way: a small bar at the block's top right, shown while the caret or the
 * pointer is in the block or a control of it has the focus (editor.css; `commands/current.ts` marks the
 * caret's blocks), over the block rather than taking a line of the page.
 */
export const blockBar = (...controls: ReadonlyArray<HTMLElement>): HTMLElement =>
  h("div", { class: "quire-block-bar", contenteditable: "false" }, ...controls)

/** "Edit as markdown": shows the block as its source (editor/source), when the editor has that command. */
export const sourceButton = (props: NodeViewRendererProps): HTMLButtonElement => {
  const button = h("button", { type: "button", class: "quire-source-button", "aria-label": "Edit this block as markdown", title: "Edit as markdown (Mod-Alt-U)" }, "Markdown")
  button.addEventListener("click", () => {
    const pos = typeof props.getPos === "function" ? props.getPos() : undefined
    if (pos !== undefined) props.editor.commands.showSource?.(pos)
  })
  return button
}

const controls = (el: HTMLElement): Array<HTMLElement> => [...el.querySelectorAll<HTMLElement>("input, textarea, select, button")]

const isText = (el: HTMLElement | undefined): el is HTMLInputElement | HTMLTextAreaElement =>
  (el instanceof HTMLInputElement && el.type === "text") || el instanceof HTMLTextAreaElement

/**
 * Words typed into a field and not committed yet (another field's commit redraws the view while a
 * person moves on, or types fast) stay in the field drawn in its place: the same field of the same place.
 */
const keepTyped = (before: ReadonlyArray<HTMLElement>, after: ReadonlyArray<HTMLElement>): void =>
  before.forEach((old, i) => {
    const next = after[i]
    if (!isText(old) || !isText(next) || old.dataset["shown"] === undefined) return
    if (next.dataset["field"] !== old.dataset["field"] || next.dataset["shown"] !== old.dataset["shown"]) return
    next.value = old.value
    // Where the caret was (or what was selected), so the next key lands where it would have.
    if (old === document.activeElement) next.setSelectionRange(old.selectionStart, old.selectionEnd, old.selectionDirection ?? undefined)
  })

/** An atom's view: rebuilt when the node changes type-compatibly, so controls always show the current attributes. */
export const atomView =
  (render: (props: NodeViewRendererProps, node: PMNode, teardown: (cleanup: () => void) => void) => HTMLElement): NodeViewRenderer =>
  (props) => {
    let node = props.node
    // What the current drawing set up beyond its DOM (a subscription): undone when it is drawn again or destroyed.
    const cleanups: Array<() => void> = []
    const draw = (at: PMNode) => {
      for (const cleanup of cleanups.splice(0)) cleanup()
      return render({ ...props, node: at }, at, (cleanup) => cleanups.push(cleanup))
    }
    let body = draw(node)
    let redraw: ReturnType<typeof setTimeout> | undefined
    const dom = h("div", { class: `quire-block quire-${node.type.name}`, contenteditable: "false" }, blockBar(sourceButton(props)), body)
    return {
      dom,
      stopEvent: (event) => event.target instanceof HTMLInputElement || event.target instanceof HTMLTextAreaElement || event.target instanceof HTMLSelectElement || event.target instanceof HTMLButtonElement,
      ignoreMutation: () => true,
      destroy: () => {
        clearTimeout(redraw)
        for (const cleanup of cleanups.splice(0)) cleanup()
      },
      update: (next) => {
        if (next.type !== node.type) return false
        node = next
        // Redrawn once focus has settled: a field committed as Tab moves on must not take the next field with it.
        if (!redraw) redraw = setTimeout(() => {
          redraw = undefined
          const rendered = draw(node)
          const before = controls(body)
          const focused = before.indexOf(document.activeElement as HTMLElement)
          keepTyped(before, controls(rendered))
          body.replaceWith(rendered)
          body = rendered
          if (focused >= 0) controls(rendered)[focused]?.focus()
        }, 0)
        return true
      }
    }
  }
