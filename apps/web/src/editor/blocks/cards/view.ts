import { atomView, h } from "../shared/view.ts"
import type { CardColumn } from "./node.ts"

/** The cards as a grid of their visible columns (editing cells comes with the cards editor). */
export const cardsView = atomView((_props, node) => {
  const columns = node.attrs.columns as ReadonlyArray<CardColumn>
  const visible = columns.map((c, i) => (/\bdata-hidden\b/.test(c.attrs) ? -1 : i)).filter((i) => i >= 0)
  const rows = node.attrs.rows as ReadonlyArray<ReadonlyArray<string>>
  return h(
    "div",
    { class: "quire-cards-grid" },
    ...rows.map((r) => h("div", { class: "quire-card" }, ...visible.map((i) => h("div", {}, (r[i] ?? "").replace(/<[^>]*>/g, "")))))
  )
})
