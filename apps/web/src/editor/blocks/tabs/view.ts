/**
 * Tabs drawn as tabs: a tab bar of titles over the tab shown (the others hidden), as GitBook's editor draws them.
 * A title is edited in place in the bar (a second click on the tab shown, a double click, Enter or F2); "+" adds
 * a tab, "Delete tab" deletes the one shown. The bar is a tablist: the arrows, Home and End move along it,
 * ArrowDown or Escape goes into the tab's text. A tab is reordered by dragging it along the bar, by
 * Alt+ArrowLeft/Right on it, or by "Move tab left/right". A tab the cursor moves into is shown (`TabsFollowCursor`).
 */
import { Extension, type NodeViewRenderer, type NodeViewRendererProps } from "@tiptap/core"
import type { Node as PMNode } from "@tiptap/pm/model"
import { Plugin, PluginKey, Selection } from "@tiptap/pm/state"
import { commitsAsTyped, h, sourceButton } from "../shared/view.ts"
import { addTab, deleteTab, moveAfterKey, moveTab, retitle, tabAfterKey, tabPos, titleOf } from "./model.ts"

/** The event by which `TabsFollowCursor` asks a tabs view to show one of its tabs (`detail`: its index). */
const showTabEvent = "quire-show-tab"

/** The drag data of a tab dragged along its bar (its index). */
const tabDragType = "application/x-quire-tab"

const idPrefix = () => `quire-tabs-${Math.random().toString(36).slice(2, 10)}`

/** One tab's panel: its blocks. The tabs view around it names and hides it. */
export const tabView: NodeViewRenderer = () => {
  const dom = h("section", { class: "quire-block quire-tab", role: "tabpanel" })
  return {
    dom,
    contentDOM: dom,
    // Its role, name and `hidden` are the tabs view's to set: kept when its title changes.
    ignoreMutation: (m) => m.type === "attributes" && m.target === dom,
    update: (next) => next.type.name === "tab"
  }
}

/** A tab's title field in the bar: `typed` at each keystroke, `done` on Enter or Escape, `left` on blur. */
const titleField = (title: string, on: { readonly typed: (value: string) => void; readonly done: () => void; readonly left: () => void }): HTMLInputElement => {
  const input = h("input", { type: "text", class: "quire-tab-title", "aria-label": "Tab title" })
  input.value = title
  // Committed as typed, so the page (and its status) never waits on the field.
  input.dataset[commitsAsTyped] = ""
  input.addEventListener("input", () => on.typed(input.value))
  input.addEventListener("keydown", (e) => {
    e.stopPropagation()
    if (e.key !== "Enter" && e.key !== "Escape") return
    e.preventDefault()
    on.done()
  })
  input.addEventListener("blur", () => on.left())
  return input
}

/** One tab of the bar (`role=tab`, roving tabindex); `key` answers whether it used the key. */
const tabElement = (
  ids: string,
  index: number,
  title: string,
  selected: boolean,
  on: { readonly click: () => void; readonly key: (key: string, alt: boolean) => boolean; readonly dropped: (from: number) => void }
): HTMLElement => {
  const tab = h("button", {
    type: "button",
    role: "tab",
    id: `${ids}-tab-${index}`,
    "aria-selected": String(selected),
    "aria-controls": `${ids}-panel-${index}`,
    tabindex: selected ? "0" : "-1",
    title: selected ? "Click, Enter or F2 to rename" : ""
  }, title === "" ? "Untitled" : title)
  if (title === "") tab.classList.add("is-untitled")
  tab.addEventListener("click", on.click)
  tab.addEventListener("keydown", (e) => {
    e.stopPropagation()
    if (on.key(e.key, e.altKey)) e.preventDefault()
  })
  // Dragged along the bar: the tab dropped on takes the dragged one's place.
  tab.draggable = true
  tab.addEventListener("dragstart", (e) => {
    e.dataTransfer?.setData(tabDragType, String(index))
    if (e.dataTransfer) e.dataTransfer.effectAllowed = "move"
  })
  tab.addEventListener("dragover", (e) => {
    if (!e.dataTransfer?.types.includes(tabDragType)) return
    e.preventDefault()
    e.dataTransfer.dropEffect = "move"
  })
  tab.addEventListener("drop", (e) => {
    const from = e.dataTransfer?.getData(tabDragType)
    if (from === undefined || from === "") return
    e.preventDefault()
    on.dropped(Number(from))
  })
  return tab
}

