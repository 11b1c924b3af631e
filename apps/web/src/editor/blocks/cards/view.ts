import { atomView, field, h, latestNode, setAttrs } from "../shared/view.ts"
import { addCard, type CardsData, cellHtml, cellText, removeCard, setCell, setTarget, targetColumn, targetOf, visibleColumns } from "./edit.ts"
import type { CardColumn } from "@quire/document"

const fieldLabel = (columns: ReadonlyArray<CardColumn>, column: number, place: number): string =>
  place === 0 ? "Title" : place === 1 ? "Description" : columns[column]!.label.replace(/<[^>]*>/g, "") || `Text ${place + 1}`

/** The cards as a grid: each card's visible cells and its target as fields, with add and remove. */
export const cardsView = atomView((props, node) => {
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
    return h(
      "div",
      { class: "quire-card", role: "group", "aria-label": `Card ${r + 1}` },
      ...visible.map((c, place) => field(fieldLabel(data.columns, c, place), cellText(row[c] ?? ""), (text) => commit((current) => setCell(current, r, c, cellHtml(current.rows[r]?.[c] ?? "", text)))).root),
      field("Target", target < 0 ? "" : targetOf(row[target] ?? ""), (href) => commit((current) => setTarget(current, r, href))).root,
      h("div", { class: "quire-card-tools" }, remove)
    )
  }
  const add = h("button", { type: "button", "aria-label": "Add a card" }, "+ Card")
  add.addEventListener("click", () => commit(addCard))
  return h("div", {}, h("div", { class: "quire-cards-grid" }, ...data.rows.map(card)), h("div", { class: "quire-cards-tools" }, add))
})
