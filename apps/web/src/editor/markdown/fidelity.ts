/**
 * The round-trip check: `exact` (same bytes), `normalizing` (different bytes, same document) or `lossy`
 * (the document changed). Used by the tests, the fuzzer and, later, the editor before it saves.
 */
import type { Node as PMNode } from "@tiptap/pm/model"
import type { MarkdownCodec } from "./codec.ts"

export type Fidelity = "exact" | "normalizing" | "lossy"

/**
 * Attributes that keep source text verbatim only to be written back while the node still says the same thing
 * (a block's slice, a liquid tag's line, a table row's line). They are not part of what the document means.
 */
const KEPT_TEXT = ["source", "tag", "wrapperTag", "line"] as const

/** The document without its kept source text: what the reader sees and the serializer must preserve. */
export const withoutSources = (node: PMNode): PMNode => {
  if (node.isText) return node
  const children: Array<PMNode> = []
  node.forEach((c) => void children.push(withoutSources(c)))
  const kept = KEPT_TEXT.filter((k) => k in node.attrs)
  const attrs = kept.length ? { ...node.attrs, ...Object.fromEntries(kept.map((k) => [k, null])) } : node.attrs
  return node.type.create(attrs, children, node.marks)
}

export const sameDocument = (a: PMNode, b: PMNode): boolean => withoutSources(a).eq(withoutSources(b))

/** Serializes `doc` and classifies the result against `original` (the markdown the doc came from, if any). */
export const classify = (codec: MarkdownCodec, doc: PMNode, original?: string): { fidelity: Fidelity; output: string } => {
  const output = codec.serialize(doc)
  if (original !== undefined && output === original) return { fidelity: "exact", output }
  return { fidelity: sameDocument(codec.parse(output), doc) ? "normalizing" : "lossy", output }
}

export const checkRoundTrip = (codec: MarkdownCodec, markdown: string): { fidelity: Fidelity; output: string } =>
  classify(codec, codec.parse(markdown), markdown)

/** Serializes every block from its attributes alone (no kept slices), the path an edited block takes. */
export const checkFresh = (codec: MarkdownCodec, markdown: string): { fidelity: Fidelity; output: string } =>
  classify(codec, withoutSources(codec.parse(markdown)))
