/**
 * GitHub's alerts (`> [!NOTE]` blockquotes) as GitBook's hints (`{% hint style="info" %}`), so
 * that markdown written for GitHub reads as GitBook's blocks. Pure text to text; fenced code is
 * left as written.
 */

/** GitHub's alert kinds and the hint style each becomes (GitBook has no "important" style). */
export const hintStyles = {
  NOTE: "info",
  TIP: "success",
  IMPORTANT: "info",
  WARNING: "warning",
  CAUTION: "danger"
} as const

export type AlertKind = keyof typeof hintStyles

/** `> [!KIND]` alone on its line (any case, up to 3 spaces before `>`). */
const marker = /^ {0,3}>[ \t]?\[!(note|tip|important|warning|caution)\][ \t]*\r?$/i
/** A line of the blockquote: `>` (up to 3 spaces before), then its content after one optional space. */
const quoted = /^ {0,3}>[ \t]?([^\n]*)$/
/** An opening or closing code fence. */
const fence = /^ {0,3}(`{3,}|~{3,})/

/**
 * Replaces each top-level GitHub alert of `markdown` with a GitBook hint of its style holding the
 * alert's content (its lines without their `> `). Everything else is kept byte for byte.
 */
export const alertsToHints = (markdown: string): string => {
  if (!markdown.includes("[!")) return markdown
  const lines = markdown.split("\n")
  const out: Array<string> = []
  let open: string | undefined
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!
    const fenced = fence.exec(line)
    if (open !== undefined) {
      // Inside fenced code: only a fence of the same character, at least as long, closes it.
      if (fenced !== null && fenced[1]![0] === open[0] && fenced[1]!.length >= open.length && line.trim() === fenced[1]) open = undefined
      out.push(line)
      continue
    }
    if (fenced !== null) {
      open = fenced[1]!
      out.push(line)
      continue
    }
    // The marker opens an alert only as a blockquote's first line.
    const alert = i > 0 && quoted.test(lines[i - 1]!) ? null : marker.exec(line)
    if (alert === null) {
      out.push(line)
      continue
    }
    const style = hintStyles[alert[1]!.toUpperCase() as AlertKind]
    const body: Array<string> = []
    while (i + 1 < lines.length) {
      const next = quoted.exec(lines[i + 1]!)
      if (next === null) break
      body.push(next[1]!)
      i++
    }
    // A carriage return of the marker's line ends every line the hint adds.
    const eol = line.endsWith("\r") ? "\r" : ""
    out.push(`{% hint style="${style}" %}${eol}`, ...body, `{% endhint %}${eol}`)
  }
  return out.join("\n")
}
