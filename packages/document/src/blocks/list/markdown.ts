import type { Node as PMNode } from "@tiptap/pm/model"
import { indentOf, isBlank, stripIndent } from "../../codec/lines.ts"
import type { BlockMarkdown, MarkdownContext } from "../../codec/types.ts"
import { RULE } from "../rule/markdown.ts"
import { count } from "../shared/attrs.ts"

export const LIST_ITEM = /^( {0,3})([-*+]|(\d{1,9})([.)]))([ \t]+|$)(.*)$/

interface Item {
  readonly lines: Array<string>
  readonly number: number
  readonly pad: number
  readonly indent: number
}

/** A list at `i`: items with the same bullet (or ordered delimiter), their content parsed as blocks. */
const parseList = (ctx: MarkdownContext, lines: ReadonlyArray<string>, i: number): { node: PMNode; end: number } | undefined => {
  const first = LIST_ITEM.exec(lines[i]!)
  if (!first) return undefined
  const kind = first[4] ?? first[2]!
  const items: Array<Item> = []
  let j = i
  let loose = false
  let spacing = 1
  while (j < lines.length) {
    const m = LIST_ITEM.exec(lines[j]!)
    if (!m || (m[4] ?? m[2]) !== kind) break
    if (items.length > 0 && isBlank(lines[j - 1]!)) loose = true
    const space = m[5]!
    const spaces = space.includes("\t") ? 1 : space.length
    const pad = m[6] === "" ? 1 : spaces > 4 ? 1 : spaces
    if (items.length === 0) spacing = pad
    const contentCol = m[1]!.length + m[2]!.length + pad
    const firstLine = m[6] === "" ? "" : stripIndent(lines[j]!.slice(m[1]!.length + m[2]!.length), pad)
    const itemLines = [firstLine]
    j++
    while (j < lines.length) {
      const line = lines[j]!
      if (isBlank(line)) {
        itemLines.push("")
        j++
        continue
      }
      if (indentOf(line) >= contentCol) {
        itemLines.push(stripIndent(line, contentCol))
        j++
        continue
      }
      const prev = itemLines[itemLines.length - 1]!
      if (prev !== "" && !LIST_ITEM.test(line) && !ctx.interrupts(lines, j) && lazyOk(itemLines)) {
        itemLines.push(line.replace(/^[ \t]+/, ""))
        j++
        continue
      }
      break
    }
    while (itemLines.length > 1 && itemLines[itemLines.length - 1] === "") {
      itemLines.pop()
      j--
    }
    items.push({ lines: itemLines, number: m[3] === undefined ? 0 : Number(m[3]), pad, indent: m[1]!.length })
    let k = j
    while (k < lines.length && isBlank(lines[k]!)) k++
    const next = k < lines.length ? LIST_ITEM.exec(lines[k]!) : null
    if (!next || (next[4] ?? next[2]) !== kind) break
    j = k
  }
  const ordered = first[3] !== undefined
  const task = !ordered && items.every((it) => /^\[[ xX]\](?:[ \t]|$)/.test(it.lines[0]!))
  const schema = ctx.schema
  const children = items.map((it) => {
    const itemSpacing = it.pad === spacing ? null : it.pad
    const itemIndent = it.indent === first[1]!.length ? null : it.indent
    if (!task) return schema.nodes.listItem!.create({ spacing: itemSpacing, indent: itemIndent }, ctx.parseBlocks(it.lines))
    const check = it.lines[0]![1]!
    const rest = [it.lines[0]!.slice(3).replace(/^[ \t]/, ""), ...it.lines.slice(1)]
    return schema.nodes.taskItem!.create({ checked: check !== " ", checkChar: check === " " ? "x" : check, spacing: itemSpacing, indent: itemIndent }, ctx.parseBlocks(rest))
  })
  const common = { spacing, tight: !loose, indent: first[1]!.length }
  const node = ordered
    ? schema.nodes.orderedList!.create(
        { ...common, start: items[0]!.number, delimiter: kind, numbering: items.length > 1 && items.every((it) => it.number === items[0]!.number) ? "same" : "increment" },
        children
      )
    : schema.nodes[task ? "taskList" : "bulletList"]!.create({ ...common, marker: kind }, children)
  return { node, end: j }
}

/** A lazy continuation line only continues a paragraph, not a fence left open. */
const lazyOk = (itemLines: ReadonlyArray<string>): boolean => {
  let fence = false
  for (const l of itemLines) if (/^ {0,3}(```|~~~)/.test(l)) fence = !fence
  return !fence
}

const serializeList = (ctx: MarkdownContext, node: PMNode): string => {
  const a = node.attrs
  const out: Array<string> = []
  node.forEach((item, _offset, index) => {
    let marker: string
    if (node.type.name === "orderedList") {
      const n = (a.start as number) + (a.numbering === "same" ? 0 : index)
      marker = `${n}${a.delimiter as string}`
    } else marker = a.marker as string
    let body = ctx.serializeBlocks(item.content).replace(/\n$/, "")
    if (item.type.name === "taskItem") body = `[${item.attrs.checked ? (item.attrs.checkChar as string) : " "}]${body === "" ? "" : " "}${body}`
    const spacing = count(item.attrs.spacing ?? a.spacing, 1, 4)
    const pad = " ".repeat(spacing)
    const indent = " ".repeat(marker.length + spacing)
    const lead = " ".repeat(count(item.attrs.indent ?? a.indent, 0, 3))
    // Content starting with whitespace goes on the next line, or the spaces would read as the marker's spacing.
    const split = /^[ \t]/.test(body) || RULE.test(`${marker} ${body.split("\n")[0]!}`)
    const lines = body.split("\n").map((l, k) => (k === 0 && !split ? (l === "" ? marker : marker + pad + l) : l === "" ? "" : lead + (split ? " ".repeat(marker.length + 1) : indent) + l))
    out.push((split ? `${lead}${marker}\n` : lead) + lines.join("\n"))
  })
  return out.join(a.tight ? "\n" : "\n\n")
}

export const list: BlockMarkdown = { parse: parseList, serialize: serializeList }
