/**
 * Text selected in a block of the review's diff, as the words a comment is about: where in the
 * block's text (as anchors count it, anchors.ts) the selected words are. The drawn block may hold
 * words the text does not (a tab's title, a code block's title, a card's cover), so the selection is
 * looked for in the text, at the place nearest where it was selected.
 */

/** The offset in `text` of the occurrence of `words` nearest `near`, or -1 when the text does not hold them. */
export const nearestOccurrence = (text: string, words: string, near: number): number => {
  if (words === "") return -1
  let best = -1
  for (let at = text.indexOf(words); at >= 0; at = text.indexOf(words, at + 1)) {
    if (best < 0 || Math.abs(at - near) < Math.abs(best - near)) best = at
  }
  return best
}

/** The words selected now inside `block` (an element of a drawn block), and how far into its text they start; undefined for none or a selection leaving it. */
export const selectedIn = (block: Element): { readonly words: string; readonly near: number } | undefined => {
  const selection = window.getSelection()
  if (selection === null || selection.isCollapsed || selection.rangeCount === 0) return undefined
  const range = selection.getRangeAt(0)
  if (!block.contains(range.startContainer) || !block.contains(range.endContainer)) return undefined
  const raw = range.toString()
  const words = raw.trim()
  if (words === "") return undefined
  const before = document.createRange()
  before.selectNodeContents(block)
  before.setEnd(range.startContainer, range.startOffset)
  return { words, near: before.toString().length + (raw.length - raw.trimStart().length) }
}
