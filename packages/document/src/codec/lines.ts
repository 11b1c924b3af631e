/** Line handling shared by the block parsers: the source split into lines that keep their line endings. */

/** Splits text into lines, each keeping its own line ending ("\n", "\r\n", a lone "\r" as CommonMark reads it, or none on the last line). */
export const splitLinesKeepEol = (text: string): Array<string> => {
  const lines: Array<string> = []
  let start = 0
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c === 10 || (c === 13 && text.charCodeAt(i + 1) !== 10)) {
      lines.push(text.slice(start, i + 1))
      start = i + 1
    }
  }
  if (start < text.length) lines.push(text.slice(start))
  return lines
}

/** A raw line without its line ending. */
export const stripEol = (line: string): string =>
  line.endsWith("\r\n") ? line.slice(0, -2) : line.endsWith("\n") || line.endsWith("\r") ? line.slice(0, -1) : line

export const isBlank = (line: string): boolean => /^[ \t]*$/.test(line)

/** Columns of leading whitespace (tabs to the next multiple of 4). */
export const indentOf = (line: string): number => {
  let col = 0
  for (const ch of line) {
    if (ch === " ") col++
    else if (ch === "\t") col += 4 - (col % 4)
    else break
  }
  return col
}

/** Removes `n` columns of leading whitespace (expanding tabs), or all of it when there is less. */
export const stripIndent = (line: string, n: number): string => {
  let col = 0
  let i = 0
  while (i < line.length && col < n) {
    const ch = line[i]
    if (ch === " ") col++
    else if (ch === "\t") {
      const next = col + 4 - (col % 4)
      if (next > n) return " ".repeat(next - n) + line.slice(i + 1)
      col = next
    } else break
    i++
  }
  return line.slice(i)
}

/** Leading blank lines, body and trailing line ending plus blank lines of a block's source slice. */
export const splitSlice = (source: string): { lead: string; body: string; trail: string } => {
  const leadMatch = /^(?:[ \t]*(?:\r\n|\r|\n))*/.exec(source)
  const lead = leadMatch ? leadMatch[0] : ""
  const rest = source.slice(lead.length)
  const trailMatch = /(?:(?:\r\n|\r|\n)[ \t]*)*$/.exec(rest)
  const trail = trailMatch ? trailMatch[0] : ""
  return { lead, body: rest.slice(0, rest.length - trail.length), trail }
}

export const dominantEol = (text: string): "\n" | "\r\n" => {
  const crlf = text.split("\r\n").length - 1
  const lf = text.split("\n").length - 1 - crlf
  return crlf > lf ? "\r\n" : "\n"
}
