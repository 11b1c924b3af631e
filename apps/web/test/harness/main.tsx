/**
 * Test-only page: the real Editor component (TipTap in a real DOM) with functions on `window` for the
 * browser round-trip test (test/e2e/roundtrip.test.ts). Never part of the app's build.
 */
import type { Editor as TiptapEditor } from "@tiptap/core"
import { StrictMode, useState } from "react"
import { flushSync } from "react-dom"
import { createRoot, type Root } from "react-dom/client"
import { Editor } from "../../src/editor/Editor.tsx"
import { createMarkdownCodec, type MarkdownCodec } from "@quire/document"
import "../../src/ui/tokens.css"
import "../../src/ui/app.css"

export interface HarnessResult {
  readonly name: string
  readonly identical: boolean
  readonly bytes: number
  /** Top-level blocks in the document and top-level elements drawn for them. */
  readonly blocks: number
  readonly drawn: number
  readonly firstDifference?: { readonly at: number; readonly expected: string; readonly actual: string }
}

export interface Harness {
  /** Loads each page into the editor as the app does and serializes it untouched. */
  readonly roundTrip: (pages: ReadonlyArray<readonly [string, string]>) => Promise<Array<HarnessResult>>
  readonly load: (markdown: string) => Promise<void>
  /** The markdown the editor reported in its last onChange, or null. */
  readonly lastChange: () => string | null
  /** Each top-level block's kept source slice (null when it has none) and type. */
  readonly blocks: () => Array<{ readonly type: string; readonly source: string | null; readonly text: string }>
  /** Puts the cursor at the end of top-level block `index` (a textblock) and focuses the editor. */
  readonly placeCursorAtEnd: (index: number) => void
  readonly serialize: () => string
  readonly cursorText: () => string
}

let setMarkdown: (markdown: string) => void = () => {}
let changed: string | null = null

const App = () => {
  const [markdown, set] = useState("")
  setMarkdown = set
  return <Editor markdown={markdown} onChange={(md) => void (changed = md)} aria-label="Page content" />
}

const editor = (): TiptapEditor => {
  const dom = document.querySelector(".ProseMirror") as (HTMLElement & { editor?: TiptapEditor }) | null
  if (!dom?.editor) throw new Error("the editor is not mounted")
  return dom.editor
}

let codec: MarkdownCodec | null = null
const codecOf = (e: TiptapEditor): MarkdownCodec => (codec ??= createMarkdownCodec(e.schema))

const frame = () => new Promise<void>((resolve) => setTimeout(resolve, 0))

let last: string | null = null

/** As the app gives a page to the Editor: a new `markdown` prop (the same one twice is reloaded through another). */
const load = async (markdown: string): Promise<void> => {
  if (markdown === last) await load(`${markdown}\n<!-- reload -->`)
  last = markdown
  const before = editor().state.doc
  flushSync(() => setMarkdown(markdown))
  for (let k = 0; editor().state.doc === before; k++) {
    if (k > 200) throw new Error("the editor did not load the page")
    await frame()
  }
  changed = null
}

const firstDifference = (a: string, b: string) => {
  let at = 0
  while (at < a.length && a[at] === b[at]) at++
  return { at, expected: JSON.stringify(a.slice(at, at + 60)), actual: JSON.stringify(b.slice(at, at + 60)) }
}

const harness: Harness = {
  roundTrip: async (pages) => {
    const results: Array<HarnessResult> = []
    for (const [name, markdown] of pages) {
      await load(markdown)
      const e = editor()
      const out = codecOf(e).serialize(e.state.doc)
      const identical = out === markdown
      results.push({
        name,
        identical,
        bytes: new TextEncoder().encode(markdown).length,
        blocks: e.state.doc.childCount,
        drawn: e.view.dom.childElementCount,
        ...(identical ? {} : { firstDifference: firstDifference(markdown, out) })
      })
    }
    return results
  },
  load,
  lastChange: () => changed,
  blocks: () => {
    const out: Array<{ type: string; source: string | null; text: string }> = []
    editor().state.doc.forEach((n) => void out.push({ type: n.type.name, source: (n.attrs.source as string | null) ?? null, text: n.textContent }))
    return out
  },
  placeCursorAtEnd: (index) => {
    const e = editor()
    let pos = 0
    for (let k = 0; k < index; k++) pos += e.state.doc.child(k).nodeSize
    // The view itself, now: TipTap's focus command waits for the next frame.
    e.view.focus()
    e.commands.setTextSelection(pos + e.state.doc.child(index).nodeSize - 1)
  },
  serialize: () => codecOf(editor()).serialize(editor().state.doc),
  /** The text of the block the cursor is in (a table cell's, inside a table). */
  cursorText: () => editor().state.selection.$from.parent.textContent
}

declare global {
  interface Window {
    quireHarness?: Harness
  }
}

const root: Root = createRoot(document.getElementById("root")!)
root.render(
  <StrictMode>
    <App />
  </StrictMode>
)
window.quireHarness = harness
