/**
 * GitBook's `{% name … %}` … `{% endname %}` containers. A plain container (hint, tab, step, column) holds blocks;
 * a group (tabs, stepper, columns) holds only its child containers and blank lines.
 */
import { Node } from "@tiptap/core"
import type { Node as PMNode } from "@tiptap/pm/model"
import { findLiquidEnd, parseLiquidTag, renderLiquidLine, type LiquidParam } from "../../syntax/Liquid.ts"
import { indentOf, isBlank, stripIndent } from "../../codec/lines.ts"
import { tagsIn } from "../../syntax/Tags.ts"
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

/** The opening `{% tag … %}` of a block on line `i`, alone on its line; `indented` allows any indentation before it (a group's children), else up to three spaces. */
export const openingTag = (lines: ReadonlyArray<string>, i: number, tag: string, indented = false): { readonly params: ReadonlyArray<LiquidParam> } | undefined => {
  const line = lines[i]!
  if (!indented && indentOf(line) > 3) return undefined
  const trimmed = line.trim()
  if (!trimmed.startsWith("{%")) return undefined
  const parsed = parseLiquidTag(trimmed)
  return parsed?.name === tag ? parsed : undefined
}

/**
 * A block written on one line, `{% hint style="info" %} Words {% endhint %}`, as GitBook reads it:
 * its opening tag, what lies between (trimmed), its closing tag.
 */
export const oneLineTag = (line: string, tag: string): { readonly params: ReadonlyArray<LiquidParam>; readonly open: string; readonly inner: string; readonly close: string } | undefined => {
  if (indentOf(line) > 3) return undefined
  const trimmed = line.trim()
  if (!trimmed.startsWith(`{%`) || !trimmed.endsWith("%}")) return undefined
  const tags = tagsIn(trimmed)
  const first = tags[0]
  const last = tags.at(-1)
  if (first === undefined || last === undefined || tags.length < 2 || first.start !== 0 || last.end !== trimmed.length) return undefined
  const parsed = parseLiquidTag(first.source)
  if (parsed?.name !== tag || last.closes !== tag || tags.slice(1, -1).some((t) => t.name === tag || t.closes === tag)) return undefined
  return { params: parsed.params, open: first.source, inner: trimmed.slice(first.end, last.start).trim(), close: last.source }
}

/**
 * A block's inner lines as its blocks read them: content indented under its tag (`{% tab %}` then lines
 * indented further) brought back to the tag's indentation, so that it does not turn into indented code.
 */
const dedented = (lines: ReadonlyArray<string>, own: number): ReadonlyArray<string> => {
  let least = Infinity
  for (const line of lines) if (!isBlank(line)) least = Math.min(least, indentOf(line))
  return least === Infinity || least <= own ? lines : lines.map((line) => stripIndent(line, least - own))
}

/** Parses `{% tag %}…{% endtag %}` at `i` (or the block on one line) whose inner lines become `inner(lines)`. */
export const parseContainer = (
  ctx: MarkdownContext,
  lines: ReadonlyArray<string>,
  i: number,
  tag: string,
  type: string,
  inner: (lines: ReadonlyArray<string>) => Array<PMNode> | undefined,
  extra: Record<string, unknown> = {},
  indented = false
): BlockParse | undefined => {
  const parsed = openingTag(lines, i, tag, indented)
  if (parsed === undefined) {
    const one = oneLineTag(lines[i]!, tag)
    const content = one && inner(one.inner === "" ? [] : [one.inner])
    if (!one || !content) return undefined
    return { node: ctx.schema.nodes[type]!.create({ params: one.params, tag: one.open, endTag: one.close, ...extra }, content), end: i + 1 }
  }
  const end = findLiquidEnd(lines, i, tag)
  if (end < 0) return undefined
  const content = inner(dedented(lines.slice(i + 1, end), indentOf(lines[i]!)))
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
        const child = parseContainer(ctx, inner, k, childTag, childType, (body) => ctx.parseBlocks(body), { lead }, true)
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
