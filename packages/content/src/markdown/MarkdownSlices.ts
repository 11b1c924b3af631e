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

/**
 * A 53-bit hash (cyrb53's mixing) of a block as it stands: its keys and values in order, without
 * GitBook's node keys and computed ids (`key`, `meta`, `explicitId`), which depend on the page and
 * not on what the block holds. Walked rather than stringified, so that a page's read pays one pass
 * over its characters; browser-safe, and collisions beyond reach for a page's blocks.
 */
const digestOf = (value: unknown): string => {
  let h1 = 0xdeadbeef
  let h2 = 0x41c6ce57
  const code = (c: number) => {
    h1 = Math.imul(h1 ^ c, 2654435761)
    h2 = Math.imul(h2 ^ c, 1597334677)
  }
  // Each value after a tag no character is, so that ["ab"] and ["a", "b"], "1" and 1 differ.
  const mix = (tag: number, text: string) => {
    code(tag)
    for (let i = 0; i < text.length; i++) code(text.charCodeAt(i))
  }
  const walk = (v: unknown): void => {
    if (typeof v === "string") mix(0x110000, v)
    else if (typeof v === "number") mix(0x110001, String(v))
    else if (typeof v === "boolean") code(v ? 0x110002 : 0x110003)
    else if (v === null) code(0x110004)
    else if (Array.isArray(v)) {
      code(0x110005)
      for (const item of v) walk(item)
      code(0x110006)
    } else if (typeof v === "object") {
      code(0x110007)
      for (const key in v) {
        const field = (v as Record<string, unknown>)[key]
        if (key === "key" || key === "meta" || key === "explicitId" || field === undefined) continue
        mix(0x110008, key)
        walk(field)
      }
      code(0x110009)
    }
  }
  walk(value)
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909)
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909)
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(36)
}

/** Each block's own digest. */
export const blockDigests = (blocks: ReadonlyArray<JsonBlock>): Array<string> => blocks.map(digestOf)

/** The digest of a run of blocks from their own digests. */
export const runDigest = (digests: ReadonlyArray<string>): string => (digests.length === 1 ? digests[0]! : digestOf(digests))

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
