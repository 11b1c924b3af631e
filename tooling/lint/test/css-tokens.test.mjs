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
  it("finds literal paddings, margins and gaps in rem or px, naming each literal of a declaration", () => {
    const css = [
      `.a { padding: 0.5rem var(--space-2); }`,
      `.b { margin-inline-start: -0.35rem; }`,
      `.c { gap: .35rem .75rem; }`,
      `.d { row-gap: 2px; column-gap: var(--space-1); }`,
      `.e { padding-block-end: calc(var(--space-6) + 1.75rem); }`
    ].join("\n")
    const problems = literalsIn(css)
    expect(problems.map((p) => p.line)).toEqual([1, 2, 3, 4, 5])
    expect(problems[2]?.message).toBe("literal spacing .35rem, .75rem in gap: use --space-* tokens")
  })
  it("allows spacing tokens, zero, a 1px border's width, em and %, other lengths, and a line that says why", () => {
    const css = [
      `.a { padding: var(--space-1-5) var(--space-3); margin: calc(-1 * var(--space-1)) 0 0; gap: var(--space-0-5); }`,
      `.b { margin: 0; padding: 0px 0 0rem; margin-top: -1px; padding: 1px var(--space-2); }`,
      `.c { padding: 0.2em 1%; margin-inline: auto; }`,
      `.d { width: 18rem; max-width: calc(100vw - 2rem); top: 4px; border-width: 2px; }`,
      `.e { padding: 2.5rem var(--space-4) 3rem; } /* quire-lint-allow literal: stands in for a cover image */`,
      `.f { --gutter: 1.75rem; }`
    ].join("\n")
    expect(literalsIn(css)).toEqual([])
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
