/**
 * Checking a page against a style guide's rules without a model: the page's markdown is parsed
 * with the editor's codec, so each finding names the top-level block, its text's fingerprint and
 * the offset of the words it quotes exactly as the review screen counts them (its comment anchors,
 * `qa1:`). Code (code blocks, math, inline code) is never checked. Pure: no I/O.
 */
import { createMarkdownCodec, createSchema, type MarkdownCodec } from "@quire/document"
import type { StyleRule } from "./StyleRules.ts"

type PMNode = ReturnType<MarkdownCodec["parse"]>

const codec = createMarkdownCodec(createSchema())

/** A top-level block of a page: its text as the review's anchors count it, and that text with code blanked out. */
export interface PageBlock {
  readonly index: number
  readonly text: string
  /** `text` with code replaced by spaces (same length, so offsets agree). */
  readonly prose: string
}

/** What a finding says: where, which rule, and the fix proposed (null when the rule gives none). */
export interface StyleHit {
  readonly block: number
  readonly fingerprint: string
  readonly offset: number
  readonly length: number
  readonly quote: string
  readonly ruleId: string
  readonly ruleTitle: string
  readonly message: string
  readonly sentence: string
  readonly fix: string | null
}

const codeBlocks = new Set(["codeBlock", "mathBlock", "openapi"])

/** A short, stable fingerprint of a text (FNV-1a, base 36): the review screen's. */
export const fingerprint = (text: string): string => {
  let h = 0x811c9dc5
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i)
    h = Math.imul(h, 0x01000193) >>> 0
  }
  return h.toString(36)
}

const textOf = (block: PMNode): { text: string; prose: string } => {
  if (block.isAtom) {
    const text = typeof block.attrs.text === "string" ? block.attrs.text : ""
    return { text, prose: " ".repeat(text.length) }
  }
  let text = ""
  let prose = ""
  const walk = (node: PMNode, inCode: boolean) => {
    node.forEach((child) => {
      if (child.isText) {
        const t = child.text ?? ""
        text += t
        prose += inCode || child.marks.some((m) => m.type.name === "code") ? " ".repeat(t.length) : t
      } else {
        walk(child, inCode || codeBlocks.has(child.type.name))
      }
    })
  }
  walk(block, codeBlocks.has(block.type.name))
  return { text, prose }
}

/** The page's top-level blocks (its markdown parsed as the editor parses it). */
export const blocksOf = (markdown: string): ReadonlyArray<PageBlock> => {
  const doc = codec.parse(markdown)
  const blocks: Array<PageBlock> = []
  doc.forEach((node, _offset, index) => {
    blocks.push({ index, ...textOf(node) })
  })
  return blocks
}

interface Sentence {
  readonly start: number
  readonly text: string
}

/** The sentences of a block's prose with their offsets (a sentence ends at . ! ? followed by a space, or at the end). */
export const sentencesOf = (prose: string): ReadonlyArray<Sentence> => {
  const out: Array<Sentence> = []
  const re = /[^\s][\s\S]*?(?:[.!?](?=\s|$)|$)/g
  for (let m = re.exec(prose); m !== null && m[0] !== ""; m = re.exec(prose)) {
    const text = m[0].trimEnd()
    if (text.trim() !== "") out.push({ start: m.index, text })
    if (re.lastIndex === m.index) re.lastIndex++
  }
  return out
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")
/** A phrase as a whole word (or words), ignoring case. */
const phraseRe = (phrase: string) => new RegExp(`(?<![\\p{L}\\p{N}_])${escape(phrase).replace(/\s+/g, "\\s+")}(?![\\p{L}\\p{N}_])`, "giu")

const sameCase = (found: string, replacement: string) =>
  found[0] !== undefined && found[0] === found[0].toUpperCase() && found[0] !== found[0].toLowerCase()
    ? replacement.charAt(0).toUpperCase() + replacement.slice(1)
    : replacement

const tidy = (s: string) => s.replace(/\s{2,}/g, " ").replace(/\s+([,.;:!?])/g, "$1").replace(/^,\s*/, "").trim()

const words = (s: string) => s.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w)).length

