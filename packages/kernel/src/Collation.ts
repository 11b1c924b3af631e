/**
 * Text in the order PostgreSQL's `COLLATE "C"` gives it (UTF-8 bytes, that is Unicode code points),
 * for memory adapters that must list rows as their SQL adapters do. JavaScript's `<` compares UTF-16
 * code units, which puts an astral character ('😀', U+1F600) before one at U+E000..U+FFFF ('Ａ', U+FF21).
 */

/** Where a UTF-16 code unit falls in code-point order: surrogates (astral characters) after the rest of the BMP. */
const rank = (unit: number): number => (unit < 0xd800 ? unit : unit >= 0xe000 ? unit - 0x800 : unit + 0x2000)

/** Negative, zero or positive as `a` sorts before, with or after `b` by code point. */
export const compareCodePoints = (a: string, b: string): number => {
  const length = Math.min(a.length, b.length)
  for (let i = 0; i < length; i++) {
    const x = a.charCodeAt(i)
    const y = b.charCodeAt(i)
    if (x !== y) return rank(x) - rank(y)
  }
  return a.length - b.length
}
