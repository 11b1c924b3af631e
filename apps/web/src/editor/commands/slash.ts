/**
 * The slash menu: `/` at the start of a paragraph (or after a space) opens a listbox of the blocks, filtered by
 * what follows the `/`. Arrows move, Enter or a click inserts, Escape closes; the editor keeps the focus and
 * points at the active option with `aria-activedescendant`.
 */
import { flip, shift, size } from "@floating-ui/dom"
import { Extension, type Editor } from "@tiptap/core"
import { PluginKey } from "@tiptap/pm/state"
import { Suggestion, exitSuggestion, type SuggestionKeyDownProps, type SuggestionProps } from "@tiptap/suggestion"
import { filterItems, insertItems, type InsertItem } from "./items.ts"
import { runItem } from "./insert.ts"
import { type ReusableCatalog, reusableItems } from "./reusable.ts"

export const slashMenuKey = new PluginKey("quireSlashMenu")

/** The menu's list at its tallest (18rem, as editor.css had it) and shortest (about six rows), px. */
const maxMenuHeight = 288
const minMenuHeight = 168

let menuCount = 0

/** The listbox, kept in the DOM while the menu is open; `render` redraws it for the current items. */
const createMenu = () => {
  const id = `quire-insert-menu-${++menuCount}`
  const root = document.createElement("div")
  root.className = "quire-insert-menu"
  const list = document.createElement("ul")
  list.id = id
  list.setAttribute("role", "listbox")
  list.setAttribute("aria-label", "Insert a block")
  // Driven from the editor (aria-activedescendant); also a tab stop whose keys do the same, so it scrolls by keyboard too.
  list.tabIndex = 0
  const empty = document.createElement("p")
  empty.className = "quire-insert-empty"
  empty.textContent = "No block matches."
  root.append(list)
  let active = 0
  let props: SuggestionProps<InsertItem, InsertItem> | undefined
  let unmount: (() => void) | undefined

  const optionId = (i: number) => `${id}-${props?.items[i]?.id ?? i}`
  const mark = () => {
    const items = props?.items ?? []
    list.querySelectorAll<HTMLElement>("[role=option]").forEach((el, i) => el.setAttribute("aria-selected", String(i === active)))
    const dom = props?.editor.view.dom
    if (!dom) return
    if (items.length > 0) dom.setAttribute("aria-activedescendant", optionId(active))
    else dom.removeAttribute("aria-activedescendant")
    list.querySelector(`#${CSS.escape(optionId(active))}`)?.scrollIntoView({ block: "nearest" })
  }
  const render = (next: SuggestionProps<InsertItem, InsertItem>) => {
    props = next
    active = Math.min(active, Math.max(0, next.items.length - 1))
    list.replaceChildren(
      ...next.items.map((item, i) => {
        const li = document.createElement("li")
        li.id = optionId(i)
        li.setAttribute("role", "option")
        const title = document.createElement("span")
        title.className = "quire-insert-title"
        title.textContent = item.title
        const desc = document.createElement("span")
        desc.className = "quire-insert-desc"
        desc.textContent = item.description
        li.append(title, desc)
        // The editor keeps the focus: a click chooses without moving it.
        li.addEventListener("mousedown", (e) => e.preventDefault())
        li.addEventListener("click", () => next.command(item))
        li.addEventListener("mousemove", () => {
          if (active !== i) {
            active = i
            mark()
          }
        })
        return li
      })
    )
    if (next.items.length === 0) root.append(empty)
    else empty.remove()
    mark()
  }
  const api = {
    start: (next: SuggestionProps<InsertItem, InsertItem>) => {
      active = 0
      render(next)
      unmount = next.mount(root)
      next.editor.view.dom.setAttribute("aria-controls", id)
    },
    update: render,
    exit: () => {
      unmount?.()
      unmount = undefined
      const dom = props?.editor.view.dom
      dom?.removeAttribute("aria-activedescendant")
      dom?.removeAttribute("aria-controls")
      props = undefined
    },
    key: ({ event, view }: SuggestionKeyDownProps): boolean => {
      const items = props?.items ?? []
      if (event.key === "Escape") {
        exitSuggestion(view, slashMenuKey)
        return true
      }
      if (items.length === 0) return false
      if (event.key === "ArrowDown" || event.key === "ArrowUp") {
        active = (active + (event.key === "ArrowDown" ? 1 : items.length - 1)) % items.length
        mark()
        return true
      }
      if (event.key === "Enter" || event.key === "Tab") {
        props?.command(items[active]!)
        return true
      }
      return false
    }
  }
  list.addEventListener("keydown", (event) => {
    const view = props?.editor.view
    if (view && api.key({ event, view, range: props!.range })) {
      event.preventDefault()
      view.focus()
    }
  })
  return api
}

