/** Generated GitBook markdown for the property tests (fast-check): lines of tokens that tend to break parsers. */
import fc from "fast-check"

/** Pieces of GitBook markdown that tend to break parsers: block tags, HTML, fences, delimiters, whitespace. */
export const TOKENS = [
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
export const document = fc
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
