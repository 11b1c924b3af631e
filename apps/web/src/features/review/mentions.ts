/**
 * `@mentions` in comment markdown, pure: the fixed syntax `@[Display Name](user:<userId>)` (the
 * server turns it into a notification), the `@query` being typed at the cursor, writing a chosen
 * member in its place, and a body split into text and mentions for display.
 */

export interface Mentionable {
  readonly id: string
  readonly displayName: string
  readonly email?: string | undefined
}

/** The `@word` the cursor is in: where its `@` is and what follows it (no spaces; after a space, a line start or an opening bracket). */
export const mentionQueryAt = (text: string, cursor: number): { readonly start: number; readonly query: string } | undefined => {
  const before = text.slice(0, cursor)
  const match = /(?:^|[\s([{])@([^\s@[\]()]{0,40})$/.exec(before)
  if (match === null) return undefined
  return { start: cursor - match[1]!.length - 1, query: match[1]! }
}

/** A display name as the syntax can hold it: brackets would end the name early, line breaks the mention. */
const nameInSyntax = (name: string) => name.replace(/[[\]\r\n]+/g, " ").replace(/\s+/g, " ").trim() || "someone"

export const mentionMarkdown = (member: Mentionable): string => `@[${nameInSyntax(member.displayName)}](user:${member.id})`

/** The text with `@query` (from `start` to `cursor`) replaced by the member's mention and a space; where the cursor goes after it. */
export const insertMention = (text: string, start: number, cursor: number, member: Mentionable): { readonly text: string; readonly cursor: number } => {
  const written = `${mentionMarkdown(member)} `
  const rest = text.slice(cursor).replace(/^ /, "")
  return { text: `${text.slice(0, start)}${written}${rest}`, cursor: start + written.length }
}

/** Members whose name or email holds the query (case-insensitive), names starting with it first. */
export const matchMembers = <M extends Mentionable>(members: ReadonlyArray<M>, query: string, limit = 8): Array<M> => {
  const needle = query.toLowerCase()
  const scored = members.flatMap((m) => {
    const name = m.displayName.toLowerCase()
    const email = (m.email ?? "").toLowerCase()
    if (needle === "") return [{ m, score: 0 }]
    if (name.startsWith(needle) || name.split(/\s+/).some((w) => w.startsWith(needle))) return [{ m, score: 0 }]
    if (name.includes(needle) || email.startsWith(needle)) return [{ m, score: 1 }]
    return []
  })
  return scored.toSorted((a, b) => a.score - b.score || a.m.displayName.localeCompare(b.m.displayName)).slice(0, limit).map((s) => s.m)
}

export type BodyPart = { readonly kind: "text"; readonly text: string } | { readonly kind: "mention"; readonly name: string; readonly userId: string }

const mentionPattern = /@\[([^\]\r\n]+)\]\(user:([^)\s]+)\)/g

/** A body's markdown as text and mentions, in order. */
export const splitMentions = (markdown: string): Array<BodyPart> => {
  const parts: Array<BodyPart> = []
  let last = 0
  for (const match of markdown.matchAll(mentionPattern)) {
    if (match.index > last) parts.push({ kind: "text", text: markdown.slice(last, match.index) })
    parts.push({ kind: "mention", name: match[1]!, userId: match[2]! })
    last = match.index + match[0].length
  }
  if (last < markdown.length) parts.push({ kind: "text", text: markdown.slice(last) })
  return parts
}
