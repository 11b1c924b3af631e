/**
 * The conversion between a page's markdown and its shared Yjs document: the editor's codec, so
 * that what the server writes back is byte for byte what the editor would have saved.
 */
import { Fragment, type Node, type Schema } from "@tiptap/pm/model"
import { prosemirrorToYDoc, updateYFragment, yXmlFragmentToProseMirrorRootNode } from "@tiptap/y-tiptap"
import { Context, Layer } from "effect"
import { createMarkdownCodec, createSchema } from "@quire/document"
import * as Y from "yjs"
import { type ChangeCheck, documentCheck } from "./CollabUpdateCheck.ts"

/** A markdown codec over a ProseMirror schema, as the editor's is (`@quire/document`). */
export interface ProsemirrorMarkdown {
  readonly schema: Schema
  readonly parse: (markdown: string) => Node
  readonly serialize: (doc: Node) => string
}

export interface CollabCodecShape {
  /** A Yjs update that, applied to an empty document, gives the shared document of `markdown`. */
  readonly fromMarkdown: (markdown: string) => Uint8Array
  /**
   * Bytes that `fromMarkdown(markdown)` takes at the least, never more, found in milliseconds
   * where making the state can take seconds: a page over the live limit by it alone is refused
   * without making its state.
   */
  readonly stateBytesAtLeast: (markdown: string) => number
  /** The markdown of the shared document, as the editor would save it. */
  readonly toMarkdown: (document: Y.Doc) => string
  /**
   * Changes `document` so that it reads as `markdown`, by the smallest change of its shared
   * document (blocks and text that did not change keep their Yjs items): a write from elsewhere
   * turned into a change that merges with what people type meanwhile. A block the markdown holds
   * as the document writes it is left as it is, even where reading that markdown gives less (a
   * paragraph's trailing space, typed before the next word): the write did not change it.
   */
  readonly apply: (document: Y.Doc, markdown: string) => void
  /** What an update to a shared document must fit before it is stored (CollabUpdateCheck): its one root and the schema there. */
  readonly check: ChangeCheck
}

/**
 * `parsed` with each top-level block whose markdown is that of a block of `current`, or of that
 * block read back, replaced by `current`'s: reading markdown drops what the editor keeps (a
 * paragraph's trailing space), and applying the block as read would take it from what people
 * typed. Only the blocks whose markdown differs are read back.
 */
const keepUnchangedBlocks = (codec: ProsemirrorMarkdown, current: Node, parsed: Node): Node => {
  // A block's markdown alone, without the line breaks that part it from the next (its `source` has them).
  const markdownOf = (block: Node) => codec.serialize(codec.schema.topNodeType.create(null, [block])).replace(/\n+$/, "")
  const targets = new Map<string, Array<number>>()
  parsed.forEach((block, _, index) => {
    const key = markdownOf(block)
    const at = targets.get(key)
    if (at === undefined) targets.set(key, [index])
    else at.push(index)
  })
  const blocks = [...parsed.content.content]
  let kept = false
  current.forEach((block) => {
    const own = markdownOf(block)
    let index = targets.get(own)?.shift()
    if (index === undefined) {
      const read = codec.parse(own)
      if (read.childCount === 1) index = targets.get(markdownOf(read.child(0)))?.shift()
    }
    if (index === undefined || blocks[index]!.eq(block)) return
    blocks[index] = block
    kept = true
  })
  return kept ? parsed.copy(Fragment.fromArray(blocks)) : parsed
}

/**
 * Bytes a Yjs element of the shared document takes at the least, with its one-letter text: a
 * paragraph `a` alone takes 55 to 69 (its name, its `source` attribute, its text, the ids).
 */
const leastBlockBytes = 40

/** GitBook tags whose body is blocks, each of its own. */
const containerTags = new Set(["hint", "tabs", "tab", "stepper", "step", "columns", "column", "updates", "update"])

/**
 * A lower bound of the bytes of `fromMarkdown(markdown)`, read from the markdown's lines alone (a
 * few milliseconds for a megabyte, where making the state takes seconds): `leastBlockBytes` for
 * each block certain to be one of its own, a run of lines after a blank line whose first starts
 * with a letter or digit, outside what may hold blank lines within one block (frontmatter, code
 * fences, math, HTML comments and raw HTML, GitBook tags other than those that hold blocks), and
 * for each bullet list item with words. Never more than the state (CollabStateBound.test.ts checks
 * it on the fidelity corpus, the document fixtures and pages made to fool it).
 */