/** Whether a `/` at `pos` may open the menu: not in code, math or a table cell (which holds only a paragraph). */
const allowedAt = (editor: Editor, pos: number): boolean => {
  const $pos = editor.state.doc.resolve(pos)
  if ($pos.parent.type.spec.code) return false
  for (let d = $pos.depth; d > 0; d--) if (["tableCell", "tableHeader"].includes($pos.node(d).type.name)) return false
  return true
}

/** Whether a query with a space in it still names an item (one without a space keeps the menu open, as typed so far). */
const stillMatches = (query: string): boolean => !/\s/.test(query) || filterItems(query).length > 0

/** The menu's first item where the change request's agent may write: the agent writes what the person asks, at the cursor. */
export const writeWithAIItem: InsertItem = {
  id: "write-with-ai",
  title: "Write with AI",
  description: "The agent writes what you ask, here",
  keywords: ["ai", "agent", "write", "generate", "draft"],
  template: undefined
}

/**
 * "Write with AI" (when `ai` is given), the blocks and, when the screen gives a catalog, the change request's
 * reusable contents (read as the menu opens; without them when that fails).
 */
const itemsFor = async (query: string, reusable: ReusableCatalog | undefined, ai: boolean): Promise<ReadonlyArray<InsertItem>> => {
  const contents = reusable === undefined ? [] : await reusable.list().catch(() => [])
  return filterItems(query, [...(ai ? [writeWithAIItem] : []), ...insertItems, ...reusableItems(contents)])
}

export const slashMenu = (
  pickImage: () => void,
  reusable: () => ReusableCatalog | undefined = () => undefined,
  /** What "Write with AI" opens, when the agent may write here. */
  ai: () => (() => void) | undefined = () => undefined
) =>
  Extension.create({
    name: "quireSlashMenu",
    addProseMirrorPlugins() {
      return [
        Suggestion<InsertItem, InsertItem>({
          pluginKey: slashMenuKey,
          editor: this.editor,
          char: "/",
          allowedPrefixes: [" "],
          // "/hint warn" finds the warning hint: the query may hold spaces, for as long as it
          // matches an item (a slash in prose, "/usr/bin and", ends the menu at the first space).
          allowSpaces: true,
          decorationClass: "quire-slash-query",
          // Below the caret, shortened to the room there (down to six rows) rather than over the words above it;
          // above only when even that does not fit.
          flip: false,
          floatingUi: {
            middleware: [
              size({
                padding: 8,
                apply: ({ availableHeight, elements }) => {
                  const list = elements.floating.querySelector<HTMLElement>("[role=listbox]")
                  if (list === null) return
                  // The menu's own border around the list (editor.css sizes the list border-box).
                  const chrome = elements.floating.offsetHeight - list.offsetHeight
                  list.style.maxHeight = `${Math.floor(Math.max(minMenuHeight, Math.min(maxMenuHeight, availableHeight - chrome)))}px`
                }
              }),
              flip({ padding: 8 }),
              shift({ padding: 8 })
            ]
          },
          items: async ({ query }) => [...await itemsFor(query, reusable(), ai() !== undefined)],
          allow: ({ editor, state, range }) => allowedAt(editor, range.from) && stillMatches(state.doc.textBetween(range.from + 1, range.to)),
          command: ({ editor, range, props }) => {
            const write = ai()
            if (props.id !== writeWithAIItem.id || write === undefined) return runItem(editor, props, range, pickImage)
            editor.view.dispatch(editor.state.tr.delete(range.from, range.to))
            write()
          },
          render: () => {
            const menu = createMenu()
            return { onStart: menu.start, onUpdate: menu.update, onExit: menu.exit, onKeyDown: menu.key }
          }
        })
      ]
    }
  })
