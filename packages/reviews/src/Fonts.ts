/**
 * The fonts PDFs embed, and which one draws each character. Noto Sans (Latin, Cyrillic, Greek, in
 * four styles) and Noto Sans Mono come first; characters they lack fall back to Noto Sans JP
 * (Japanese, and the Chinese characters it shares, in Japanese forms), then Noto Sans SC (the rest
 * of Chinese, simplified and traditional), then Noto Sans KR (Korean), then Noto Emoji
 * (monochrome), which comes first for pictographs. The files come from npm packages; the production build copies them to
 * `dist/fonts/`, where a bundle finds them beside itself.
 */
import * as fontkit from "fontkit"
import { existsSync, readFileSync } from "node:fs"
import { createRequire } from "node:module"
import { fileURLToPath } from "node:url"
import files from "./FontFiles.json" with { type: "json" }

export type FontName = "regular" | "bold" | "italic" | "boldItalic" | "mono" | "cjk" | "chinese" | "korean" | "emoji"

/** Each font's npm package and file there; `tooling/build/build.mjs` copies them to `dist/fonts/`. */
export const fontFiles: Readonly<Record<FontName, { readonly package: string; readonly file: string }>> = files

/** The file's name in `dist/fonts/`. */
export const distName = (name: FontName): string => fontFiles[name].file.split("/").at(-1)!

const packages = createRequire(import.meta.url)

/** Where a font file is: beside the bundle (`./fonts/`), else in its npm package. */
export const fontPath = (name: FontName): string => {
  const bundled = fileURLToPath(new URL(`./fonts/${distName(name)}`, import.meta.url))
  if (existsSync(bundled)) return bundled
  const { package: pkg, file } = fontFiles[name]
  return packages.resolve(`${pkg}/${file}`)
}

interface Loaded {
  readonly bytes: Buffer
  readonly font: fontkit.Font
  readonly covered: Map<number, boolean>
}

/** The fonts of a PDF renderer, each read once and its glyph coverage remembered (`makeFonts`). */
export interface Fonts {
  /** A font's bytes and its glyph coverage. */
  readonly load: (name: FontName) => Loaded
  /**
   * `text` cut into runs of one font each: every character in the first font (of `primary`, then
   * the fallbacks) that has it. Variation selectors a run's font lacks are left out.
   */
  readonly segments: (text: string, primary: FontName) => ReadonlyArray<Segment>
}

/** A table of fonts of its own: the PDF renderer's, which keeps it for every PDF it renders. */
export const makeFonts = (): Fonts => {
  const loaded = new Map<FontName, Loaded>()
  const load = (name: FontName): Loaded => {
    let found = loaded.get(name)
    if (found === undefined) {
      const bytes = readFileSync(fontPath(name))
      found = { bytes, font: fontkit.create(bytes) as fontkit.Font, covered: new Map() }
      loaded.set(name, found)
    }
    return found
  }
  const covers = (name: FontName, codePoint: number): boolean => {
    const font = load(name)
    let has = font.covered.get(codePoint)
    if (has === undefined) {
      has = font.font.hasGlyphForCodePoint(codePoint)
      font.covered.set(codePoint, has)
    }
    return has
  }
  return { load, segments: (text, primary) => segmentsWith(covers, text, primary) }
}

type Covers = (name: FontName, codePoint: number) => boolean

/** Characters that belong to the one before: joiners, variation selectors, combining marks, skin tones. */
const attaches = (char: string, codePoint: number): boolean =>
  codePoint === 0x200d || (codePoint >= 0xfe00 && codePoint <= 0xfe0f) || (codePoint >= 0x1f3fb && codePoint <= 0x1f3ff) ||
  /\p{M}/u.test(char)

const pictograph = /\p{Extended_Pictographic}/u

/** The font that draws `char` when `primary` is the style asked for. */
const fontFor = (covers: Covers, char: string, codePoint: number, primary: FontName): FontName => {
  if (codePoint < 0x80 && primary !== "emoji") return primary
  if (pictograph.test(char) && covers("emoji", codePoint) && !(codePoint < 0x2000 && covers(primary, codePoint))) return "emoji"
  if (covers(primary, codePoint)) return primary
  for (const fallback of ["regular", "cjk", "chinese", "korean", "emoji"] as const) if (covers(fallback, codePoint)) return fallback
  return primary
}

export interface Segment {
  readonly font: FontName
  readonly text: string
}

const segmentsWith = (covers: Covers, text: string, primary: FontName): ReadonlyArray<Segment> => {
  const out: Array<{ font: FontName; text: string }> = []
  for (const char of text) {
    const codePoint = char.codePointAt(0)!
    const last = out.at(-1)
    if (last !== undefined && attaches(char, codePoint)) {
      if (!(codePoint >= 0xfe00 && codePoint <= 0xfe0f) || covers(last.font, codePoint)) last.text += char
      continue
    }
    const font = fontFor(covers, char, codePoint, primary)
    if (last !== undefined && last.font === font) last.text += char
    else out.push({ font, text: char })
  }
  return out
}
