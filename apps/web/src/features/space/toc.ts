/** The table of contents of a rendered page: its h2 and h3 headings that carry an id, in order. */
export interface TocEntry {
  readonly id: string
  readonly text: string
  readonly level: 2 | 3
}

const entities: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: "\"", "#39": "'", apos: "'", nbsp: " " }

/** The text of an HTML fragment: tags dropped, the common entities decoded, whitespace collapsed. */
export const textOf = (html: string): string =>
  html.replace(/<[^>]*>/g, "")
    .replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (whole, name: string) => {
      const lower = name.toLowerCase()
      if (lower.startsWith("#x")) return String.fromCodePoint(Number.parseInt(lower.slice(2), 16))
      if (lower.startsWith("#") && lower !== "#39") return String.fromCodePoint(Number.parseInt(lower.slice(1), 10))
      return entities[lower] ?? whole
    })
    .replace(/\s+/g, " ")
    .trim()

/** The page's h2/h3 headings with an `id` attribute, as the server renders them (`format=html`). */
export const extractToc = (html: string): ReadonlyArray<TocEntry> => {
  const entries: Array<TocEntry> = []
  for (const match of html.matchAll(/<h([23])\b([^>]*)>([\s\S]*?)<\/h\1>/gi)) {
    const id = /\bid\s*=\s*(?:"([^"]*)"|'([^']*)')/i.exec(match[2] ?? "")
    const value = id?.[1] ?? id?.[2]
    if (value === undefined || value === "") continue
    // The renderer's heading anchor (a link reading "#") is not part of the title.
    const text = textOf((match[3] ?? "").replace(/<a\b[^>]*>\s*#\s*<\/a>/gi, ""))
    if (text === "") continue
    entries.push({ id: value, text, level: match[1] === "2" ? 2 : 3 })
  }
  return entries
}
