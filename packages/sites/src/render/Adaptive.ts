/**
 * Adaptive content for one reader: a page's markdown with each `{% if %}` block resolved by the
 * reader's claims (the branch that holds kept without its tags, the others left out), as every
 * view of a page computes it: its HTML, its `.md`, llms-full.txt, and the text search and Ask read
 * (docs/sites.md, "Adaptive content"). A condition that does not parse holds for nobody, as a
 * section's does.
 */
import * as Audience from "../Audience.ts"
import { conditionOf } from "./Blocks.ts"
import { codeTracker, tagsOfLine } from "./GitbookTags.ts"

/** A page's markdown as one reader is shown it, and the conditions that chose it (they tell its audiences apart). */
export interface Adapted {
  readonly markdown: string
  readonly conditions: ReadonlyArray<string>
  /** Whether something of the page was left out for this reader. */
  readonly hid: boolean
}

const branches: ReadonlySet<string> = new Set(["else", "elseif", "elsif", "elif"])

interface Frame {
  /** Whether the branch being read is shown (its enclosing blocks aside). */
  showing: boolean
  /** Whether a branch of this block was shown already: the next `else` is not. */
  taken: boolean
}

/** `markdown` as a reader with `claims` is shown it. */
export const adaptMarkdown = (markdown: string, claims: Readonly<Record<string, unknown>>): Adapted => {
  if (!markdown.includes("{%")) return { markdown, conditions: [], hid: false }
  const stack: Array<Frame> = []
  const conditions: Array<string> = []
  const shown = () => stack.every((frame) => frame.showing)
  let hid = false
  const holds = (source: string) => {
    const condition = conditionOf(source)
    conditions.push(condition)
    return Audience.visible(condition, claims)
  }
  const inCode = codeTracker()
  const out: Array<string> = []
  for (const line of markdown.split("\n")) {
    const code = inCode(line)
    const tags = code ? [] : tagsOfLine(line).filter(({ tag }) => tag.name === "if" || branches.has(tag.name))
    if (tags.length === 0) {
      if (shown()) out.push(line)
      else hid = true
      continue
    }
    let kept = ""
    let at = 0
    for (const { start, end, tag } of tags) {
      if (shown()) kept += line.slice(at, start)
      else if (line.slice(at, start).trim() !== "") hid = true
      at = end
      const top = stack.at(-1)
      if (tag.name === "if" && !tag.closing) {
        const holdsHere = holds(tag.source)
        stack.push({ showing: holdsHere, taken: holdsHere })
      } else if (tag.name === "if") {
        stack.pop()
      } else if (top !== undefined && tag.name === "else") {
        top.showing = !top.taken
        top.taken = true
      } else if (top !== undefined) {
        const holdsHere = !top.taken && holds(tag.source)
        top.showing = holdsHere
        top.taken ||= holdsHere
      }
    }
    if (shown()) kept += line.slice(at)
    else if (line.slice(at).trim() !== "") hid = true
    // A line that held only the tags goes with them.
    if (kept.trim() !== "") out.push(kept)
  }
  return { markdown: out.join("\n"), conditions, hid }
}
