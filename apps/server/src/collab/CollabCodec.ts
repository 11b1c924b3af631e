/**
 * The conversion between a page's markdown and its shared Yjs document: the editor's codec, so
 * that what the server writes back is byte for byte what the editor would have saved.
 */
import type { Node, Schema } from "@tiptap/pm/model"
import { prosemirrorToYDoc, updateYFragment, yXmlFragmentToProseMirrorRootNode } from "@tiptap/y-tiptap"
import { Context, Layer } from "effect"
import { createMarkdownCodec, createSchema } from "@quire/document"
import * as Y from "yjs"

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
   * turned into a change that merges with what people type meanwhile.
   */
  readonly apply: (document: Y.Doc, markdown: string) => void
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
    apply: (doc, markdown) => updateYFragment(doc, doc.getXmlFragment(field), codec.parse(markdown), { mapping: new Map(), isOMark: new Map() })
  })

  /** The editor's own codec (`@quire/document`), on a schema of the server's. */
  static readonly editor = (): CollabCodecShape => CollabCodec.fromProsemirror(createMarkdownCodec(createSchema()))

  static readonly layer = Layer.sync(CollabCodec, () => CollabCodec.of(CollabCodec.editor()))
}