const participle = "(?:\\w+ed|known|written|given|shown|done|made|seen|taken|sent|built|found|kept|held|set|put|read|run|chosen|drawn|driven|spoken|stolen|torn|worn|broken|frozen|hidden|begun|thrown|grown|understood|bought|brought|caught|taught|thought|sold|told|paid|left|lost|meant|won)"
const passiveRe = new RegExp(`(?<![\\p{L}])(?:am|is|are|was|were|be|been|being)\\s+(?:\\w+ly\\s+)?${participle}(?![\\p{L}])`, "giu")

/** Every place a block breaks one of the rules' checks, in the block's order. */
export const checkBlock = (block: PageBlock, rules: ReadonlyArray<StyleRule>): ReadonlyArray<StyleHit> => {
  const hits: Array<StyleHit> = []
  const print = fingerprint(block.text)
  const sentences = sentencesOf(block.prose)
  const sentenceAt = (at: number) => sentences.find((s) => at >= s.start && at < s.start + s.text.length) ?? { start: 0, text: block.prose.trim() }
  const hit = (rule: StyleRule, offset: number, length: number, message: string, fix: (sentence: Sentence) => string | null) => {
    const sentence = sentenceAt(offset)
    hits.push({
      block: block.index,
      fingerprint: print,
      offset,
      length,
      quote: block.text.slice(offset, offset + length),
      ruleId: rule.id,
      ruleTitle: rule.title,
      message,
      sentence: sentence.text,
      fix: fix(sentence)
    })
  }
  for (const rule of rules) {
    for (const check of rule.checks) {
      switch (check.kind) {
        case "avoid":
          for (const phrase of check.phrases) {
            for (const m of block.prose.matchAll(phraseRe(phrase))) {
              hit(rule, m.index, m[0].length, `Avoid “${m[0]}”.`, (s) => {
                const at = m.index - s.start
                const fixed = tidy(s.text.slice(0, at) + s.text.slice(at + m[0].length))
                return fixed === "" ? null : at === 0 ? fixed.charAt(0).toUpperCase() + fixed.slice(1) : fixed
              })
            }
          }
          break
        case "prefer":
          for (const not of check.not) {
            for (const m of block.prose.matchAll(phraseRe(not))) {
              hit(rule, m.index, m[0].length, `Use “${check.use}”, not “${m[0]}”.`, (s) => {
                const at = m.index - s.start
                return s.text.slice(0, at) + sameCase(m[0], check.use) + s.text.slice(at + m[0].length)
              })
            }
          }
          break
        case "sentence-length":
          for (const s of sentences) {
            const n = words(s.text)
            if (n > check.max) hit(rule, s.start, s.text.length, `This sentence has ${n} words; the guide allows ${check.max}. Split it.`, () => null)
          }
          break
        case "passive-voice":
          for (const m of block.prose.matchAll(passiveRe)) {
            hit(rule, m.index, m[0].length, `“${m[0]}” reads as passive voice: say who does it.`, () => null)
          }
          break
      }
    }
  }
  return hits.sort((a, b) => a.offset - b.offset)
}

/** Every finding of a page's markdown, block by block. */
export const checkMarkdown = (markdown: string, rules: ReadonlyArray<StyleRule>): ReadonlyArray<StyleHit> =>
  blocksOf(markdown).flatMap((block) => checkBlock(block, rules))

/** A comment's `node` anchoring a hit as the review screen does (`qa1:block:fingerprint:offset:length:quote`, at most 200 characters). */
export const anchorOf = (hit: Pick<StyleHit, "block" | "fingerprint" | "offset" | "length" | "quote">): string => {
  const head = `qa1:${hit.block}:${hit.fingerprint}:${hit.offset}:${hit.length}:`
  let quote = ""
  for (const ch of hit.quote) {
    const piece = encodeURIComponent(ch)
    if (head.length + quote.length + piece.length > 200) break
    quote += piece
  }
  return head + quote
}
