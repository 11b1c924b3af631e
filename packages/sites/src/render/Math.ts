/**
 * GitBook's formulas (`$$...$$` inline, alone on a line, or between lines of `$$`), which the block
 * tree reads, rendered to HTML (and MathML for screen readers) with KaTeX on the server.
 */
import katex from "katex"

/**
 * A formula as KaTeX's HTML and MathML; a formula KaTeX cannot read shows its TeX in red. Safe to
 * insert as it is: KaTeX escapes the TeX and, untrusted, refuses `\href`, `\url` and `\html*`.
 */
export const formulaHtml = (tex: string, display: boolean): string =>
  katex.renderToString(tex, {
    displayMode: display,
    throwOnError: false,
    output: "htmlAndMathml",
    trust: false,
    strict: "ignore",
    maxSize: 50,
    maxExpand: 1000
  })
