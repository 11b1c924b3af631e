/**
 * Markdown as you type: `# ` to `### ` headings, `> ` quotes, ```` ```lang ```` + Enter code, `$$` + Enter math,
 * `---` dividers, `**bold**`, `*italic*`, `` `code` ``, `~~strike~~`, `$$tex$$` inline math; and the mark keys
 * (Mod-b, Mod-i, Mod-e, Mod-Shift-s). Lists (`- `, `* `, `1. `, `[ ] `, `[x] `) come with the list nodes' own rules.
 */
import { Extension, InputRule, markInputRule, textblockTypeInputRule, wrappingInputRule, type Editor } from "@tiptap/core"
import type { Node as PMNode } from "@tiptap/pm/model"
import { TextSelection } from "@tiptap/pm/state"
import { lineAfter } from "./insert.ts"

/** Replaces the textblock around the cursor with `node` (and an empty paragraph after an atom), the cursor inside. */
const replaceTextblock = (editor: Editor, node: PMNode): boolean => {
  const { state } = editor
  const $from = state.selection.$from
  if ($from.depth < 1 || $from.parent.type.name !== "paragraph") return false
  const start = $from.before()
  const tr = state.tr.replaceWith(start, $from.after(), node)
  if (node.isAtom) {
    const after = start + node.nodeSize
    tr.insert(after, state.schema.nodes.paragraph!.create())
    tr.setSelection(TextSelection.create(tr.doc, after + 1))
  } else {
    lineAfter(tr, start)
    tr.setSelection(TextSelection.create(tr.doc, start + 1 + node.content.size))
  }
  editor.view.dispatch(tr.scrollIntoView())
  return true
}

const FENCE = /^```([\w+#.-]*)$/

/** Enter at the end of a paragraph that says ```` ```lang ```` or `$$` makes a code or math block. */
const enterMakesBlock = (editor: Editor): boolean => {
  const { selection, schema } = editor.state
  if (!selection.empty || selection.$from.parent.type.name !== "paragraph" || selection.$from.parentOffset !== selection.$from.parent.content.size) return false
  const text = selection.$from.parent.textContent
  const fence = FENCE.exec(text)
  if (fence) return replaceTextblock(editor, schema.nodes.codeBlock!.create({ language: fence[1] }))
  if (text === "$$") return replaceTextblock(editor, schema.nodes.mathBlock!.create())
  return false
}

export const MarkdownShortcuts = Extension.create({
  name: "quireMarkdownShortcuts",
  priority: 200,
  addInputRules() {
    const { schema } = this.editor
    const n = schema.nodes
    const m = schema.marks
    return [
      textblockTypeInputRule({ find: /^(#{1,3})\s$/, type: n.heading!, getAttributes: (match) => ({ level: match[1]!.length }) }),
      wrappingInputRule({ find: /^\s*>\s$/, type: n.blockquote! }),
      textblockTypeInputRule({ find: /^```([\w+#.-]*)\s$/, type: n.codeBlock!, getAttributes: (match) => ({ language: match[1] ?? "" }) }),
      new InputRule({
        find: /^---$/,
        handler: ({ state, range }) => {
          const $from = state.doc.resolve(range.from)
          if ($from.parent.type.name !== "paragraph" || $from.parent.textContent !== "---") return null
          const start = $from.before()
          state.tr.replaceWith(start, $from.after(), [n.horizontalRule!.create(), n.paragraph!.create()])
          state.tr.setSelection(TextSelection.create(state.tr.doc, start + 2))
        }
      }),
      new InputRule({
        find: /(?:^|\s)(\$\$([^$]+)\$\$)$/,
        handler: ({ state, range, match }) => {
          // `range` covers the match with the typed `$` (already in the document); the leading space stays.
          state.tr.replaceWith(range.from + match[0].length - match[1]!.length, range.to, n.inlineMath!.create({ tex: match[2] }))
        }
      }),
      markInputRule({ find: /(?:^|\s)(\*\*(?!\s+\*\*)((?:[^*]+))\*\*(?!\s+\*\*))$/, type: m.bold! }),
      markInputRule({ find: /(?:^|\s)(\*(?!\s+\*)((?:[^*]+))\*(?!\s+\*))$/, type: m.italic! }),
      markInputRule({ find: /(?:^|\s)(~~(?!\s+~~)((?:[^~]+))~~(?!\s+~~))$/, type: m.strike! }),
      markInputRule({ find: /(^|[^`])`([^`]+)`(?!`)$/, type: m.code! })
    ]
  },
  addKeyboardShortcuts() {
    return {
      Enter: ({ editor }) => enterMakesBlock(editor),
      "Mod-b": ({ editor }) => editor.commands.toggleMark("bold"),
      "Mod-i": ({ editor }) => editor.commands.toggleMark("italic"),
      "Mod-e": ({ editor }) => editor.commands.toggleMark("code"),
      "Mod-Shift-s": ({ editor }) => editor.commands.toggleMark("strike")
    }
  }
})
