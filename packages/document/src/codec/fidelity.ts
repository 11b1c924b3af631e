/**
 * The round-trip check: `exact` (same bytes), `normalizing` (different bytes, same document) or `lossy`
 * (the document changed). Used by the tests, the fuzzer and, later, the editor before it saves.
 */
import type { Mark, Node as PMNode } from "@tiptap/pm/model"
import type { MarkdownCodec } from "./codec.ts"

export type Fidelity = "exact" | "normalizing" | "lossy"

/**
 * Attributes that keep source text verbatim only to be written back while the node still says the same thing
 * (a block's slice, a liquid tag's line, a table row's line). They are not part of what the document means.
 */
const KEPT_TEXT = ["source", "tag", "wrapperTag", "line", "open", "close"] as const

/** The document without its kept source text, so serializing it writes every block from its attributes. */
export const withoutSources = (node: PMNode): PMNode => {
  if (node.isText) return node
  const children: Array<PMNode> = []
  node.forEach((c) => void children.push(withoutSources(c)))
  const kept = KEPT_TEXT.filter((k) => k in node.attrs)
  const attrs = kept.length ? { ...node.attrs, ...Object.fromEntries(kept.map((k) => [k, null])) } : node.attrs
  return node.type.create(attrs, children, node.marks)
}

/** What a reader sees: no kept source text, no invisible differences (bold spaces, `<url>` against `[url](url)`). */
export const meaning = (node: PMNode): PMNode => {
  if (node.isText) return node.type.schema.text(node.text!.replace(/[ \t]+\n/g, "\n"), node.marks.map(plainMark))
  const children: Array<PMNode> = []
  node.forEach((c) => {
    for (const plain of c.isText ? splitEdgeSpace(meaning(c)) : [meaning(c)]) {
      const prev = children[children.length - 1]
      if (prev?.isText && plain.isText && sameMarks(prev.marks, plain.marks))
        children[children.length - 1] = prev.type.schema.text((prev.text! + plain.text!).replace(/[ \t]+\n/g, "\n"), prev.marks)
      else children.push(plain)
    }
  })
  if (node.isTextblock) trimEdges(children)
  const kept = KEPT_TEXT.filter((k) => k in node.attrs)
  const attrs = kept.length ? { ...node.attrs, ...Object.fromEntries(kept.map((k) => [k, null])) } : node.attrs
  const styled = STYLE_ONLY.filter((k) => k in attrs)
  return node.type.create(styled.length ? { ...attrs, ...Object.fromEntries(styled.map((k) => [k, node.type.spec.attrs?.[k]?.default ?? null])) } : attrs, children, node.marks.map(plainMark))
}

export const sameDocument = (a: PMNode, b: PMNode): boolean => meaning(a).eq(meaning(b))

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

/** Whether a link was written `<url>` is style: the same link either way. */
const plainMark = (mark: Mark): Mark => {
  if (mark.type.name === "link" && (mark.attrs.autolink || mark.attrs.angle)) return mark.type.create({ ...mark.attrs, autolink: false, angle: false })
  // `**` or `__`, `*` or `_`: the same emphasis.
  if ("delim" in mark.attrs) return mark.type.create({ delim: mark.type.name })
  return mark
}

/** Whitespace at the end of a paragraph or heading is not shown (nor kept by markdown). */
const trimEdges = (children: Array<PMNode>): void => {
  const first = children[0]
  if (first?.isText && !first.marks.some((m) => m.type.name === "code")) {
    const text = first.text!.replace(/^\s+/, "")
    if (text) children[0] = first.type.schema.text(text, first.marks)
    else children.shift()
  }
  const last = children[children.length - 1]
  if (last?.isText && !last.marks.some((m) => m.type.name === "code")) {
    const text = last.text!.replace(/\s+$/, "")
    if (text) children[children.length - 1] = last.type.schema.text(text, last.marks)
    else children.pop()
  }
}

/** Attributes that only choose between ways of writing the same thing (`<url>` or `url`, a table's outer pipes, spaces after a list marker). */
const STYLE_ONLY = ["angle", "pipes", "spacing"] as const

/** Marks that change nothing on whitespace alone (bold or highlighted spaces look like spaces). */
const INVISIBLE_ON_SPACE = new Set(["bold", "italic", "strike", "highlight"])

const sameMarks = (a: ReadonlyArray<Mark>, b: ReadonlyArray<Mark>): boolean => a.length === b.length && a.every((m, i) => m.eq(b[i]!))

/** Whitespace at the edges of bold, italic, strike or highlighted text, taken out of those marks. */
const splitEdgeSpace = (text: PMNode): Array<PMNode> => {
  if (!text.marks.some((m) => INVISIBLE_ON_SPACE.has(m.type.name))) return [text]
  const m = /^(\s*)([\s\S]*?)(\s*)$/.exec(text.text!)!
  const bare = text.marks.filter((mk) => !INVISIBLE_ON_SPACE.has(mk.type.name))
  const schema = text.type.schema
  return [m[1] ? schema.text(m[1], bare) : null, m[2] ? schema.text(m[2], text.marks) : null, m[3] ? schema.text(m[3], bare) : null].filter(
    (n): n is PMNode => n !== null
  )
}
