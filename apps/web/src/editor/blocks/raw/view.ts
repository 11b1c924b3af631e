import type { NodeViewRenderer } from "@tiptap/core"
import type { Node as PMNode } from "@tiptap/pm/model"
import { h } from "../shared/view.ts"

const isToggle = (e: KeyboardEvent): boolean => (e.ctrlKey || e.metaKey) && e.altKey && e.key.toLowerCase() === "u"

/**
 * Markdown shown and edited as its source, never dropped: a block the editor cannot draw, or any block opened
 * as source (Mod-Alt-U). Leaving the text (Escape, Mod-Alt-U, "Done", focus elsewhere) reads it back into
 * blocks; what the editor still cannot draw stays here as written.
 */
export const rawView: NodeViewRenderer = (props) => {
  let node: PMNode = props.node
  const label = h("span", { class: "quire-source-label" })
  const done = h("button", { type: "button", class: "quire-source-done" }, "Done")
  const area = h("textarea", { spellcheck: "false", class: "quire-source-text" })
  const dom = h("div", { class: "quire-block quire-raw", contenteditable: "false" }, h("div", { class: "quire-source-head" }, label, done), area)
  let closing = false
  const sync = () => {
    const opened = node.attrs.sourceOf !== null
    dom.classList.toggle("quire-source-open", opened)
    label.textContent = opened ? "Markdown source" : "Markdown the editor cannot show"
    done.textContent = opened ? "Done" : "Apply"
    done.setAttribute("aria-label", opened ? "Done: show this markdown as blocks" : "Apply: read this markdown again")
    area.setAttribute("aria-label", opened ? "Markdown source of this block" : "Markdown the editor cannot show")
    if (document.activeElement !== area) area.value = node.attrs.text as string
    area.rows = Math.max(2, area.value.split("\n").length)
  }
  /** Reads the text back into blocks (unchanged and not opened: nothing to do). */
  const close = (focus: boolean) => {
    if (closing || !props.editor.isEditable) return
    const pos = typeof props.getPos === "function" ? props.getPos() : undefined
    // ProseMirror may keep this view for an equal node of a newly loaded page: the node at pos is what counts.
    if (pos === undefined || props.editor.state.doc.nodeAt(pos)?.type.name !== "raw") return
    closing = true
    try {
      const closed = props.editor.commands.closeSource?.(pos, area.value, focus)
      if (!closed && focus) props.editor.commands.focus()
    } finally {
      closing = false
    }
  }
  area.addEventListener("input", () => void (area.rows = Math.max(2, area.value.split("\n").length)))
  area.addEventListener("keydown", (e) => {
    // Keys typed in the source are the source's, not the editor's.
    e.stopPropagation()
    if (e.key === "Escape" || isToggle(e)) {
      e.preventDefault()
      close(true)
    }
  })
  // Leaving the text reads it back; a passing blur (the editor settling its selection) does not.
  area.addEventListener("blur", () => setTimeout(() => document.activeElement !== area && close(false), 0))
  done.addEventListener("click", () => close(true))
  sync()
  return {
    dom,
    stopEvent: (event) => event.target === area || event.target === done,
    ignoreMutation: () => true,
    update: (next) => {
      if (next.type !== node.type) return false
      node = next
      sync()
      return true
    }
  }
}
