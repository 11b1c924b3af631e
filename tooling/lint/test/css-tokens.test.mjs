import { describe, expect, it } from "vitest"
import { literalsIn } from "../css-tokens.mjs"

describe("css-tokens", () => {
  it("finds literal font sizes, in font-size and the font shorthand", () => {
    const css = `.a { font-size: 0.9rem; }\n.b { font: 0.85rem/1.5 ui-monospace, monospace; }\n.c { font: 600 14px var(--font); }`
    expect(literalsIn(css).map((p) => p.line)).toEqual([1, 2, 3])
  })
  it("finds literal colours, hex and functional, in any property", () => {
    const css = `.a { color: #fff; }\n.b {\n  box-shadow: 0 1px 2px rgb(0 0 0 / 10%);\n}\n.c { background: color-mix(in oklab, #346ddb 10%, transparent); }`
    expect(literalsIn(css).map((p) => p.line)).toEqual([1, 3, 5])
  })
  it("allows tokens, relative sizes, zero, an id selector, a comment and a line that says why", () => {
    const css = [
      `.a { font-size: var(--font-size-sm); color: var(--text); background: color-mix(in oklab, var(--primary) 10%, transparent); }`,
      `.b code { font-size: 0.85em; } .c { font-size: 90%; } .d { font-size: 0; font: inherit; }`,
      `#add:hover { color: var(--text); } /* was #ffffff, 0.9rem */`,
      `.e { color: #ffffff; } /* quire-lint-allow literal: the published site's own colour */`,
      `@media (max-width: 760px) { .f:hover { font-size: var(--font-size-2xl); } }`
    ].join("\n")
    expect(literalsIn(css)).toEqual([])
  })
})
