import { isBlank } from "../../codec/lines.ts"
import type { BlockMarkdown } from "../../codec/types.ts"
import { count, maxBlankLines } from "../shared/attrs.ts"

const OPEN = /^<details(?:\s+open(?:=(?:""|"open"))?)?\s*>$/
const CLOSE = /^<\/details>\s*$/
const SUMMARY = /^<summary>(.*)<\/summary>$/

export const expandable: BlockMarkdown = {
  parse: (ctx, lines, i) => {
    if (!OPEN.test(lines[i]!)) return undefined
    let k = i + 1
    while (k < lines.length && lines[k] === "") k++
    if (k - i - 1 > maxBlankLines) return undefined
    const summary = k < lines.length ? SUMMARY.exec(lines[k]!) : null
    if (!summary) return undefined
    let depth = 0
    let fence = false
    let end = -1
    for (let j = k + 1; j < lines.length; j++) {
      const line = lines[j]!
      if (/^ {0,3}(```|~~~)/.test(line)) fence = !fence
      if (fence) continue
      if (/^<details[\s>]/.test(line)) depth++
      else if (CLOSE.test(line)) {
        if (depth === 0) {
          end = j
          break
        }
        depth--
      }
    }
    if (end < 0) return undefined
    const inner = lines.slice(k + 1, end)
    if (inner.every(isBlank) && inner.some((l) => l !== "")) return undefined
    const node = ctx.schema.nodes.expandable!.create(
      { openTag: lines[i], lead: k - i - 1, summary: summary[1], endTag: lines[end] },
      ctx.parseBlocks(inner)
    )
    return { node, end: end + 1 }
  },
  serialize: (ctx, node) => {
    const a = node.attrs
    const first = node.firstChild
    const body = ctx.serializeBlocks(node.content)
    const gap = first && first.attrs.source == null ? "\n" : ""
    // GitBook sets `</details>` off by a blank line; a block the editor wrote last gets one (kept slices keep theirs).
    const last = node.lastChild
    const endGap = last && last.attrs.source == null && !/\n[ \t]*\n$/.test(body) ? "\n" : ""
    return `${a.openTag as string}\n${"\n".repeat(count(a.lead, 0, maxBlankLines))}<summary>${a.summary as string}</summary>\n${gap}${body}${endGap}${a.endTag as string}`
  }
}
