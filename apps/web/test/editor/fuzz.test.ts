import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { checkFresh, sameDocument } from "../../src/editor/markdown/fidelity.ts"
import { codec } from "./support.ts"

/** Pieces of GitBook markdown that tend to break parsers: block tags, HTML, fences, delimiters, whitespace. */
const TOKENS = [
  "{% tabs %}", "{% endtabs %}", '{% tab title="A" %}', "{% endtab %}", '{% hint style="info" %}', "{% endhint %}",
  "{% stepper %}", "{% step %}", "{% endstep %}", "{% endstepper %}", '{% embed url="https://x.y" %}', "{% endembed %}",
  '{% code title="a.js" %}', "{% endcode %}", '{% content-ref url="a.md" %}', "{% endcontent-ref %}", '{% include "a.md" %}',
  "<details>", "<details open>", "</details>", "<summary>", "</summary>", "<summary>S</summary>", "<figure>", "<mark>", "</mark>",
  '<mark style="color:red;">', "<br>", "<div>", "</div>", "<!--", "-->", "&#x20;", "&amp;", "&",
  "$$", "$", "`", "``", "```", "~~~", "*", "**", "_", "__", "~", "~~", "[", "]", "](", "(", ")", "![", "<", ">", "\\", "|", "#",
  "- ", "* ", "+ ", "1. ", "2) ", "> ", "- [ ] ", "- [x] ", "---", "===", "    ", "  ", " ", "\t", ":", "-",
  "word", "text", "a", "B", "é", "x_y", "http://e.x", "<https://e.x>", "[l](u)", "[l](<u v> \"t\")", "| a | b |", "| - | - |",
  '<figure><img src="a.png" alt=""><figcaption></figcaption></figure>', '<a href="#x" id="x"></a>',
  '<table data-view="cards"><thead><tr><th></th></tr></thead><tbody><tr><td>x</td></tr></tbody></table>',
  '{% file src="a.pdf" %}', "{% endfile %}", "{% columns %}", '{% column width="50%" %}', "{% endcolumn %}", "{% endcolumns %}",
  '{% openapi-operation spec="a" path="/b" method="get" %}', "{% endopenapi-operation %}", "{% swagger %}", "{% endswagger %}",
  "```js", "1) ", "  - ", "    1. ", "\r", "\u00a0", "😀"
]

const line = fc.array(fc.constantFrom(...TOKENS), { maxLength: 6 }).map((t) => t.join(""))
const document = fc
  .record({
    lines: fc.array(line, { maxLength: 14 }),
    eol: fc.constantFrom("\n", "\r\n"),
    mixed: fc.array(fc.constantFrom("\n", "\n", "\r\n"), { minLength: 14, maxLength: 14 }),
    mix: fc.boolean(),
    finalNewline: fc.boolean(),
    indents: fc.array(fc.constantFrom("", "", "", "  ", "    ", "\t"), { minLength: 14, maxLength: 14 })
  })
  .map(({ lines, eol, mixed, mix, finalNewline, indents }) => {
    const body = lines.map((l, i) => indents[i] + l + (i < lines.length - 1 ? (mix ? mixed[i] : eol) : "")).join("")
    return finalNewline && body !== "" ? body + eol : body
  })

const RUNS = 3000

describe("generated GitBook markdown (seeded fast-check)", () => {
  it("parses and serializes byte for byte", () => {
    fc.assert(
      fc.property(document, (md) => codec.serialize(codec.parse(md)) === md),
      { seed: 21, numRuns: RUNS }
    )
  })
  it("re-serialized from scratch, never loses anything (normalizing at worst)", () => {
    fc.assert(
      fc.property(document, (md) => checkFresh(codec, md).fidelity !== "lossy"),
      { seed: 2121, numRuns: RUNS }
    )
  })
  it("one block re-serialized, as after an edit, leaves the others' lines alone", () => {
    fc.assert(
      fc.property(document, fc.nat(), (md, pick) => {
        const doc = codec.parse(md)
        const target = doc.child(pick % doc.childCount)
        const out = codec.serialize(doc, (b) => b === target)
        let before = ""
        let after = ""
        let seen = false
        doc.forEach((c) => {
          if (c === target) seen = true
          else if (seen) after += c.attrs.source as string
          else before += c.attrs.source as string
        })
        return out.startsWith(before) && out.endsWith(after) && sameDocument(codec.parse(out), doc)
      }),
      { seed: 212121, numRuns: RUNS }
    )
  })
  it("covers the edge cases by name", () => {
    for (const md of ["", "\n", "\r\n", "a", "a\r\n", "  trailing  ", "\t\ttabs", "- a\n  - b\n    - c", "$$\n$$", "```", "{% endtabs %}"]) {
      expect(codec.serialize(codec.parse(md))).toBe(md)
      expect(checkFresh(codec, md).fidelity).not.toBe("lossy")
    }
  })
})
