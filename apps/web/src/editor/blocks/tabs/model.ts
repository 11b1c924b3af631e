/**
 * Tabs as the editor changes them: a tab's title, a new tab, a tab deleted, and which tab a key in the tab bar
 * shows. Transactions over the state only (no DOM), so the tests run in Node.
 */
import { getParam, type LiquidParam, setParam } from "@quire/document"
import type { Node as PMNode } from "@tiptap/pm/model"
import type { EditorState, Transaction } from "@tiptap/pm/state"

/** A tab's title (its `title` parameter). */
export const titleOf = (tab: PMNode): string => getParam(tab.attrs.params as ReadonlyArray<LiquidParam>, "title") ?? ""

/** Where the `index`th tab of the tabs block at `tabsPos` starts. */
export const tabPos = (tabs: PMNode, tabsPos: number, index: number): number => {
  let pos = tabsPos + 1
  for (let i = 0; i < index; i++) pos += tabs.child(i).nodeSize
  return pos
}

/**
 * The `title` parameter holding `title`, quoted so the tag line reads back: a title with a double quote in it is
 * single-quoted (a liquid value has no escapes), and one with both kinds gets typographic double quotes.
 */
const titleParams = (params: ReadonlyArray<LiquidParam>, title: string): ReadonlyArray<LiquidParam> => {
  const value = title.includes("\"") && title.includes("'") ? title.replace(/"([^"]*)"?/g, "“$1”") : title
  const quote = value.includes("\"") ? "'" : "\""
  const set = setParam(params, "title", value)
  return set.map((p) => (p.key === "title" && p.quote !== "" && p.value.includes(p.quote) ? { ...p, quote } : p))
}

/** Gives the `index`th tab of the tabs block at `tabsPos` the title `title`. */
export const retitle = (state: EditorState, tabsPos: number, index: number, title: string): Transaction => {
  const tabs = state.doc.nodeAt(tabsPos)!
  const tab = tabs.child(index)
  return state.tr.setNodeMarkup(tabPos(tabs, tabsPos, index), undefined, { ...tab.attrs, params: titleParams(tab.attrs.params as ReadonlyArray<LiquidParam>, title) })
}

/** A title for a new tab that no tab of `tabs` has: "New tab", else "New tab 2", "New tab 3"… */
export const freshTitle = (tabs: PMNode): string => {
  const taken = new Set<string>()
  tabs.forEach((tab) => taken.add(titleOf(tab)))
  if (!taken.has("New tab")) return "New tab"
  let n = 2
  while (taken.has(`New tab ${n}`)) n++
  return `New tab ${n}`
}

/** Adds a tab with an empty paragraph after the last tab of the tabs block at `tabsPos` (set off by a blank line, as GitBook writes it). */
export const addTab = (state: EditorState, tabsPos: number): Transaction => {
  const tabs = state.doc.nodeAt(tabsPos)!
  const { schema } = state
  const tab = schema.nodes.tab!.create({ params: [{ key: "title", value: freshTitle(tabs), quote: "\"" }], lead: 1 }, schema.nodes.paragraph!.create())
  return state.tr.insert(tabsPos + tabs.nodeSize - 1, tab)
}

/** Deletes the `index`th tab of the tabs block at `tabsPos`; the last one left takes the whole block with it. */
export const deleteTab = (state: EditorState, tabsPos: number, index: number): Transaction => {
  const tabs = state.doc.nodeAt(tabsPos)!
  if (tabs.childCount === 1) return state.tr.delete(tabsPos, tabsPos + tabs.nodeSize)
  const from = tabPos(tabs, tabsPos, index)
  const tr = state.tr.delete(from, from + tabs.child(index).nodeSize)
  // The tab now first is not set off from the tag line by a blank line.
  if (index === 0 && (tr.doc.nodeAt(from)?.attrs.lead as number) > 0) tr.setNodeAttribute(from, "lead", 0)
  return tr
}

/** The tab a key pressed on the `index`th of `count` tabs shows (tablist keys: arrows wrap, Home, End), or undefined. */
export const tabAfterKey = (key: string, index: number, count: number): number | undefined => {
  if (key === "ArrowRight") return (index + 1) % count
  if (key === "ArrowLeft") return (index - 1 + count) % count
  if (key === "Home") return 0
  if (key === "End") return count - 1
  return undefined
}

/**
 * Moves the `from`th tab of the tabs block at `tabsPos` to be the `to`th, in one step. The blank
 * lines before each tab's tag stay with the place, not the tab, so the first tab is never set off.
 */
export const moveTab = (state: EditorState, tabsPos: number, from: number, to: number): Transaction | undefined => {
  const tabs = state.doc.nodeAt(tabsPos)!
  if (from === to || from < 0 || to < 0 || from >= tabs.childCount || to >= tabs.childCount) return undefined
  const order: Array<PMNode> = []
  tabs.forEach((tab) => order.push(tab))
  const [moved] = order.splice(from, 1)
  order.splice(to, 0, moved!)
  const leads = Array.from({ length: tabs.childCount }, (_, i) => tabs.child(i).attrs.lead as number)
  const placed = order.map((tab, i) => (tab.attrs.lead === leads[i] ? tab : tab.type.create({ ...tab.attrs, lead: leads[i] }, tab.content, tab.marks)))
  return state.tr.replaceWith(tabsPos + 1, tabsPos + tabs.nodeSize - 1, placed)
}

/** Where Alt+ArrowLeft or Alt+ArrowRight on the `index`th of `count` tabs moves it, or undefined (no move: the key is not one, or the edge). */
export const moveAfterKey = (key: string, index: number, count: number): number | undefined => {
  const to = key === "ArrowLeft" ? index - 1 : key === "ArrowRight" ? index + 1 : undefined
  return to === undefined || to < 0 || to >= count ? undefined : to
}
