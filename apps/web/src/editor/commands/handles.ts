/**
 * The block handle, as GitBook's and Notion's editors have it: with the pointer over a top-level block, a "+"
 * and a grip appear in the margin to its left. "+" adds a line after the block with the slash menu open on
 * it; the grip drags the block elsewhere on the page (ProseMirror's own drop, with its drop cursor), and a
 * click on it opens the block's menu (move up, move down, duplicate, delete). By keyboard the same is
 * Mod-Shift-ArrowUp and Mod-Shift-ArrowDown (move the caret's block) and "/" (insert); the menu is reached
 * with the grip's click or Enter when it has the focus, and Escape gives the focus back to the text.
 *
 * The margin holds the handle only where there is room for it and a pointer that hovers (editor.css):
 * at 390 px the keys and the slash menu remain.
 */
import { Extension } from "@tiptap/core"
import { NodeSelection, Plugin, PluginKey, type EditorState, type Transaction } from "@tiptap/pm/state"
import type { EditorView } from "@tiptap/pm/view"
import { blockStart, currentBlock, deleteBlock, duplicateBlock, lineBelow, moveBlock } from "./blocks.ts"

const handleKey = new PluginKey("quireBlockHandle")

type Command = (state: EditorState, dispatch: ((tr: Transaction) => void) | undefined) => boolean

const button = (className: string, label: string, text: string): HTMLButtonElement => {
  const b = document.createElement("button")
  b.type = "button"
  b.className = className
  b.setAttribute("aria-label", label)
  b.title = label
  b.textContent = text
  return b
}

/** The top-level block element of `view` under the height `y` (a binary search: the blocks are in order). */
const blockAt = (view: EditorView, y: number): number | undefined => {
  const children = view.dom.children
  let low = 0
  let high = children.length - 1
  while (low <= high) {
    const mid = (low + high) >> 1
    const rect = children[mid]!.getBoundingClientRect()
    if (y < rect.top) high = mid - 1
    else if (y > rect.bottom) low = mid + 1
    else return mid
  }
  return undefined
}

/** The top-level node index of the DOM child `child` of the editor (widgets such as the gap cursor are skipped). */
const indexOfChild = (view: EditorView, child: number): number | undefined => {
  const el = view.dom.children[child]
  if (el === undefined || el.classList.contains("ProseMirror-gapcursor") || el.classList.contains("ProseMirror-widget")) return undefined
  const pos = view.posAtDOM(view.dom, Array.prototype.indexOf.call(view.dom.childNodes, el))
  const $pos = view.state.doc.resolve(Math.min(pos, view.state.doc.content.size))
  return $pos.depth === 0 ? $pos.index(0) : undefined
}

class HandleView {
  private readonly gutter: HTMLDivElement
  private readonly add: HTMLButtonElement
  private readonly grip: HTMLButtonElement
  private readonly menu: HTMLDivElement
  private index: number | undefined
  private frame = 0
  private pointerY = 0
  private readonly host: HTMLElement

  constructor(private readonly view: EditorView) {
    this.host = view.dom.parentElement!
    this.host.classList.add("quire-editor-host")
    this.gutter = document.createElement("div")
    this.gutter.className = "quire-block-handle"
    this.gutter.hidden = true
    this.add = button("quire-block-add", "Add a block below", "+")
    this.grip = button("quire-block-grip", "Drag to move the block, or open its menu", "⠿")
    this.grip.draggable = true
    this.grip.setAttribute("aria-haspopup", "menu")
    this.grip.setAttribute("aria-expanded", "false")
    this.menu = document.createElement("div")
    this.menu.className = "quire-block-menu"
    this.menu.setAttribute("role", "menu")
    this.menu.setAttribute("aria-label", "Block")
    this.menu.hidden = true
    this.gutter.append(this.add, this.grip, this.menu)
    this.host.append(this.gutter)
    // The handle's buttons never take the caret out of the text by a click.
    this.add.addEventListener("mousedown", (e) => e.preventDefault())
    this.add.addEventListener("click", () => this.run((i) => lineBelow(i, "/")))
    this.grip.addEventListener("click", () => (this.menu.hidden ? this.openMenu() : this.closeMenu(true)))
    this.grip.addEventListener("dragstart", this.dragStart)
    this.grip.addEventListener("dragend", () => this.gutter.classList.remove("is-dragging"))
    this.menu.addEventListener("keydown", this.menuKeys)
    this.host.addEventListener("mousemove", this.moved)
    this.host.addEventListener("mouseleave", this.left)
    document.addEventListener("mousedown", this.outside, true)
  }

  /** Runs a command on the handle's block, then gives the text the focus. */
  private run(command: (index: number) => Command): void {
    const index = this.index
    this.closeMenu(false)
    if (index === undefined || !this.view.editable) return
    command(index)(this.view.state, this.view.dispatch)
    this.view.focus()
    this.place()
  }

  private readonly moved = (event: MouseEvent): void => {
    this.pointerY = event.clientY
    if (this.frame !== 0 || !this.menu.hidden) return
    this.frame = requestAnimationFrame(() => {
      this.frame = 0
      this.show(this.pointerY)
    })
  }

  private readonly left = (): void => {
    if (this.menu.hidden && !this.gutter.classList.contains("is-dragging")) this.hide()
  }

  private readonly outside = (event: MouseEvent): void => {
    if (!this.menu.hidden && !this.gutter.contains(event.target as Node)) this.closeMenu(false)
  }

