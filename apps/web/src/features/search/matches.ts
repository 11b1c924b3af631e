/**
 * The words a search matched, found again where the app shows them: in a result's title and
 * excerpt (as marked pieces of text) and in the page a result opens (as ranges to highlight).
 */

/** The words of a query worth finding: two letters or more, at most eight, longest first. */
export const searchWords = (query: string): ReadonlyArray<string> =>
  Array.from(new Set(query.toLowerCase().split(/[^\p{L}\p{N}_]+/u).filter((word) => word.length >= 2)))
    .sort((a, b) => b.length - a.length)
    .slice(0, 8)

const escape = (word: string) => word.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")

/** A pattern that finds any of `words`, case-insensitively, at the start of a word; undefined when there is none. */
export const wordsPattern = (words: ReadonlyArray<string>): RegExp | undefined =>
  words.length === 0 ? undefined : new RegExp(`(?<![\\p{L}\\p{N}_])(?:${words.map(escape).join("|")})`, "giu")

/** `text` cut into pieces, the matched ones marked. */
export const markedPieces = (text: string, words: ReadonlyArray<string>): ReadonlyArray<{ readonly text: string; readonly match: boolean }> => {
  const pattern = wordsPattern(words)
  if (pattern === undefined) return [{ text, match: false }]
  const pieces: Array<{ text: string; match: boolean }> = []
  let at = 0
  for (const found of text.matchAll(pattern)) {
    if (found.index > at) pieces.push({ text: text.slice(at, found.index), match: false })
    pieces.push({ text: found[0], match: true })
    at = found.index + found[0].length
  }
  if (at < text.length) pieces.push({ text: text.slice(at), match: false })
  return pieces
}

/**
 * About `length` characters of `text` around its first match, cut at word boundaries, with an
 * ellipsis where it was cut: the words searched for are in what a result shows, not clipped away.
 */
export const excerptAround = (text: string, words: ReadonlyArray<string>, length = 160): string => {
  const flat = text.replace(/\s+/g, " ").trim()
  if (flat.length <= length) return flat
  const pattern = wordsPattern(words)
  const first = pattern === undefined ? undefined : pattern.exec(flat)?.index
  const start = first === undefined ? 0 : Math.max(0, first - Math.floor(length / 3))
  const from = start === 0 ? 0 : flat.indexOf(" ", start) + 1 || start
  const end = Math.min(flat.length, from + length)
  const to = end === flat.length ? end : flat.lastIndexOf(" ", end) > from ? flat.lastIndexOf(" ", end) : end
  return `${from > 0 ? "…" : ""}${flat.slice(from, to)}${to < flat.length ? "…" : ""}`
}

/** The ranges of `root`'s text that match `words`, in document order. */
export const matchRanges = (root: Node, words: ReadonlyArray<string>): Array<Range> => {
  const pattern = wordsPattern(words)
  if (pattern === undefined) return []
  const ranges: Array<Range> = []
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT)
  for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
    const text = node.nodeValue ?? ""
    for (const found of text.matchAll(pattern)) {
      const range = document.createRange()
      range.setStart(node, found.index)
      range.setEnd(node, found.index + found[0].length)
      ranges.push(range)
    }
  }
  return ranges
}

/** The app path of a search result with the words searched for (`?q=`), before its `#section`. */
export const withSearch = (path: string, query: string): string => {
  const hash = path.indexOf("#")
  const [base, fragment] = hash === -1 ? [path, ""] : [path.slice(0, hash), path.slice(hash)]
  const params = new URLSearchParams(base.includes("?") ? base.slice(base.indexOf("?") + 1) : "")
  params.set("q", query)
  return `${base.includes("?") ? base.slice(0, base.indexOf("?")) : base}?${params.toString()}${fragment}`
}
