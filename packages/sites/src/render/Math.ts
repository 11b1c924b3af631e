/**
 * GitBook's formulas: `$$...$$` written inline in a sentence, alone on a line, or as a block between
 * lines of `$$`, rendered to HTML (and MathML for screen readers) with KaTeX on the server. Before
 * the page is parsed each formula outside code is replaced by a placeholder of private-use
 * characters, which markdown leaves alone, so that `_`, `*` and `|` in TeX never read as markdown.
 */
import katex from "katex"
import { codeSpans, codeTracker } from "./GitbookTags.ts"

/** A formula as written. */
export interface Formula {
  readonly tex: string
  /** Written as a block (`$$` lines around it); a formula alone in its paragraph is shown as one too. */
  readonly block: boolean
}

const open = "\ue000"
const close = "\ue001"
const placeholder = (index: number) => `${open}${index}${close}`
/** A placeholder in text: its formula's index. */
export const placeholderPattern = /\ue000(\d+)\ue001/g

/** The markdown with its formulas replaced by placeholders, and the formulas by index. */
export interface MarkedMath {
  readonly markdown: string
  readonly formulas: ReadonlyArray<Formula>
}

const inlineMath = /\$\$(?=\S)((?:[^$\\]|\\[\s\S]|\$(?!\$))+?)\$\$/g

/** Replaces the formulas outside fenced code and code spans with placeholders. */
export const markMath = (markdown: string): MarkedMath => {
  if (!markdown.includes("$$")) return { markdown, formulas: [] }
  const formulas: Array<Formula> = []
  const lines = markdown.split("\n")
  const out: Array<string> = []
  const inCode = codeTracker()
  let block: { readonly prefix: string; readonly lines: Array<string> } | undefined
  for (const line of lines) {
    if (block !== undefined) {
      const inner = line.startsWith(block.prefix) ? line.slice(block.prefix.length) : line.trimStart()
      if (inner.trim() === "$$") {
        out.push(block.prefix + placeholder(formulas.push({ tex: block.lines.join("\n").trim(), block: true }) - 1), block.prefix.trimEnd())
        block = undefined
      } else block.lines.push(inner)
      continue
    }
    if (inCode(line)) {
      out.push(line)
      continue
    }
    // `$$` alone on a line (in a quote or list item too) opens a block.
    const opening = /^((?:[ \t]*>)*[ \t]*(?:(?:[-*+]|\d{1,9}[.)])[ \t]+)?)\$\$[ \t]*$/.exec(line)
    if (opening !== null) {
      block = { prefix: opening[1]!.replace(/[-*+]|\d{1,9}[.)]/, (m) => " ".repeat(m.length)), lines: [] }
      out.push(opening[1]!.trimEnd() === "" ? "" : opening[1]!.trimEnd())
      continue
    }
    if (!line.includes("$$")) {
      out.push(line)
      continue
    }
    const spans = codeSpans(line)
    out.push(line.replace(inlineMath, (found, tex: string, at: number) =>
      spans.some(([from, to]) => at >= from && at < to) ? found : placeholder(formulas.push({ tex: tex.trim(), block: false }) - 1)))
  }
  // A block never closed is shown as written.
  if (block !== undefined) out.push(block.prefix + "$$", ...block.lines.map((l) => block!.prefix + l))
  return { markdown: out.join("\n"), formulas }
}

/** `text` with its placeholders back as the formulas they replaced (for code, alt texts, URLs). */
export const restoreMath = (text: string, formulas: ReadonlyArray<Formula>): string =>
  formulas.length === 0 || !text.includes(open)
    ? text
    : text.replace(placeholderPattern, (found, index: string) => {
      const formula = formulas[Number(index)]
      return formula === undefined ? found : formula.block ? `$$\n${formula.tex}\n$$` : `$$${formula.tex}$$`
    })

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
