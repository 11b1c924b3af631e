/** The server's tag reading before it moved here (sites' GitbookTags.ts): the oracle of the differential test. */
const tagPattern = /\{%-?\s*(end)?([a-zA-Z@][\w@/.:-]*)((?:[^%]|%(?!\}))*?)-?%\}/g
const attributePattern = /([a-zA-Z][\w-]*)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"']+))/g

export interface ServerTag {
  readonly name: string
  readonly closing: boolean
  readonly attributes: Record<string, string>
  readonly start: number
  readonly end: number
}

export const serverTags = (text: string): Array<ServerTag> =>
  Array.from(text.matchAll(tagPattern), (m) => {
    const attributes: Record<string, string> = {}
    for (const a of (m[3] ?? "").matchAll(attributePattern)) attributes[a[1]!] = a[2] ?? a[3] ?? a[4] ?? ""
    return { name: m[2]!.toLowerCase(), closing: m[1] !== undefined, attributes, start: m.index, end: m.index + m[0].length }
  })