/** Names each tab's panel after its tab in the bar, and hides all but the `active` one. */
const namePanels = (contentDOM: HTMLElement, ids: string, active: number) => {
  const panels = Array.from(contentDOM.children).filter((el): el is HTMLElement => el instanceof HTMLElement && el.classList.contains("quire-tab"))
  panels.forEach((panel, i) => {
    panel.hidden = i !== active
    panel.id = `${ids}-panel-${i}`
    panel.setAttribute("aria-labelledby", `${ids}-tab-${i}`)
  })
}

/** The bar's buttons beside the tabs. */
const barButtons = () => ({
  add: h("button", { type: "button", class: "quire-tabs-add", "aria-label": "Add a tab", title: "Add a tab" }, "+"),
  remove: h("button", { type: "button", class: "quire-tabs-delete" }, "Delete tab"),
  left: h("button", { type: "button", class: "quire-tabs-move", "aria-label": "Move tab left", title: "Move this tab left (Alt+←)" }, "←"),
  right: h("button", { type: "button", class: "quire-tabs-move", "aria-label": "Move tab right", title: "Move this tab right (Alt+→)" }, "→")
})

/** Names the buttons after the `active`th of `count` tabs (titled `title`); a move past either end is disabled. */
const labelButtons = (b: { readonly remove: HTMLElement; readonly left: HTMLButtonElement; readonly right: HTMLButtonElement }, title: string, active: number, count: number) => {
  b.remove.setAttribute("aria-label", `Delete tab “${title}”${count === 1 ? " and its block" : ""}`)
  b.remove.title = count === 1 ? "Delete the tabs block (its only tab)" : "Delete this tab"
  b.left.disabled = active === 0
  b.right.disabled = active >= count - 1
}

/** What a key on the `index`th of `count` tabs does (Alt+arrows move it; the tablist keys; rename; into its text); false: not the bar's key. */
const barKey = (
  key: string,
  alt: boolean,
  index: number,
  count: number,
  act: { readonly move: (from: number, to: number) => void; readonly show: (i: number) => void; readonly rename: (i: number) => void; readonly into: (i: number) => void }
): boolean => {
  if (alt) {
    const to = moveAfterKey(key, index, count)
    if (to !== undefined) act.move(index, to)
    return key === "ArrowLeft" || key === "ArrowRight"
  }
  const next = tabAfterKey(key, index, count)
  if (next !== undefined) act.show(next)
  else if (key === "Enter" || key === "F2") act.rename(index)
  else if (key === "ArrowDown" || key === "Escape") act.into(index)
  else return false
  return true
}

