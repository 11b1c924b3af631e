/**
 * The stylesheet of a published site: light and dark palettes as CSS custom properties computed
 * from `customization.styling` (primary and tint colors, corners, depth, links, fonts), then the
 * static sheets of `site-static/` for the layout and for the GitBook blocks `Markdown.ts` emits.
 */
import type { Styling, Themed } from "./View.ts"
import { siteStatic } from "./SiteStatic.ts"

const hexColor = /^#(?:[0-9a-f]{3}|[0-9a-f]{4}|[0-9a-f]{6}|[0-9a-f]{8})$/i

/** A customization color, or the fallback when it is not a plain hex color (nothing else reaches CSS). */
const color = (value: string | undefined, fallback: string): string =>
  value !== undefined && hexColor.test(value) ? value : fallback

const themed = (value: Themed | undefined, fallback: Themed): Themed => ({
  light: color(value?.light, fallback.light),
  dark: color(value?.dark, fallback.dark)
})

/** Black or white, whichever reads better on `hex`. */
const contrastOn = (hex: string): string => {
  const h = hex.slice(1)
  const full = h.length <= 4 ? h.slice(0, 3).replace(/./g, "$&$&") : h.slice(0, 6)
  const [r, g, b] = [0, 2, 4].map((i) => {
    const c = Number.parseInt(full.slice(i, i + 2), 16) / 255
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4
  }) as [number, number, number]
  const luminance = 0.2126 * r + 0.7152 * g + 0.0722 * b
  // WCAG: black when its contrast ratio beats white's.
  return luminance > 0.179 ? "#0b0c0e" : "#ffffff"
}

const fontNames: Record<string, string> = {
  ABCFavorit: "",
  RobotoSlab: "Roboto Slab",
  OpenSans: "Open Sans",
  SourceSansPro: "Source Sans Pro",
  NotoSans: "Noto Sans",
  IBMPlexSerif: "IBM Plex Serif",
  FiraSans: "Fira Sans",
  IBMPlexMono: "IBM Plex Mono",
  SourceCodePro: "Source Code Pro",
  FiraCode: "Fira Code",
  JetBrainsMono: "JetBrains Mono",
  RobotoMono: "Roboto Mono"
}
const serifFonts = new Set(["RobotoSlab", "Merriweather", "IBMPlexSerif"])

const sans = `ui-sans-serif, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif`
const serif = `ui-serif, Georgia, Cambria, "Times New Roman", serif`
const mono = `ui-monospace, "SFMono-Regular", "JetBrains Mono", Menlo, Consolas, "Liberation Mono", monospace`

/** A font stack for a GitBook font name or definition; the family name is reduced to safe characters. */
const fontStack = (font: Styling["font"] | null, fallback: string): string => {
  if (font === undefined || font === null) return fallback
  const name: unknown = typeof font === "string" ? font : typeof font === "object" ? font.fontFamily : undefined
  // Only what the schema allows is stored now; anything else (an older row) is the default font.
  if (typeof name !== "string") return fallback
  const family = (typeof font === "string" ? (fontNames[name] ?? name) : name).replace(/[^A-Za-z0-9 _-]/g, "").trim()
  const base = typeof font === "string" && serifFonts.has(name) ? serif : fallback
  return family === "" ? base : `"${family}", ${base}`
}

