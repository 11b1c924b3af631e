import { liquidAtomView } from "../shared/liquid-view.ts"

/**
 * A page link card: its URL, and its body, GitBook's link to the same page (`[page.md](page.md)`), which
 * follows the URL when it is a plain link to the old one; a body written otherwise is left as it is.
 */
export const followingBody = (url: string, body: string | null): string | undefined =>
  body === null || body === "" || /^\[[^\]\n]*\]\([^)\s]*\)\n?$/.test(body) ? `[${url}](${url})` : undefined

export const contentRefView = liquidAtomView("Page link", "url", followingBody)
