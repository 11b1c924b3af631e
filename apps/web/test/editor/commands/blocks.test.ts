/** The block handle's commands and keys: a page's blocks moved, duplicated, deleted, a line added, each written back as GitBook markdown. */
import { describe, expect, it } from "vitest"
import { EditorState, NodeSelection, TextSelection, type Transaction } from "@tiptap/pm/state"
import { createMarkdownCodec, createSchema } from "@quire/document"
import { blockStart, currentBlock, deleteBlock, duplicateBlock, lineBelow, moveBlock } from "../../../src/editor/commands/blocks.ts"

const schema = createSchema()
const codec = createMarkdownCodec(schema)

/** The page's markdown after `command` ran on it, and the state it left. */
const run = (markdown: string, command: (state: EditorState, dispatch: (tr: Transaction) => void) => boolean, at?: (state: EditorState) => EditorState) => {
  let state = EditorState.create({ schema, doc: codec.parse(markdown) })
  if (at !== undefined) state = at(state)
  const done = command(state, (tr) => (state = state.apply(tr)))
  return { done, markdown: codec.serialize(state.doc), state }
}

const caretIn = (index: number, offset = 1) => (state: EditorState) =>
  state.apply(state.tr.setSelection(TextSelection.create(state.doc, blockStart(state.doc, index) + offset)))

const page = "# Title\n\nFirst words.\n\n{% hint style=\"info\" %}\nA hint.\n{% endhint %}\n\nLast words.\n"

describe("moving a block", () => {
  it("swaps it with the one above or below, keeping each block's bytes, and the caret moves with it", () => {
    const up = run(page, moveBlock(3, -1), caretIn(3, 3))
    // Each block keeps its bytes (a block tag may follow a line of text; the hint keeps its blank line after), and reads back as moved.
    expect(up.markdown).toBe("# Title\n\nFirst words.\n\nLast words.\n{% hint style=\"info\" %}\nA hint.\n{% endhint %}\n\n")
    expect(codec.parse(up.markdown).eq(up.state.doc)).toBe(true)
    expect(currentBlock(up.state)).toBe(2)
    expect(up.state.selection.$from.parent.textContent).toBe("Last words.")
    expect(up.state.selection.$from.parentOffset).toBe(2)
    const down = run(page, moveBlock(1, 1))
    expect(down.markdown).toBe("# Title\n\n{% hint style=\"info\" %}\nA hint.\n{% endhint %}\n\nFirst words.\n\nLast words.\n")
  })
  it("goes no further than the page's ends, and never above the frontmatter", () => {
    expect(run(page, moveBlock(0, -1)).done).toBe(false)
    expect(run(page, moveBlock(3, 1)).done).toBe(false)
    const withFrontmatter = "---\ndescription: Hi\n---\n\nOne.\n\nTwo.\n"
    expect(run(withFrontmatter, moveBlock(1, -1)).done).toBe(false)
    expect(run(withFrontmatter, moveBlock(0, 1)).done).toBe(false)
    // The last line moved up is set apart from the line now after it: side by side they would read as one paragraph.
    const moved = run(withFrontmatter, moveBlock(2, -1))
    expect(moved.markdown).toBe("---\ndescription: Hi\n---\n\nTwo.\n\nOne.\n\n")
    expect(codec.parse(moved.markdown).childCount).toBe(3)
  })
  it("moves a selected block (a node selection) with its selection", () => {
    const moved = run(page, moveBlock(2, -1), (state) => state.apply(state.tr.setSelection(NodeSelection.create(state.doc, blockStart(state.doc, 2)))))
    expect(moved.state.selection).toBeInstanceOf(NodeSelection)
    expect((moved.state.selection as NodeSelection).node.type.name).toBe("hint")
    expect(currentBlock(moved.state)).toBe(1)
  })
})

describe("duplicating, deleting and adding", () => {
  it("duplicates a block after itself", () => {
    expect(run(page, duplicateBlock(2)).markdown).toBe(
      "# Title\n\nFirst words.\n\n{% hint style=\"info\" %}\nA hint.\n{% endhint %}\n\n{% hint style=\"info\" %}\nA hint.\n{% endhint %}\n\nLast words.\n"
    )
  })
  it("deletes a block, and a page's only block becomes an empty line", () => {
    expect(run(page, deleteBlock(2)).markdown).toBe("# Title\n\nFirst words.\n\nLast words.\n")
    const only = run("Alone.\n", deleteBlock(0))
    expect(only.state.doc.childCount).toBe(1)
    expect(only.state.doc.firstChild!.type.name).toBe("paragraph")
    expect(only.state.doc.textContent).toBe("")
  })
  it("adds a line after a block with the caret after its text", () => {
    const added = run(page, lineBelow(1, "/"))
    expect(added.state.doc.child(2).textContent).toBe("/")
    expect(added.state.selection.from).toBe(blockStart(added.state.doc, 2) + 2)
    expect(added.markdown).toBe("# Title\n\nFirst words.\n\n/\n\n{% hint style=\"info\" %}\nA hint.\n{% endhint %}\n\nLast words.\n")
  })
})
