/**
 * Myers' diff over two sequences (blocks, lines, words), with a bound on the edit distance so a
 * runaway comparison gives up (null) instead of freezing the review screen.
 */

export type Edit = { readonly op: "equal"; readonly a: number; readonly b: number } | { readonly op: "delete"; readonly a: number } | {
  readonly op: "insert"
  readonly b: number
}

/** The edits turning `a` into `b` (indexes into each), or null when they need more than `maxEdits` insertions and deletions. */
export const diffSequences = <T>(
  a: ReadonlyArray<T>,
  b: ReadonlyArray<T>,
  eq: (x: T, y: T) => boolean = Object.is,
  maxEdits = 4000
): Array<Edit> | null => {
  let start = 0
  while (start < a.length && start < b.length && eq(a[start]!, b[start]!)) start++
  let endA = a.length
  let endB = b.length
  while (endA > start && endB > start && eq(a[endA - 1]!, b[endB - 1]!)) {
    endA--
    endB--
  }
  const n = endA - start
  const m = endB - start
  const middle = middleEdits(n, m, (i, j) => eq(a[start + i]!, b[start + j]!), maxEdits)
  if (middle === null) return null
  const out: Array<Edit> = []
  for (let i = 0; i < start; i++) out.push({ op: "equal", a: i, b: i })
  for (const e of middle) {
    out.push(e.op === "equal" ? { op: "equal", a: e.a + start, b: e.b + start } : e.op === "delete" ? { op: "delete", a: e.a + start } : { op: "insert", b: e.b + start })
  }
  for (let i = 0; i < a.length - endA; i++) out.push({ op: "equal", a: endA + i, b: endB + i })
  return out
}

const middleEdits = (n: number, m: number, eq: (i: number, j: number) => boolean, maxEdits: number): Array<Edit> | null => {
  if (n === 0) return Array.from({ length: m }, (_, b) => ({ op: "insert" as const, b }))
  if (m === 0) return Array.from({ length: n }, (_, a) => ({ op: "delete" as const, a }))
  const max = Math.min(n + m, maxEdits)
  const offset = max + 1
  // One V updated in place (step d reads only diagonals of the other parity); each step keeps its window [-d, d].
  const v = new Int32Array(2 * max + 3)
  const trace: Array<Int32Array> = []
  for (let d = 0; d <= max; d++) {
    trace.push(v.slice(offset - d, offset + d + 1))
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!) ? v[offset + k + 1]! : v[offset + k - 1]! + 1
      let y = x - k
      while (x < n && y < m && eq(x, y)) {
        x++
        y++
      }
      v[offset + k] = x
      if (x >= n && y >= m) return backtrack(trace, d, n, m)
    }
  }
  return null
}

/** The edits, walking back from (n, m) through each step's window (`trace[d][k + d]` is V[k] before step d). */
const backtrack = (trace: ReadonlyArray<Int32Array>, dEnd: number, n: number, m: number): Array<Edit> => {
  const out: Array<Edit> = []
  let x = n
  let y = m
  for (let d = dEnd; d > 0; d--) {
    const v = trace[d]!
    const at = (k: number) => v[k + d]!
    const k = x - y
    const down = k === -d || (k !== d && at(k - 1) < at(k + 1))
    const prevK = down ? k + 1 : k - 1
    const prevX = at(prevK)
    const prevY = prevX - prevK
    while (x > (down ? prevX : prevX + 1) && y > (down ? prevY + 1 : prevY)) out.push({ op: "equal", a: --x, b: --y })
    if (down) out.push({ op: "insert", b: --y })
    else out.push({ op: "delete", a: --x })
  }
  while (x > 0 && y > 0) out.push({ op: "equal", a: --x, b: --y })
  return out.toReversed()
}
