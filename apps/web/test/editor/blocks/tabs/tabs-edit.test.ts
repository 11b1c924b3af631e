/** Tabs as the tab bar changes them: a title, a tab added, a tab deleted, a tab moved, the keys along the bar. */
import { EditorState, type Transaction } from "@tiptap/pm/state"
import { describe, expect, it } from "vitest"
import { addTab, deleteTab, moveAfterKey, moveTab, retitle, tabAfterKey, titleOf } from "../../../../src/editor/blocks/tabs/model.ts"
import { codec } from "../../../../../../packages/document/test/support.ts"

const PAGE = "Intro.\n\n{% tabs %}\n{% tab title=\"npm\" %}\nnpm i\n{% endtab %}\n\n{% tab title=\"pnpm\" %}\npnpm add\n{% endtab %}\n{% endtabs %}\n\nAfter.\n"

/** The page saved after `edit` of the tabs block (the page's second block). */
const run = (edit: (state: EditorState, tabsPos: number) => Transaction, page = PAGE): string => {
  const state = EditorState.create({ schema: codec.schema, doc: codec.parse(page) })
  const tabsPos = state.doc.child(0).nodeSize
  return codec.serialize(state.apply(edit(state, tabsPos)).doc)
}

describe("editing tabs", () => {
  it("a title typed in the bar changes only its tab's line, quoted so that it reads back", () => {
    expect(run((s, p) => retitle(s, p, 1, "Yarn"))).toBe(PAGE.replace("{% tab title=\"pnpm\" %}", "{% tab title=\"Yarn\" %}"))
    const quoted = run((s, p) => retitle(s, p, 1, "Yarn \"berry\""))
    expect(quoted).toBe(PAGE.replace("{% tab title=\"pnpm\" %}", "{% tab title='Yarn \"berry\"' %}"))
    expect(titleOf(codec.parse(quoted).child(1).child(1))).toBe("Yarn \"berry\"")
    expect(run((s, p) => retitle(s, p, 1, "It's \"new\""))).toContain("{% tab title=\"It's “new”\" %}")
  })
  it("a tab added comes last, set off by a blank line, with a title no tab has", () => {
    const added = run(addTab)
    expect(added).toBe(PAGE.replace("pnpm add\n{% endtab %}\n", "pnpm add\n{% endtab %}\n\n{% tab title=\"New tab\" %}\n\n{% endtab %}\n"))
    expect(codec.serialize(codec.parse(added))).toBe(added)
    expect(run(addTab, added)).toContain("{% tab title=\"New tab 2\" %}")
  })
  it("a tab deleted takes its lines; the last one takes the block", () => {
    expect(run((s, p) => deleteTab(s, p, 0))).toBe("Intro.\n\n{% tabs %}\n{% tab title=\"pnpm\" %}\npnpm add\n{% endtab %}\n{% endtabs %}\n\nAfter.\n")
    expect(run((s, p) => deleteTab(s, p, 1))).toBe(PAGE.replace("\n{% tab title=\"pnpm\" %}\npnpm add\n{% endtab %}\n", ""))
    const one = "Intro.\n\n{% tabs %}\n{% tab title=\"Only\" %}\nText\n{% endtab %}\n{% endtabs %}\n\nAfter.\n"
    expect(run((s, p) => deleteTab(s, p, 0), one)).toBe("Intro.\n\nAfter.\n")
  })
  it("a tab moved takes its lines to its new place; the blank lines stay where they were, and a move in place changes nothing", () => {
    const swapped = "Intro.\n\n{% tabs %}\n{% tab title=\"pnpm\" %}\npnpm add\n{% endtab %}\n\n{% tab title=\"npm\" %}\nnpm i\n{% endtab %}\n{% endtabs %}\n\nAfter.\n"
    expect(run((s, p) => moveTab(s, p, 1, 0)!)).toBe(swapped)
    expect(run((s, p) => moveTab(s, p, 0, 1)!)).toBe(swapped)
    expect(codec.serialize(codec.parse(swapped))).toBe(swapped)
    const state = EditorState.create({ schema: codec.schema, doc: codec.parse(PAGE) })
    expect([moveTab(state, state.doc.child(0).nodeSize, 1, 1), moveTab(state, state.doc.child(0).nodeSize, 0, 2)]).toEqual([undefined, undefined])
    expect([moveAfterKey("ArrowLeft", 1, 3), moveAfterKey("ArrowRight", 1, 3), moveAfterKey("ArrowLeft", 0, 3), moveAfterKey("ArrowRight", 2, 3), moveAfterKey("Home", 1, 3)]).toEqual([0, 2, undefined, undefined, undefined])
  })
  it("the arrows wrap along the bar; Home and End go to the first and last tab; other keys move nothing", () => {
    expect([tabAfterKey("ArrowRight", 2, 3), tabAfterKey("ArrowLeft", 0, 3), tabAfterKey("Home", 2, 3), tabAfterKey("End", 0, 3), tabAfterKey("a", 0, 3)]).toEqual([0, 2, 0, 2, undefined])
  })
})
