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
