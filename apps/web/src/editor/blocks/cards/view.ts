import type { NodeViewRenderer } from "@tiptap/core"
import type { CardColumn } from "@quire/document"
import type { LinkTarget } from "../../commands/link-targets.ts"
import { atomView, field, h, latestNode, setAttrs } from "../shared/view.ts"
import { addCard, type CardsData, cellHtml, cellText, removeCard, setCell, setTarget, targetColumn, targetOf, visibleColumns } from "./edit.ts"

/** The pages a card's target is picked from, or undefined where the editor has none (a page shown read-only). */
type Targets = () => (() => Promise<ReadonlyArray<LinkTarget>>) | undefined

const fieldLabel = (columns: ReadonlyArray<CardColumn>, column: number, place: number): string =>
  place === 0 ? "Title" : place === 1 ? "Description" : columns[column]!.label.replace(/<[^>]*>/g, "") || `Text ${place + 1}`

/**
 * A card's page: a picker of the change request's pages that writes the page's link as the link picker
 * does, beside the Target field for any other address.
 */
const pagePicker = (pages: Promise<ReadonlyArray<LinkTarget>>, current: string, title: string, pick: (href: string) => void): HTMLElement => {
  const select = h("select", { "aria-label": `Page of ${title}` }, h("option", { value: "" }, "Choose a page…"))
  void pages.then((found) => {
    select.append(...found.map((page) => h("option", { value: page.href }, page.title)))
    select.value = found.some((page) => page.href === current) ? current : ""
  })
  select.addEventListener("change", () => {
    if (select.value !== "") pick(select.value)
  })
  // The editor's keys (Enter, arrows) stay the select's.
  select.addEventListener("keydown", (e) => e.stopPropagation())
  return h("label", { class: "quire-field" }, h("span", {}, "Page"), select)
}

/** The cards as a grid: each card's visible cells, its page and its target as fields, with add and remove. */
export const createCardsView = (targets: Targets): NodeViewRenderer => (viewProps) => {
  // Loaded once per cards block, when a card first draws its picker (the view is drawn again on each change).
  let pages: Promise<ReadonlyArray<LinkTarget>> | undefined
  const load = () => (pages ??= (targets()?.() ?? Promise.resolve([])).then((all) => all.filter((t) => t.kind === "page"), () => []))
  return atomView((props, node) => {
    const data: CardsData = { columns: node.attrs.columns as ReadonlyArray<CardColumn>, rows: node.attrs.rows as ReadonlyArray<ReadonlyArray<string>> }
    // Each change applies to the cards as they are now, not as drawn: a field left as another is used
    // commits after the other's view was drawn from older cards.
    const commit = (change: (current: CardsData) => CardsData) => {
      const now = latestNode(props, node)
      const next = change({ columns: now.attrs.columns as ReadonlyArray<CardColumn>, rows: now.attrs.rows as ReadonlyArray<ReadonlyArray<string>> })
      setAttrs({ ...props, node: now }, { columns: next.columns, rows: next.rows })
    }
    const visible = visibleColumns(data.columns)
    const target = targetColumn(data.columns)
    const card = (row: ReadonlyArray<string>, r: number) => {
      const title = cellText(row[visible[0] ?? -1] ?? "").replace(/<[^>]*>/g, "") || `card ${r + 1}`
      const remove = h("button", { type: "button", "aria-label": `Remove card ${r + 1} (${title})` }, "Remove")
      remove.addEventListener("click", () => commit((current) => removeCard(current, r)))
      const href = target < 0 ? "" : targetOf(row[target] ?? "")
      return h(
        "div",
        { class: "quire-card", role: "group", "aria-label": `Card ${r + 1}` },
        ...visible.map((c, place) => field(fieldLabel(data.columns, c, place), cellText(row[c] ?? ""), (text) => commit((current) => setCell(current, r, c, cellHtml(current.rows[r]?.[c] ?? "", text)))).root),
        ...(targets() === undefined ? [] : [pagePicker(load(), href, `card ${r + 1}`, (picked) => commit((current) => setTarget(current, r, picked)))]),
        field("Target", href, (typed) => commit((current) => setTarget(current, r, typed))).root,
        h("div", { class: "quire-card-tools" }, remove)
      )
    }
    const add = h("button", { type: "button", "aria-label": "Add a card" }, "+ Card")
    add.addEventListener("click", () => commit(addCard))
    return h("div", {}, h("div", { class: "quire-cards-grid" }, ...data.rows.map(card)), h("div", { class: "quire-cards-tools" }, add))
  })(viewProps)
}

/** Without link targets (a page shown read-only elsewhere): the Target field alone. */
export const cardsView = createCardsView(() => undefined)
