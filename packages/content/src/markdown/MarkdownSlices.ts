/**
 * The markdown a page's blocks were read from, kept in its GitBook document so that the document
 * alone writes the page back byte for byte: how it wrote its lists, emphasis, fences, tables, tags,
 * escapes and blank lines, none of which GitBook's block model holds. GitBook's `JSONDocument.data`
 * takes any field (`additionalProperties: true` in its spec) and its renderer reads only
 * `schemaVersion` there, so the slices ride in `data.markdownSlices`: one per run of top-level
 * blocks read from one markdown block, with a digest of what those blocks hold. Writing a document,
 * a run whose blocks still have that digest is written as its slice; an edited, added or moved-in
 * block is written in GitBook's own style.
 */
import type { JsonBlock, MarkdownSlice } from "./GitbookModel.ts"

export type { MarkdownSlice } from "./GitbookModel.ts"

/** A block as it stands for its digest: without GitBook's keys and computed ids, and heading `data.id` its custom anchor only. */
const sameness = (block: JsonBlock): string =>
  JSON.stringify(block, (key, value) => (key === "key" || key === "meta" || key === "explicitId" ? undefined : value))

/** A 53-bit hash of `text` in base 36 (cyrb53): cheap, browser-safe, and collisions beyond reach for a page's blocks. */
const hash = (text: string): string => {
  let h1 = 0xdeadbeef
  let h2 = 0x41c6ce57
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    h1 = Math.imul(h1 ^ c, 2654435761)
    h2 = Math.imul(h2 ^ c, 1597334677)
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909)
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909)
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(36)
}

/** Each block's own digest. */
export const blockDigests = (blocks: ReadonlyArray<JsonBlock>): Array<string> => blocks.map((block) => hash(sameness(block)))

/** The digest of a run of blocks from their own digests. */
export const runDigest = (digests: ReadonlyArray<string>): string => (digests.length === 1 ? digests[0]! : hash(digests.join(",")))

/** The slices of a document's `data`, when they are well formed (a client may send anything there). */
export const slicesOf = (data: unknown): ReadonlyArray<MarkdownSlice> => {
  const slices = (data as { readonly markdownSlices?: unknown } | undefined)?.markdownSlices
  if (!Array.isArray(slices)) return []
  return slices.filter((s): s is MarkdownSlice =>
    typeof s === "object" && s !== null && typeof s.text === "string" && typeof s.digest === "string" && Number.isInteger(s.blocks) && s.blocks > 0
  )
}

/**
 * Where a document's blocks match its slices: for block `i`, the slice (and its place among the
 * slices) of the run that starts there, if one of the slices was read as exactly those blocks.
 */
export const matchSlices = (blocks: ReadonlyArray<JsonBlock>, slices: ReadonlyArray<MarkdownSlice>) => {
  const byRun = new Map<string, Array<number>>()
  const lengths = new Set<number>()
  slices.forEach((slice, index) => {
    const key = `${slice.blocks}:${slice.digest}`
    const found = byRun.get(key)
    if (found === undefined) byRun.set(key, [index])
    else found.push(index)
    lengths.add(slice.blocks)
  })
  const longestFirst = [...lengths].toSorted((a, b) => b - a)
  const digests = slices.length === 0 ? [] : blockDigests(blocks)
  return (i: number): { readonly slice: MarkdownSlice; readonly index: number } | undefined => {
    for (const n of longestFirst) {
      if (i + n > blocks.length) continue
      const queue = byRun.get(`${n}:${runDigest(digests.slice(i, i + n))}`)
      const index = queue?.shift()
      if (index !== undefined) return { slice: slices[index]!, index }
    }
    return undefined
  }
}
