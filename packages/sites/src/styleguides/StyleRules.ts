/**
 * A style guide's rules, read from its markdown: each `##` heading opens a rule (its title, its
 * text). Lines in a few plain forms make a rule checkable without a model:
 * - `Avoid: "simply", "just".` (words or phrases to leave out);
 * - `Use "sign in", not "log in", "login".` (also "instead of", "rather than");
 * - `Sentences: at most 25 words.` (or any line saying "at most N words");
 * - a line that says to avoid the "passive voice".
 * Everything else a rule says is for a model to check. Pure: no I/O.
 */

export type RuleCheck =
  | { readonly kind: "avoid"; readonly phrases: ReadonlyArray<string> }
  | { readonly kind: "prefer"; readonly use: string; readonly not: ReadonlyArray<string> }
  | { readonly kind: "sentence-length"; readonly max: number }
  | { readonly kind: "passive-voice" }

export interface StyleRule {
  /** The title's slug, unique in the guide. */
  readonly id: string
  readonly title: string
  /** The rule's text as written (markdown). */
  readonly text: string
  /** What is checked without a model; empty: the rule is prose, for a model. */
  readonly checks: ReadonlyArray<RuleCheck>
}

const quoted = /["“”]([^"“”]+)["“”]/g
const quotesIn = (line: string): Array<string> => Array.from(line.matchAll(quoted), (m) => m[1]!.trim()).filter((s) => s !== "")

const slug = (title: string) =>
  title.toLowerCase().normalize("NFKD").replace(/[\u0300-\u036f]/g, "").replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "") || "rule"

/** The checks one line of a rule states, if any. */
export const checksOfLine = (raw: string): ReadonlyArray<RuleCheck> => {
  const line = raw.replace(/^\s*(?:[-*+]|\d+\.)\s+/, "").trim()
  const checks: Array<RuleCheck> = []
  const prefer = /^(?:use|write|prefer|say)\s+["“]([^"“”]+)["”]\s*,?\s*(?:not|instead of|rather than|over|to)\s+(.+)$/i.exec(line)
  if (prefer) {
    const not = quotesIn(prefer[2]!)
    if (not.length > 0) checks.push({ kind: "prefer", use: prefer[1]!.trim(), not })
  } else if (/^avoid\b/i.test(line) && !/passive/i.test(line)) {
    const phrases = quotesIn(line)
    if (phrases.length > 0) checks.push({ kind: "avoid", phrases })
  }
  const length = /\bat most (\d{1,3}) words\b/i.exec(line)
  if (length) checks.push({ kind: "sentence-length", max: Number(length[1]) })
  if (/\bavoid\b.*\bpassive voice\b/i.test(line) || /^passive voice\s*:\s*(?:avoid|no|flag)/i.test(line)) checks.push({ kind: "passive-voice" })
  return checks
}

/** The rules of a style guide's markdown (every page's, concatenated), in order; the text before the first `##` is no rule. */
export const parseRules = (markdown: string): ReadonlyArray<StyleRule> => {
  const rules: Array<StyleRule> = []
  const taken = new Set<string>()
  let current: { title: string; lines: Array<string> } | undefined
  let fenced = false
  const close = () => {
    if (current === undefined) return
    const base = slug(current.title)
    let id = base
    for (let n = 2; taken.has(id); n++) id = `${base}-${n}`
    taken.add(id)
    rules.push({ id, title: current.title, text: current.lines.join("\n").trim(), checks: current.lines.flatMap(checksOfLine) })
  }
  for (const line of markdown.split(/\r?\n/)) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced
    const heading = fenced ? null : /^##\s+(.+?)\s*#*\s*$/.exec(line)
    if (heading) {
      close()
      current = { title: heading[1]!.trim(), lines: [] }
    } else if (current !== undefined) {
      current.lines.push(line)
    }
  }
  close()
  return rules
}

/** Whether a rule says more than its checks, so a model has something to check in it. */
export const needsModel = (rule: StyleRule): boolean =>
  rule.text.split(/\r?\n/).some((line) => line.trim() !== "" && checksOfLine(line).length === 0)
