/** Shared scanning for GitBook's `{% tag %}…{% endtag %}` blocks: finds the matching end tag, skipping fenced code. */
import { parseLiquidTag } from "../../codec/liquid.ts"

const FENCE = /^ {0,3}(`{3,}|~{3,})/

/** Index of the `{% end<name> %}` line matching the opening at `i`, or -1. `stopAt` ends the search at a sibling opening. */
export const findLiquidEnd = (lines: ReadonlyArray<string>, i: number, name: string, stopAtSibling = false): number => {
  let depth = 0
  let fence: string | null = null
  for (let j = i + 1; j < lines.length; j++) {
    const line = lines[j]!
    const f = FENCE.exec(line)
    if (fence !== null) {
      if (f && f[1]![0] === fence[0] && f[1]!.length >= fence.length && /^ {0,3}[`~]+[ \t]*$/.test(line)) fence = null
      continue
    }
    if (f && !(f[1]![0] === "`" && line.slice(line.indexOf(f[1]!) + f[1]!.length).includes("`"))) {
      fence = f[1]!
      continue
    }
    const trimmed = line.trim()
    if (!trimmed.startsWith("{%")) continue
    const tag = parseLiquidTag(trimmed)
    if (!tag) continue
    if (tag.name === name) {
      if (stopAtSibling) return -1
      depth++
    } else if (tag.name === `end${name}`) {
      if (depth === 0) return j
      depth--
    }
  }
  return -1
}
