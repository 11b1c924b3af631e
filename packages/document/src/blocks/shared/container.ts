/**
 * GitBook's `{% name … %}` … `{% endname %}` containers. A plain container (hint, tab, step, column) holds blocks;
 * a group (tabs, stepper, columns) holds only its child containers and blank lines.
 */
import { Node } from "@tiptap/core"
import type { Node as PMNode } from "@tiptap/pm/model"
import { findLiquidEnd, parseLiquidTag, renderLiquidLine, type LiquidParam } from "../../syntax/Liquid.ts"
import { isBlank } from "../../codec/lines.ts"
import type { BlockMarkdown, BlockParse, MarkdownContext } from "../../codec/types.ts"
import { attr, count, is, isBlankLines, isParam, maxBlankLines, sourceAttr } from "./attrs.ts"

const containerAttrs = () => ({ ...sourceAttr, params: attr<ReadonlyArray<LiquidParam>>([], is.list(isParam)), tag: attr<string | null>(null, is.nullable(is.string())), endTag: attr<string | null>(null, is.nullable(is.string())), lead: attr(0, isBlankLines) })

/** The published site's class for a container drawn the same way in the editor (render.css then styles it as the site does). */
const SITE_CLASS: Readonly<Record<string, string>> = { stepper: "stepper", step: "step", columns: "columns", column: "column" }

/** A TipTap node for a liquid container; `content` is its ProseMirror content expression. */
export const containerNode = (name: string, content: string, top: boolean, html: string) =>
  Node.create({
    name,
    group: top ? "block" : undefined,
    content,
    defining: true,
    isolating: !top,
    addAttributes: () => ({ ...containerAttrs(), trail: attr(0, isBlankLines) }),
    parseHTML: () => [{ tag: `div[data-type=${html}]` }],
    renderHTML: () => ["div", { "data-type": html, ...(SITE_CLASS[html] ? { class: SITE_CLASS[html] } : {}) }, 0]
  })

/** Parses `{% tag %}…{% endtag %}` at `i` whose inner lines become `inner(lines)`. */
export const parseContainer = (
  ctx: MarkdownContext,
  lines: ReadonlyArray<string>,
  i: number,
  tag: string,
  type: string,
  inner: (lines: ReadonlyArray<string>) => Array<PMNode> | undefined,
  extra: Record<string, unknown> = {}
): BlockParse | undefined => {
  const parsed = lines[i]!.startsWith("{%") ? parseLiquidTag(lines[i]!) : undefined
  if (parsed?.name !== tag) return undefined
  const end = findLiquidEnd(lines, i, tag)
  if (end < 0) return undefined
  const content = inner(lines.slice(i + 1, end))
  if (!content) return undefined
  return { node: ctx.schema.nodes[type]!.create({ params: parsed.params, tag: lines[i], endTag: lines[end], ...extra }, content), end: end + 1 }
}

export const blocksContainer = (tag: string, type: string): BlockMarkdown => ({
  parse: (ctx, lines, i) => parseContainer(ctx, lines, i, tag, type, (inner) => ctx.parseBlocks(inner)),
  serialize: (ctx, node) => serializeContainer(tag, node, ctx.serializeBlocks(node.content))
})

export const serializeContainer = (tag: string, node: PMNode, body: string): string =>
  `${renderLiquidLine(tag, node.attrs.params as ReadonlyArray<LiquidParam>, node.attrs.tag as string | null)}\n${body}${(node.attrs.endTag as string | null) ?? `{% end${tag} %}`}`

/** A group whose inner lines are only `childTag` containers separated by blank lines. */
export const groupContainer = (tag: string, type: string, childTag: string, childType: string): BlockMarkdown => ({
  parse: (ctx, lines, i) => {
    let trail = 0
    const result = parseContainer(ctx, lines, i, tag, type, (inner) => {
      const children: Array<PMNode> = []
      let lead = 0
      let k = 0
      while (k < inner.length) {
        if (isBlank(inner[k]!)) {
          if (inner[k] !== "" || lead === maxBlankLines) return undefined
          lead++
          k++
          continue
        }
        const child = parseContainer(ctx, inner, k, childTag, childType, (body) => ctx.parseBlocks(body), { lead })
        if (!child) return undefined
        children.push(child.node)
        lead = 0
        k = child.end
      }
      trail = lead
      return children.length ? children : undefined
    })
    return result && { node: result.node.type.create({ ...result.node.attrs, trail }, result.node.content), end: result.end }
  },
  serialize: (ctx, node) => {
    let body = ""
    node.forEach((child) => {
      body += "\n".repeat(count(child.attrs.lead, 0, maxBlankLines)) + serializeContainer(childTag, child, ctx.serializeBlocks(child.content)) + "\n"
    })
    return serializeContainer(tag, node, body + "\n".repeat(count(node.attrs.trail, 0, maxBlankLines)))
  }
})