export const stateBytesAtLeast = (markdown: string): number => {
  let blocks = 0
  let afterBlank = true
  /** Until a line that ends what holds blank lines: none when outside. */
  let until: ((line: string) => boolean) | undefined
  const lines = markdown.split("\n")
  let at = 0
  if (/^---\s*$/.test(lines[0] ?? "")) {
    at = 1
    until = (line) => /^(---|\.\.\.)\s*$/.test(line)
  }
  for (; at < lines.length; at++) {
    const line = lines[at]!
    if (until !== undefined) {
      if (until(line)) until = undefined
      afterBlank = line.trim() === ""
      continue
    }
    if (line.trim() === "") {
      afterBlank = true
      continue
    }
    const fence = /^\s*(`{3,}|~{3,})/.exec(line)
    if (fence !== undefined && fence !== null) {
      const [char, length] = [fence[1]![0]!, fence[1]!.length]
      until = (next) => {
        const close = /^\s*(`{3,}|~{3,})\s*$/.exec(next)
        return close !== null && close[1]![0] === char && close[1]!.length >= length
      }
    } else if (line.trim().startsWith("$$") && !(line.trim().length >= 4 && line.trim().endsWith("$$"))) {
      until = (next) => next.trim().endsWith("$$")
    } else if (/^\s*</.test(line)) {
      const ends = /^\s*<!--/.test(line) ? "-->"
        : /^\s*<(pre|script|style|textarea)\b/i.exec(line)?.[1] !== undefined ? `</${/^\s*<(\w+)/.exec(line)![1]!.toLowerCase()}>`
        : /^\s*<\?/.test(line) ? "?>"
        : /^\s*<!\[CDATA\[/.test(line) ? "]]>"
        : /^\s*<!/.test(line) ? ">"
        : undefined
      // Raw HTML: to its end, or (any other tag) to the next blank line.
      if (ends === undefined) until = (next) => next.trim() === ""
      else if (!line.toLowerCase().includes(ends, line.indexOf("<") + 2)) until = (next) => next.toLowerCase().includes(ends)
    } else if (/^\s*\{%/.test(line)) {
      // A tag other than those that hold blocks may read its body as one block (`code`, `swagger`): to its end tag.
      const name = /^\s*\{%\s*([\w-]+)/.exec(line)?.[1] ?? ""
      const end = new RegExp(`\\{%\\s*end${name.replace(/-/g, "\\-")}\\s*%\\}`)
      if (!name.startsWith("end") && !containerTags.has(name)) until = (next) => end.test(next)
    } else if (/^ {0,3}[-*+][ \t]+\S/.test(line) || (afterBlank && /^[A-Za-z0-9]/.test(line))) {
      // A bullet list item with words (one a line; indented more, it may be code), or a block of its own after a blank line.
      blocks++
    }
    afterBlank = false
  }
  return blocks * leastBlockBytes
}

export class CollabCodec extends Context.Service<CollabCodec, CollabCodecShape>()("@quire/server/CollabCodec") {
  /**
   * The conversion through a ProseMirror codec: the document is the Y.XmlFragment `field` that
   * TipTap's Collaboration extension binds (the same name on both sides), converted as
   * y-prosemirror does (`@tiptap/y-tiptap`, the binding TipTap's extension uses).
   */
  static readonly fromProsemirror = (codec: ProsemirrorMarkdown, field = "default"): CollabCodecShape => ({
    fromMarkdown: (markdown) => {
      const doc = prosemirrorToYDoc(codec.parse(markdown), field)
      const update = Y.encodeStateAsUpdate(doc)
      doc.destroy()
      return update
    },
    stateBytesAtLeast,
    toMarkdown: (doc) => codec.serialize(yXmlFragmentToProseMirrorRootNode(doc.getXmlFragment(field), codec.schema)),
    apply: (doc, markdown) => {
      const fragment = doc.getXmlFragment(field)
      const target = keepUnchangedBlocks(codec, yXmlFragmentToProseMirrorRootNode(fragment, codec.schema), codec.parse(markdown))
      updateYFragment(doc, fragment, target, { mapping: new Map(), isOMark: new Map() })
    },
    check: documentCheck(codec.schema, (block) => codec.serialize(codec.schema.topNodeType.create(null, [block])), field)
  })

  /** The editor's own codec (`@quire/document`), on a schema of the server's. */
  static readonly editor = (): CollabCodecShape => CollabCodec.fromProsemirror(createMarkdownCodec(createSchema()))

  static readonly layer = Layer.sync(CollabCodec, () => CollabCodec.of(CollabCodec.editor()))
}
