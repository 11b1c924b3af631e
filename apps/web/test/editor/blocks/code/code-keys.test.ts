/** Leaving a code block by keyboard, and the language picker's choices. */
import { type Command, EditorState, TextSelection } from "@tiptap/pm/state"
import { describe, expect, it } from "vitest"
import { exitOnThirdEnter, leaveCode } from "../../../../src/editor/blocks/code/keys.ts"
import { languageChoices } from "../../../../src/editor/blocks/code/languages.ts"
import { codec } from "../../../../../../packages/document/test/support.ts"

/** The state of `markdown` with the cursor at `at` characters into the text `inText` (found anywhere). */
const stateAt = (markdown: string, inText: string, at: number): EditorState => {
  const state = EditorState.create({ schema: codec.schema, doc: codec.parse(markdown) })
  let pos = -1
  state.doc.descendants((n, p) => {
    if (pos < 0 && n.isText && n.text!.includes(inText)) pos = p + n.text!.indexOf(inText) + at
  })
  return state.apply(state.tr.setSelection(TextSelection.create(state.doc, pos)))
}

/** Runs `command`; the page saved after it and the text of the block the cursor is in, or undefined when it did nothing. */
const run = (state: EditorState, command: Command) => {
  let next = state
  if (!command(state, (tr) => void (next = state.apply(tr)))) return undefined
  return { markdown: codec.serialize(next.doc), cursorIn: next.selection.$from.parent.type.name, text: next.selection.$from.parent.textContent }
}

describe("leaving a code block", () => {
  const page = "Before.\n\n```js\nlet a\nlet b\n```\n\nAfter.\n"
  it("the arrows at its very end or start move to the block after or before it; elsewhere they are the code's", () => {
    expect(run(stateAt(page, "let b", 5), leaveCode(1))).toEqual({ markdown: page, cursorIn: "paragraph", text: "After." })
    expect(run(stateAt(page, "let a", 0), leaveCode(-1))).toEqual({ markdown: page, cursorIn: "paragraph", text: "Before." })
    expect(run(stateAt(page, "let b", 2), leaveCode(1))).toBeUndefined()
    expect(run(stateAt(page, "let a", 2), leaveCode(-1))).toBeUndefined()
    expect(run(stateAt(page, "Before.", 7), leaveCode(1))).toBeUndefined()
  })
  it("the last block of the page, or of a tab, is left for a new empty paragraph there, never into the next tab", () => {
    const last = "Before.\n\n```\nx\n```\n"
    expect(run(stateAt(last, "x", 1), leaveCode(1))).toMatchObject({ cursorIn: "paragraph", text: "" })
    const tabs = "{% tabs %}\n{% tab title=\"A\" %}\n```\nx\n```\n{% endtab %}\n\n{% tab title=\"B\" %}\nB text\n{% endtab %}\n{% endtabs %}\n"
    const left = run(stateAt(tabs, "x", 1), leaveCode(1))!
    expect(left.text).toBe("")
    expect(left.markdown).toBe(tabs.replace("```\n{% endtab %}", "```\n\n{% endtab %}"))
  })
  it("a third Enter at the end leaves the two empty lines behind for a paragraph below; earlier Enters are new lines", () => {
    const page2 = "```py\nx = 1\n\n\n```\n\nAfter.\n"
    expect(run(stateAt(page2, "x = 1", 7), exitOnThirdEnter)).toEqual({ markdown: "```py\nx = 1\n```\n\n\n\nAfter.\n", cursorIn: "paragraph", text: "" })
    expect(run(stateAt("```py\nx = 1\n\n```\n", "x = 1", 6), exitOnThirdEnter)).toBeUndefined()
    expect(run(stateAt(page2, "x = 1", 5), exitOnThirdEnter)).toBeUndefined()
  })
})

describe("the language picker", () => {
  it("lists common languages with plain text first, and a block's own language when it is not one of them", () => {
    const common = languageChoices("python")
    expect(common[0]).toEqual({ value: "", label: "Plain text" })
    expect(common.map((c) => c.value)).toContain("typescript")
    expect(common.filter((c) => c.value === "python")).toHaveLength(1)
    const own = languageChoices("js")
    expect(own.slice(0, 2)).toEqual([{ value: "", label: "Plain text" }, { value: "js", label: "js" }])
    expect(own).toHaveLength(common.length + 1)
  })
})
