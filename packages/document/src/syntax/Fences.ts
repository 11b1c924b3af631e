/**
 * Where a page's YAML frontmatter lies: a `---` line first (no indent), then any lines, up to the
 * first line that is `---` or YAML's document end `...` (trailing spaces or tabs allowed on both).
 * TOML's `+++` is no frontmatter. Line endings may be `\n`, `\r\n` or `\r`.
 */

/** Whether `line` (without its line ending, or with a trailing `\r`) opens frontmatter when it is the first. */
export const isFrontmatterOpen = (line: string): boolean => /^---[ \t]*\r?$/.test(line)

/** Whether `line` (without its line ending, or with a trailing `\r`) closes frontmatter. */
export const isFrontmatterClose = (line: string): boolean => /^(?:---|\.\.\.)[ \t]*\r?$/.test(line)

/** Index of the line that closes the frontmatter `lines` open, or -1 when the first line opens none or nothing closes it. */
export const frontmatterCloseLine = (lines: ReadonlyArray<string>): number => {
  if (lines.length === 0 || !isFrontmatterOpen(lines[0]!)) return -1
  for (let j = 1; j < lines.length; j++) if (isFrontmatterClose(lines[j]!)) return j
  return -1
}

/** Offsets of the frontmatter at the start of a text (end exclusive). */
export interface FrontmatterRange {
  /** Where the YAML starts: after the opening fence's line ending. */
  readonly yamlStart: number
  /** Where the YAML ends: the start of the closing fence's line. */
  readonly yamlEnd: number
  /** After the closing fence and its line ending (if it has one). */
  readonly end: number
  /** The closing fence as written: `---` or `...`. */
  readonly close: "---" | "..."
}

/** The line ending at `at` of `text`: its length (0 at the end of the text, -1 when `at` is not at one). */
const eolAt = (text: string, at: number): number => {
  if (at === text.length) return 0
  const c = text[at]
  if (c === "\n") return 1
  if (c === "\r") return text[at + 1] === "\n" ? 2 : 1
  return -1
}

/** Where a line starting at `at` ends (its line ending excluded), and the length of the ending. */
const lineAt = (text: string, at: number): { readonly end: number; readonly eol: number } => {
  let end = at
  while (end < text.length && text[end] !== "\n" && text[end] !== "\r") end++
  return { end, eol: eolAt(text, end) }
}

const fenceLine = (text: string, at: number, end: number, marks: ReadonlyArray<string>): string | undefined => {
  const mark = marks.find((m) => text.startsWith(m, at))
  if (mark === undefined) return undefined
  for (let i = at + 3; i < end; i++) if (text[i] !== " " && text[i] !== "\t") return undefined
  return mark
}

/** The frontmatter at the start of `text`, or undefined. Time linear in the text's length. */
export const findFrontmatter = (text: string): FrontmatterRange | undefined => {
  if (!text.startsWith("---")) return undefined
  const first = lineAt(text, 0)
  if (first.eol <= 0 || fenceLine(text, 0, first.end, ["---"]) === undefined) return undefined
  const yamlStart = first.end + first.eol
  let at = yamlStart
  while (at < text.length) {
    const line = lineAt(text, at)
    const close = fenceLine(text, at, line.end, ["---", "..."])
    if (close !== undefined) return { yamlStart, yamlEnd: at, end: line.end + line.eol, close: close as "---" | "..." }
    if (line.eol === 0) return undefined
    at = line.end + line.eol
  }
  return undefined
}

/**
 * `text` with a `...` that closes its frontmatter written `---` (same length, so offsets hold): what
 * a parser that knows only `---` (remark-frontmatter) needs to read the frontmatter as it is.
 */
export const withDashClose = (text: string): string => {
  const range = findFrontmatter(text)
  return range === undefined || range.close === "---" ? text : `${text.slice(0, range.yamlEnd)}---${text.slice(range.yamlEnd + 3)}`
}