export const tabsView: NodeViewRenderer = (props: NodeViewRendererProps) => {
  let node = props.node
  const { editor } = props
  const ids = idPrefix()
  let active = 0
  // The tab whose title is being edited in the bar.
  let editing: number | undefined
  let drawing = false
  const list = h("div", { role: "tablist", "aria-label": "Tabs", class: "quire-tabs-list" })
  const { add, remove, left, right } = barButtons()
  const bar = h("div", { class: "quire-tabs-bar", contenteditable: "false" }, list, add, left, right, remove, sourceButton(props))
  const contentDOM = h("div", { class: "quire-tabs-panels" })
  const dom = h("div", { class: "quire-block quire-tabs" }, bar, contentDOM)
  // Where the tabs block is, for a change; none while the editor is read-only.
  const posOf = () => (typeof props.getPos === "function" && editor.isEditable ? props.getPos() : undefined)
  const buttons = () => [...list.querySelectorAll<HTMLElement>("[role=tab]")]

  /** Puts the editor's cursor at the start of the tab's text (without taking the focus from the bar). */
  const cursorInto = (index: number, focus: boolean) => {
    const pos = posOf()
    if (pos === undefined || index >= node.childCount) return
    const start = tabPos(node, pos, index) + 1
    editor.view.dispatch(editor.state.tr.setSelection(Selection.near(editor.state.doc.resolve(start))))
    if (focus) editor.view.focus()
  }

  /** Shows the `index`th tab; `by` says whether a person chose it in the bar (the cursor then follows). */
  const show = (index: number, by: "bar" | "cursor" | "none") => {
    active = Math.max(0, Math.min(index, node.childCount - 1))
    draw()
    if (by === "bar") {
      buttons()[active]?.focus()
      cursorInto(active, false)
    }
  }

  const startEditing = (index: number) => {
    if (!editor.isEditable) return
    editing = index
    active = index
    draw()
  }

  const stopEditing = (focusTab: boolean) => {
    if (editing === undefined) return
    editing = undefined
    draw()
    if (focusTab) buttons()[active]?.focus()
  }

  const titleInput = (index: number): HTMLInputElement =>
    titleField(titleOf(node.child(index)), {
      typed: (value) => {
        const pos = posOf()
        if (pos !== undefined && editing === index) editor.view.dispatch(retitle(editor.state, pos, index, value))
      },
      done: () => stopEditing(true),
      left: () => {
        if (!drawing) stopEditing(false)
      }
    })

  /** Moves the `from`th tab to be the `to`th and shows it there, its tab focused. */
  const move = (from: number, to: number) => {
    const tr = posOf() === undefined ? undefined : moveTab(editor.state, posOf()!, from, to)
    if (tr !== undefined) editor.view.dispatch(tr)
    if (tr !== undefined) show(to, "bar")
  }

  const tabButton = (index: number): HTMLElement =>
    tabElement(ids, index, titleOf(node.child(index)), index === active, {
      click: () => (index === active ? startEditing(index) : show(index, "bar")),
      dropped: (from) => move(from, index),
      key: (key, alt) =>
        barKey(key, alt, index, node.childCount, { move, show: (i) => show(i, "bar"), rename: startEditing, into: (i) => cursorInto(i, true) })
    })

  /** Draws the bar from the node and hides every panel but the shown one. */
  const draw = () => {
    active = Math.max(0, Math.min(active, node.childCount - 1))
    const input = list.querySelector<HTMLInputElement>("input.quire-tab-title")
    const keepInput = input !== null && editing !== undefined && input.dataset.index === String(editing) && document.activeElement === input
    const items = Array.from({ length: node.childCount }, (_, i) => {
      if (i !== editing) return tabButton(i)
      if (keepInput) return input
      const fresh = titleInput(i)
      fresh.dataset.index = String(i)
      return fresh
    })
    // Removing a focused title field blurs it, which must not count as leaving it.
    drawing = true
    if (keepInput) {
      for (const child of Array.from(list.children)) if (child !== input) child.remove()
      const at = items.indexOf(input)
      input.before(...items.slice(0, at))
      input.after(...items.slice(at + 1))
    } else list.replaceChildren(...items)
    drawing = false
    if (editing !== undefined && !keepInput) {
      const fresh = list.querySelector<HTMLInputElement>("input.quire-tab-title")
      fresh?.focus()
      fresh?.select()
    }
    labelButtons({ remove, left, right }, titleOf(node.child(active)), active, node.childCount)
    hidePanels()
  }

  const hidePanels = () => namePanels(contentDOM, ids, active)

  add.addEventListener("click", () => {
    const pos = posOf()
    if (pos === undefined) return
    editor.view.dispatch(addTab(editor.state, pos))
    // The new tab shown, its title selected to be typed over.
    startEditing(node.childCount - 1)
  })
  remove.addEventListener("click", () => {
    const pos = posOf()
    if (pos === undefined) return
    const last = node.childCount === 1
    const index = active
    editor.view.dispatch(deleteTab(editor.state, pos, index))
    if (last) return void editor.view.focus()
    show(Math.min(index, node.childCount - 1), "bar")
  })
  for (const [button, by] of [[left, -1], [right, 1]] as const) button.addEventListener("click", () => move(active, active + by))
  dom.addEventListener(showTabEvent, (e) => {
    const index = (e as CustomEvent<number>).detail
    if (index !== active && editing === undefined) show(index, "cursor")
  })

  draw()
  // ProseMirror draws the tabs' panels into `contentDOM` once this view is made.
  queueMicrotask(hidePanels)
  return {
    dom,
    contentDOM,
    stopEvent: (e) => bar.contains(e.target as Node),
    ignoreMutation: (m) => !contentDOM.contains(m.target) || (m.type === "attributes" && m.target === contentDOM),
    update: (next: PMNode) => {
      if (next.type !== node.type) return false
      node = next
      if (editing !== undefined && editing >= node.childCount) editing = undefined
      draw()
      // The panels ProseMirror draws again after this (a tab added, a tab's blocks replaced) are hidden once it has.
      queueMicrotask(hidePanels)
      return true
    }
  }
}

/** Shows the tab the cursor moves into (by the arrows, a search, an undo), so the cursor is never in a hidden tab. */
export const TabsFollowCursor = Extension.create({
  name: "quireTabsFollowCursor",
  addProseMirrorPlugins: () => [
    new Plugin({
      key: new PluginKey("quireTabsFollowCursor"),
      view: () => ({
        update: (view, before) => {
          if (before.selection.eq(view.state.selection) && before.doc.eq(view.state.doc)) return
          const $from = view.state.selection.$from
          for (let d = $from.depth; d > 0; d--) {
            if ($from.node(d).type.name !== "tab") continue
            const tabs = view.nodeDOM($from.before(d - 1))
            tabs?.dispatchEvent(new CustomEvent(showTabEvent, { detail: $from.index(d - 1) }))
          }
        }
      })
    })
  ]
})
