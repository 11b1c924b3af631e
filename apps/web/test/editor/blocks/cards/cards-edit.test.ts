import { readFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { addCard, cellHtml, type CardsData, removeCard, setCell, setTarget } from "../../../../src/editor/blocks/cards/edit.ts"
import { codec, setAttrs } from "../../../../../../packages/document/test/support.ts"

const page = `Intro\n\n${readFileSync(join(import.meta.dirname, "../../../../../../packages/document/test/blocks/cards/fixtures/cards.md"), "utf8").trimEnd()}\n\nAfter\n`
const doc = codec.parse(page)
const cardsLine = page.split("\n")[2]!

/** The page after `edit` on the cards' data, as the editor saves it. */
const edited = (edit: (d: CardsData) => CardsData): string =>
  codec.serialize(setAttrs(doc, 1, "cards", (a) => ({ ...edit({ columns: a.columns as CardsData["columns"], rows: a.rows as CardsData["rows"] }) })))

const lineOf = (out: string): string => {
  const lines = out.split("\n")
  expect([lines[0], lines[1], lines[3], lines[4], lines[5]]).toEqual(["Intro", "", "", "After", ""])
  return lines[2]!
}

describe("editing cards", () => {
  it("a title keeps its strong and only that cell changes", () => {
    const line = lineOf(edited((d) => setCell(d, 0, 0, cellHtml(d.rows[0]![0]!, "First card"))))
    expect(line).toBe(cardsLine.replace("<strong>Card one</strong>", "<strong>First card</strong>"))
  })
  it("a description, a target, and a card added then removed", () => {
    expect(lineOf(edited((d) => setCell(d, 1, 1, cellHtml(d.rows[1]![1]!, "New text"))))).toBe(cardsLine.replace("Description two.", "New text"))
    expect(lineOf(edited((d) => setTarget(d, 0, "other.md")))).toBe(cardsLine.replace("<a href=\"page-one.md\">page-one.md</a>", "<a href=\"other.md\">other.md</a>"))
    const added = lineOf(edited(addCard))
    expect(added).toBe(cardsLine.replace("</tbody>", "<tr><td></td><td></td><td></td><td></td><td></td></tr></tbody>"))
    expect(lineOf(edited((d) => removeCard(addCard(d), 2)))).toBe(cardsLine)
    expect(codec.parse(edited((d) => removeCard(d, 0))).child(1).attrs.rows).toHaveLength(1)
  })
  it("cards without a target column get GitBook's hidden one; table tags typed in a cell stay text", () => {
    const bare: CardsData = { columns: [{ attrs: "", label: "" }], rows: [["A"]] }
    const withTarget = setTarget(bare, 0, "a.md")
    expect(withTarget.columns[1]!.attrs).toBe(" data-hidden data-card-target data-type=\"content-ref\"")
    expect(withTarget.rows[0]).toEqual(["A", "<a href=\"a.md\">a.md</a>"])
    expect(cellHtml("", "a</td><td>b")).toBe("a&lt;/td>&lt;td>b")
    const out = edited((d) => setCell(d, 0, 1, cellHtml("", "x</tr>y")))
    expect(codec.parse(out).child(1).type.name).toBe("cards")
  })
})