/** A font URL safe inside `url("...")`: http(s) or a path of the site's host, without quotes, backslashes or spaces. */
const safeFontUrl = (url: unknown): string | undefined =>
  typeof url === "string" && /^(https?:\/\/|\/)[^\s"'\\<>()]*$/i.test(url) ? url : undefined

/**
 * The `@font-face` rules of the styling's custom font definitions (`font`, `headingFont`,
 * `monospaceFont` given as a family and its files, as a custom font is): one per weight.
 */
export const fontFaceRules = (s: Styling): string => {
  const seen = new Set<string>()
  let css = ""
  for (const font of [s.font, s.headingFont, s.monospaceFont]) {
    if (typeof font !== "object" || font === null || !Array.isArray(font.fontFaces)) continue
    const family = String(font.fontFamily).replace(/[^A-Za-z0-9 _-]/g, "").trim()
    if (family === "") continue
    for (const face of font.fontFaces) {
      const weight = Number(face.weight)
      if (!Number.isInteger(weight) || weight < 1 || weight > 1000 || seen.has(`${family}/${weight}`)) continue
      const sources = (Array.isArray(face.sources) ? face.sources : []).flatMap((source: { readonly url: string; readonly format?: string | undefined }) => {
        const url = safeFontUrl(source.url)
        if (url === undefined) return []
        const format = source.format === "woff" || source.format === "woff2" ? ` format("${source.format}")` : ""
        return [`url("${url}")${format}`]
      })
      if (sources.length === 0) continue
      seen.add(`${family}/${weight}`)
      css += `@font-face{font-family:"${family}";font-style:normal;font-weight:${weight};font-display:swap;src:${sources.join(",")}}`
    }
  }
  return css
}

const defaults = {
  primary: { light: "#346ddb", dark: "#6f9cf2" },
  tint: { light: "#787f8c", dark: "#787f8c" },
  info: { light: "#3b82f6", dark: "#60a5fa" },
  success: { light: "#16a34a", dark: "#4ade80" },
  warning: { light: "#d97706", dark: "#fbbf24" },
  danger: { light: "#dc2626", dark: "#f87171" }
}

const palette = (s: Styling, mode: "light" | "dark"): string => {
  const primary = themed(s.primaryColor, defaults.primary)[mode]
  const tinted = s.tint !== undefined
  const tint = themed(s.tint?.color, defaults.tint)[mode]
  const light = mode === "light"
  // Tinted sites carry the tint a little further into their surfaces, as GitBook's do.
  const k = tinted ? 1.6 : 1
  const mix = (pct: number, base: string): string => `color-mix(in oklab, ${tint} ${(pct * k).toFixed(1)}%, ${base})`
  const base = light ? "#ffffff" : "#0e0f11"
  // Secondary text is grey first, with only a hint of the tint, so a vivid tint stays legible.
  const textMix = (grey: number, tintPct: number): string =>
    `color-mix(in oklab, ${tint} ${tinted ? tintPct : 0}%, color-mix(in oklab, ${defaults.tint.light} ${grey}%, ${ink}))`
  const ink = light ? "#16181d" : "#e8e9ec"
  return [
    `--primary: ${primary}`,
    `--primary-contrast: ${contrastOn(primary)}`,
    `--primary-soft: color-mix(in oklab, ${primary} ${light ? 10 : 18}%, transparent)`,
    `--primary-text: color-mix(in oklab, ${primary} ${light ? 88 : 92}%, ${ink})`,
    `--tint: ${tint}`,
    `--bg: ${mix(light ? 1.2 : 3, base)}`,
    `--bg-subtle: ${mix(light ? 3.5 : 6, base)}`,
    `--bg-muted: ${mix(light ? 7 : 10, base)}`,
    `--bg-raised: ${light ? "#ffffff" : mix(8, base)}`,
    `--text: ${ink}`,
    `--text-muted: ${textMix(light ? 52 : 42, 10)}`,
    `--text-subtle: ${textMix(light ? 68 : 58, 12)}`,
    `--border: ${mix(light ? 14 : 16, base)}`,
    `--border-strong: ${mix(light ? 24 : 26, base)}`,
    `--code-bg: ${mix(light ? 4.5 : 7, base)}`,
    ...(["info", "success", "warning", "danger"] as const).map(
      (name) => `--${name}: ${themed(s[`${name}Color`], defaults[name])[mode]}`
    ),
    `--shadow: ${s.depth === "flat" ? "none" : light ? "0 1px 2px rgb(16 24 40 / 6%), 0 4px 12px rgb(16 24 40 / 6%)" : "0 1px 2px rgb(0 0 0 / 40%), 0 6px 16px rgb(0 0 0 / 30%)"}`,
    `color-scheme: ${mode}`
  ]
    .map((line) => `${line};`)
    .join("")
}

const shape = (s: Styling): string => {
  const corners = s.corners ?? "rounded"
  const [radius, small, pill] =
    corners === "straight" ? ["0px", "0px", "0px"] : corners === "circular" ? ["16px", "10px", "999px"] : ["10px", "6px", "8px"]
  return [
    `--radius: ${radius}`,
    `--radius-sm: ${small}`,
    `--radius-pill: ${pill}`,
    `--font: ${fontStack(s.font, sans)}`,
    `--font-heading: ${s.headingFont ? fontStack(s.headingFont, sans) : "var(--font)"}`,
    `--font-mono: ${fontStack(s.monospaceFont, mono)}`,
    `--link: ${s.links === "accent" ? "var(--text)" : "var(--primary-text)"}`,
    `--link-underline: ${s.links === "accent" ? "var(--primary)" : "color-mix(in oklab, var(--primary) 40%, transparent)"}`
  ]
    .map((line) => `${line};`)
    .join("")
}

/** The variables of a styling: light by default, dark by `data-theme` or by the reader's system. */
export const themeVariables = (s: Styling): string => {
  const light = palette(s, "light")
  const dark = palette(s, "dark")
  return (
    fontFaceRules(s) +
    `:root{${shape(s)}${light}}` +
    `:root[data-theme="dark"]{${dark}}` +
    `@media (prefers-color-scheme: dark){:root:not([data-theme="light"]){${dark}}}`
  )
}

/** The static sheets, in the order they cascade. */
const iconsCss = siteStatic("icons.css")
const siteCss = siteStatic("site.css")
const pageBodyRules = siteStatic("page-body.css")
const blocksCss = siteStatic("blocks.css")
const headerCss = {
  bold: siteStatic("header-bold.css"),
  gradient: siteStatic("header-gradient.css"),
  muted: siteStatic("header-muted.css")
}

/** The header's look (`styling.theme`): nothing more for "clean". */
const headerTheme = (s: Styling): string => {
  switch (s.theme) {
    case "bold":
    case "gradient":
    case "muted":
      return headerCss[s.theme]
    default:
      return ""
  }
}

/**
 * The stylesheet of page bodies shown outside a site (the browser app's page view, review diff and
 * editor preview): the default theme's variables in light and dark (dark by `data-theme="dark"` on
 * the root element, or by the reader's system), and the same rules a published page's `.markdown`
 * body has, blocks included. Nothing outside `.markdown` but icons and single-theme images.
 */
export const pageBodyCss = (s: Styling = {}): string => themeVariables(s) + iconsCss + pageBodyRules + blocksCss

/** The whole stylesheet of a site with this styling. */
export const themeCss = (s: Styling): string => themeVariables(s) + iconsCss + siteCss + pageBodyRules + blocksCss + headerTheme(s)
