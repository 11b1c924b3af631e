/**
 * How large and how deep a parsed document is, as the JSON it is stored as: YAML aliases expand
 * (each use counts in full) and a cycle is infinitely deep. The walk stops at the first bound it
 * passes, so a document that expands to gigabytes costs no more than the bound.
 */

/** The first bound a document goes past. */
export type Excess = "size" | "depth"

/** What a document may reach: bytes of its JSON text and levels of nesting. */
export interface Bounds {
  readonly maxBytes: number
  readonly maxDepth: number
}

class Exceeded {
  constructor(readonly excess: Excess) {}
}

const utf8 = new TextEncoder()
const byteLength = (text: string): number => (text.length < 1024 ? utf8.encode(text).byteLength : Buffer.byteLength(text))

/** The bytes of `value`'s JSON text (within a few per value), or the bound it passes. */
export const measure = (value: unknown, bounds: Bounds): { readonly bytes: number } | { readonly excess: Excess } => {
  let total = 0
  const add = (bytes: number) => {
    total += bytes
    if (total > bounds.maxBytes) throw new Exceeded("size")
  }
  const walk = (node: unknown, depth: number): void => {
    if (typeof node === "string") return add(byteLength(JSON.stringify(node)))
    if (typeof node !== "object" || node === null) return add(String(node).length)
    if (depth >= bounds.maxDepth) throw new Exceeded("depth")
    if (Array.isArray(node)) {
      add(2 + node.length)
      for (const child of node) walk(child, depth + 1)
      return
    }
    add(2)
    for (const [key, child] of Object.entries(node)) {
      add(byteLength(JSON.stringify(key)) + 2)
      walk(child, depth + 1)
    }
  }
  try {
    walk(value, 0)
    return { bytes: total }
  } catch (e) {
    if (e instanceof Exceeded) return { excess: e.excess }
    // Deeper than the stack (a bound larger than the stack allows): too deep all the same.
    if (e instanceof RangeError) return { excess: "depth" }
    throw e
  }
}
