/**
 * Syntax highlighting with Shiki: one highlighter per server (`CodeHighlighter`, a service of its
 * layer), created on first use with the light and dark themes and a few common languages; other
 * languages Shiki bundles are loaded the first time a page uses them. Output carries both themes as
 * CSS variables (`--shiki-light`, `--shiki-dark`), so the page's stylesheet picks the theme.
 */
import type { Element, ElementContent, Properties, Root } from "hast"
import { Context, Effect, Layer } from "effect"
import { BoundedCache } from "@quire/kernel"
import { bundledLanguages, createHighlighter, type BundledLanguage, type Highlighter } from "shiki"

/** The themes of highlighted code, by the name of their CSS variable prefix. */
export const themes = { light: "github-light", dark: "github-dark" } as const

const preloaded: ReadonlyArray<BundledLanguage> = [
  "javascript", "typescript", "jsx", "tsx", "json", "shellscript", "python", "yaml", "html", "css", "markdown", "sql",
  "go", "java", "diff"
]

const plain = new Set(["", "text", "txt", "plain", "plaintext"])

/** The Shiki language id a fence's info names, or undefined when Shiki has no grammar for it. */
export const languageOf = (lang: string | null | undefined): BundledLanguage | undefined => {
  const name = (lang ?? "").trim().toLowerCase()
  if (plain.has(name) || !Object.hasOwn(bundledLanguages, name)) return undefined
  return name as BundledLanguage
}

// Shiki writes HTML attribute names (`class`, `tabindex`); the sanitizer reads hast property names.
const normalize = (properties: Properties): Properties => {
  const out: Record<string, Properties[string]> = {}
  for (const [key, value] of Object.entries(properties)) {
    if (key === "class") out["className"] = typeof value === "string" ? value.split(/\s+/).filter((c) => c !== "") : value
    else if (key === "tabindex") out["tabIndex"] = value
    else out[key] = value
  }
  return out
}

const normalizeTree = (node: ElementContent): ElementContent => {
  if (node.type !== "element") return node
  node.properties = normalize(node.properties)
  node.children = node.children.map(normalizeTree)
  return node
}

const plainPre = (code: string): Element => ({
  type: "element",
  tagName: "pre",
  properties: { className: ["shiki"] },
  children: [{ type: "element", tagName: "code", properties: {}, children: [{ type: "text", value: code }] }]
})

const highlightWith = (hl: Highlighter, code: string, usable: string, id: BundledLanguage | undefined): Element => {
  const root: Root = hl.codeToHast(code, {
    lang: usable,
    themes,
    defaultColor: false,
    // A minified line or a pathological grammar case stays plain rather than stalling the page.
    tokenizeMaxLineLength: 2_000,
    tokenizeTimeLimit: 200
  })
  const pre = root.children.find((child): child is Element => child.type === "element")!
  normalizeTree(pre)
  if (id !== undefined) pre.properties["dataLanguage"] = id
  return pre
}

/** Highlighted blocks of at most this many characters are kept. */
const cacheableLength = 20_000

/** What renders code: loads grammars ahead, then highlights synchronously. */
export interface Highlighting {
  /**
   * Creates the highlighter if need be and loads the grammars of `langs` that are not loaded yet
   * (unknown names are ignored); pages rendered at once share one load of a grammar. A grammar
   * that fails to load leaves its code plain, and so does a highlighter that fails to start.
   */
  readonly load: (langs: Iterable<string | null | undefined>) => Promise<void>
  /**
   * A `<pre>` for `code`: highlighted when the highlighter is ready and knows `lang` (loaded), else
   * plain text in the same dual-theme frame. The result is shared: do not mutate it.
   */
  readonly highlight: (code: string, lang: string | null | undefined) => Element
  /** Forgets the highlighted blocks (for benchmarks of cold renders). */
  readonly clear: () => void
}

/**
 * A highlighter of its own, keeping highlighted blocks in `cache` by language and code: a page
 * rendered again (its revision moved, another audience) mostly repeats its code, and highlighting
 * is most of a render's time. Callers never mutate what they get (the sanitizer builds a new tree).
 */
export const makeHighlighting = (cache: BoundedCache.BoundedCache<string, Element>): Highlighting => {
  let instance: Highlighter | undefined
  let creating: Promise<Highlighter> | undefined
  const loading = new Map<BundledLanguage, Promise<void>>()
  const highlighter = (): Promise<Highlighter> =>
    instance !== undefined
      ? Promise.resolve(instance)
      : creating ??= createHighlighter({ themes: [themes.light, themes.dark], langs: [...preloaded] }).then(
        (created) => {
          instance = created
          return created
        },
        (error: unknown) => {
          creating = undefined // the next page tries again
          throw error
        }
      )
  const loadInto = async (hl: Highlighter, langs: Iterable<string | null | undefined>): Promise<void> => {
    const loaded = new Set(hl.getLoadedLanguages())
    const waits: Array<Promise<void>> = []
    for (const lang of langs) {
      const id = languageOf(lang)
      if (id === undefined || loaded.has(id)) continue
      let load = loading.get(id)
      if (load === undefined) {
        load = hl.loadLanguage(id).catch(() => undefined)
        loading.set(id, load)
      }
      waits.push(load)
    }
    if (waits.length > 0) await Promise.all(waits)
  }
  return {
    load: (langs) => highlighter().then((hl) => loadInto(hl, langs), () => undefined),
    highlight: (code, lang) => {
      const hl = instance
      const id = languageOf(lang)
      const usable = id !== undefined && hl !== undefined && hl.getLoadedLanguages().includes(id) ? id : "text"
      const key = `${usable}\u0000${code}`
      const cached = cache.get(key)
      if (cached !== undefined) return cached
      if (hl === undefined) return plainPre(code)
      const pre = highlightWith(hl, code, usable, id)
      if (code.length <= cacheableLength) cache.set(key, pre)
      return pre
    },
    clear: cache.clear
  }
}

/** Blocks of highlighted code a server keeps. */
const cacheSize = 2_000

/** The highlighter of one server, its cache of highlighted blocks `highlighted_code` on `/metrics`. */
export class CodeHighlighter extends Context.Service<CodeHighlighter, Highlighting>()("@quire/sites/CodeHighlighter") {
  static readonly layer = Layer.effect(
    CodeHighlighter,
    Effect.map(BoundedCache.make<string, Element>({ name: "highlighted_code", capacity: cacheSize }), makeHighlighting)
  )
}

/** A highlighter not reported anywhere, for tests and benchmarks that render without a server. */
export const unreportedHighlighting = (): Highlighting =>
  makeHighlighting(BoundedCache.unsafeMake({ name: "highlighted_code", capacity: cacheSize }))