  private show(y: number): void {
    if (!this.view.editable) return this.hide()
    const child = blockAt(this.view, y)
    const index = child === undefined ? undefined : indexOfChild(this.view, child)
    if (index === undefined) return
    this.index = index
    this.place()
  }

  /** Puts the handle beside its block's first line. */
  private place(): void {
    const index = this.index
    if (index === undefined || index >= this.view.state.doc.childCount) return this.hide()
    const dom = this.view.nodeDOM(blockStart(this.view.state.doc, index))
    if (!(dom instanceof HTMLElement)) return this.hide()
    const host = this.host.getBoundingClientRect()
    const block = dom.getBoundingClientRect()
    const lineHeight = Math.min(block.height, parseFloat(getComputedStyle(dom).lineHeight) || 24)
    this.gutter.hidden = false
    this.gutter.style.top = `${block.top - host.top + Math.max(0, (lineHeight - this.gutter.offsetHeight) / 2)}px`
  }

  private hide(): void {
    this.gutter.hidden = true
    this.index = undefined
  }

  private readonly dragStart = (event: DragEvent): void => {
    const index = this.index
    if (index === undefined || event.dataTransfer === null || !this.view.editable) return event.preventDefault()
    this.closeMenu(false)
    const { state } = this.view
    const pos = blockStart(state.doc, index)
    const selection = NodeSelection.create(state.doc, pos)
    this.view.dispatch(state.tr.setSelection(selection))
    const slice = selection.content()
    const { dom, text } = this.view.serializeForClipboard(slice)
    event.dataTransfer.clearData()
    event.dataTransfer.setData("text/html", dom.innerHTML)
    event.dataTransfer.setData("text/plain", text)
    event.dataTransfer.effectAllowed = "copyMove"
    const shown = this.view.nodeDOM(pos)
    if (shown instanceof HTMLElement) event.dataTransfer.setDragImage(shown, 0, 0)
    // ProseMirror's drop moves what `dragging` holds: the block, deleted where it was (its node selection).
    ;(this.view as { dragging: unknown }).dragging = { slice, move: true, node: selection }
    this.gutter.classList.add("is-dragging")
  }

  private openMenu(): void {
    const index = this.index
    if (index === undefined) return
    const { state } = this.view
    const mac = /Mac|iPhone|iPad/.test(navigator.platform)
    const keys = (arrow: string) => ({ shown: mac ? `⌘⇧${arrow === "Up" ? "↑" : "↓"}` : `Ctrl+Shift+${arrow === "Up" ? "↑" : "↓"}`, aria: `${mac ? "Meta" : "Control"}+Shift+Arrow${arrow}` })
    const items: ReadonlyArray<readonly [string, Command, { shown: string; aria: string }?]> = [
      ["Move up", moveBlock(index, -1), keys("Up")],
      ["Move down", moveBlock(index, 1), keys("Down")],
      ["Duplicate", duplicateBlock(index)],
      ["Delete", deleteBlock(index)]
    ]
    this.menu.replaceChildren(
      ...items.map(([label, command, shortcut]) => {
        const item = document.createElement("button")
        item.type = "button"
        item.setAttribute("role", "menuitem")
        item.tabIndex = -1
        item.textContent = label
        if (shortcut !== undefined) {
          const kbd = document.createElement("kbd")
          kbd.textContent = ` ${shortcut.shown}`
          item.append(kbd)
          item.setAttribute("aria-keyshortcuts", shortcut.aria)
        }
        item.disabled = !command(state, undefined)
        item.addEventListener("click", () => this.run(() => command))
        return item
      })
    )
    this.menu.hidden = false
    this.grip.setAttribute("aria-expanded", "true")
    this.menu.querySelector<HTMLButtonElement>("button:not(:disabled)")?.focus()
  }

  private closeMenu(refocus: boolean): void {
    if (this.menu.hidden) return
    this.menu.hidden = true
    this.grip.setAttribute("aria-expanded", "false")
    if (refocus) this.view.focus()
  }

  private readonly menuKeys = (event: KeyboardEvent): void => {
    const items = Array.from(this.menu.querySelectorAll<HTMLButtonElement>("button:not(:disabled)"))
    const at = items.indexOf(document.activeElement as HTMLButtonElement)
    if (event.key === "Escape") {
      event.preventDefault()
      this.closeMenu(true)
    } else if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault()
      items[(at + (event.key === "ArrowDown" ? 1 : items.length - 1)) % items.length]?.focus()
    } else if (event.key === "Tab") this.closeMenu(false)
  }

  /** Typing hides the handle (as Notion's does) rather than measure the page at each keystroke; the pointer brings it back. */
  update(view: EditorView, previous: EditorState): void {
    if (this.menu.hidden && view.state.doc !== previous.doc && !this.gutter.classList.contains("is-dragging")) this.hide()
  }

  destroy(): void {
    cancelAnimationFrame(this.frame)
    this.host.removeEventListener("mousemove", this.moved)
    this.host.removeEventListener("mouseleave", this.left)
    document.removeEventListener("mousedown", this.outside, true)
    this.gutter.remove()
  }
}

export const BlockHandles = Extension.create({
  name: "quireBlockHandles",
  addProseMirrorPlugins: () => [new Plugin({ key: handleKey, view: (view) => new HandleView(view) })],
  addKeyboardShortcuts: () => ({
    "Mod-Shift-ArrowUp": ({ editor }) => moveBlock(currentBlock(editor.state), -1)(editor.state, editor.view.dispatch),
    "Mod-Shift-ArrowDown": ({ editor }) => moveBlock(currentBlock(editor.state), 1)(editor.state, editor.view.dispatch)
  })
})
