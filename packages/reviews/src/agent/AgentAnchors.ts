/**
 * A comment's anchor as the agent writes it: the web's format (apps/web/src/features/review/anchors.ts,
 * `qa1:<block>:<fingerprint>:<offset>:<length>:<quote>`), from a page's markdown and a quote the
 * model copied from it. The server has no editor document, so the block is the markdown block
 * (blank-line separated) that holds the quote and the text is the markdown without its inline
 * syntax: the web finds the quote again by its text when the block or offset differ.
 */

const maxNodeLength = 200

/** FNV-1a, base 36: the web's fingerprint of a block's text. */
const fingerprint = (text: string): string => {
  let h = 0x811c9dc5
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i)
    h = Math.imul(h, 0x01000193) >>> 0
  }
  return h.toString(36)
}

/** A markdown block's text as the editor shows it: without heading, list and quote markers, emphasis, code ticks and link targets. */
export const plainOf = (markdown: string): string =>
  markdown
    .replace(/^\s{0,3}(?:#{1,6}\s+|[-*+]\s+|\d+[.)]\s+|>\s?)/gm, "")
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/[*_`~]+/g, "")
    .replace(/\s*\n\s*/g, " ")
    .trim()

/** The anchor of `quote` in the page's markdown, or undefined when its text is not there. */
export const anchorOf = (markdown: string, quote: string): string | undefined => {
  const wanted = plainOf(quote)
  if (wanted === "") return undefined
  const blocks = markdown.replace(/^---\n[\s\S]*?\n---\n/, "").split(/\n\s*\n/).map(plainOf).filter((b) => b !== "")
  const block = blocks.findIndex((b) => b.includes(wanted))
  if (block < 0) return undefined
  const text = blocks[block]!
  const head = `qa1:${block}:${fingerprint(text)}:${text.indexOf(wanted)}:${wanted.length}:`
  let encoded = ""
  for (const ch of wanted) {
    const piece = encodeURIComponent(ch)
    if (head.length + encoded.length + piece.length > maxNodeLength) break
    encoded += piece
  }
  return head + encoded
}
