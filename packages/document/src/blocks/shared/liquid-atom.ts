/**
 * GitBook blocks that are one `{% tag … %}` line with an optional body up to `{% endtag %}` (embed, file,
 * content-ref, openapi-operation, include). The body (caption or link) is kept as written.
 */
import { Node } from "@tiptap/core"
import { findLiquidEnd, parseLiquidTag, renderLiquidLine, type LiquidParam } from "../../syntax/Liquid.ts"
import type { BlockMarkdown } from "../../codec/types.ts"
import { attr, is, isParam, sourceAttr } from "./attrs.ts"
import { oneLineTag } from "./container.ts"

export const liquidAtomNode = (name: string, html: string) =>
  Node.create({
    name,
    group: "block",
    atom: true,
    addAttributes: () => ({
      ...sourceAttr,
      params: attr<ReadonlyArray<LiquidParam>>([], is.list(isParam)),
      tag: attr<string | null>(null, is.nullable(is.string())),
      body: attr<string | null>(null, is.nullable(is.string())),
      endTag: attr<string | null>(null, is.nullable(is.string()))
    }),
    renderHTML: () => ["div", { "data-type": html }]
  })

/** `ending`: "required" (always has an end tag), "optional" (embed, file), "none" (include). */
export const liquidAtom = (tag: string, type: string, ending: "required" | "optional" | "none"): BlockMarkdown => ({
  parse: (ctx, lines, i) => {
    const line = lines[i]!
    if (ending !== "none" && line.startsWith("{%")) {
      // `{% content-ref url="x.md" %}[X](x.md){% endcontent-ref %}`: the block on one line.
      const one = oneLineTag(line, tag)
      if (one !== undefined) return { node: ctx.schema.nodes[type]!.create({ params: one.params, tag: one.open, body: one.inner, endTag: one.close }), end: i + 1 }
    }
    if (!line.startsWith("{%")) return undefined
    const parsed = parseLiquidTag(line)
    if (parsed?.name !== tag) return undefined
    const end = ending === "none" ? -1 : findLiquidEnd(lines, i, tag, true)
    if (end < 0 && ending === "required") return undefined
    const attrs = { params: parsed.params, tag: line }
    if (end < 0) return { node: ctx.schema.nodes[type]!.create(attrs), end: i + 1 }
    const body = end === i + 1 ? null : lines.slice(i + 1, end).join("\n")
    return { node: ctx.schema.nodes[type]!.create({ ...attrs, body, endTag: lines[end] }), end: end + 1 }
  },
  serialize: (_ctx, node) => {
    const a = node.attrs
    const open = renderLiquidLine(tag, a.params as ReadonlyArray<LiquidParam>, a.tag as string | null)
    if (a.endTag === null && a.body === null) return open
    const body = a.body as string | null
    return `${open}\n${body === null ? "" : `${body}\n`}${(a.endTag as string | null) ?? `{% end${tag} %}`}`
  }
})
