/**
 * An Ask answer's markdown as the palette draws it: paragraphs of text, bold, code, links and the
 * `[n]` citations of its sources. Nothing else of markdown is read, and nothing of it becomes HTML:
 * the pieces are drawn as React text, a link only when it leads to this app or to http(s).
 */
export type Piece =
  | { readonly kind: "text"; readonly text: string }
  | { readonly kind: "strong"; readonly text: string }
  | { readonly kind: "code"; readonly text: string }
  | { readonly kind: "cite"; readonly n: number }
  | { readonly kind: "link"; readonly text: string; readonly href: string }

const inline = /\*\*([^*\n]+)\*\*|`([^`\n]+)`|\[(\d{1,2}(?:\s*,\s*\d{1,2})*)\]|\[([^\]\n]+)\]\(([^)\s]+)\)/g

/** Whether `href` may be followed: a path of this app, or an http(s) address. */
const safeHref = (href: string) => href.startsWith("/") && !href.startsWith("//") || /^https?:\/\//i.test(href)

/** One line or paragraph of text as its pieces. */
export const piecesOf = (text: string): ReadonlyArray<Piece> => {
  const pieces: Array<Piece> = []
  let at = 0
  for (const match of text.matchAll(inline)) {
    if (match.index > at) pieces.push({ kind: "text", text: text.slice(at, match.index) })
    const [whole, strong, code, cites, label, href] = match
    if (strong !== undefined) pieces.push({ kind: "strong", text: strong })
    else if (code !== undefined) pieces.push({ kind: "code", text: code })
    else if (cites !== undefined) for (const n of cites.split(",")) pieces.push({ kind: "cite", n: Number(n.trim()) })
    else if (label !== undefined && href !== undefined && safeHref(href)) pieces.push({ kind: "link", text: label, href })
    else pieces.push({ kind: "text", text: whole })
    at = match.index + whole.length
  }
  if (at < text.length) pieces.push({ kind: "text", text: text.slice(at) })
  return pieces
}

/** The answer's paragraphs (split at blank lines), each as its pieces. */
export const paragraphsOf = (markdown: string): ReadonlyArray<ReadonlyArray<Piece>> =>
  markdown.split(/\n{2,}/).map((block) => block.trim()).filter((block) => block !== "").map(piecesOf)
