/**
 * The stylesheet of a published site: light and dark palettes as CSS custom properties computed
 * from `customization.styling` (primary and tint colors, corners, depth, links, fonts), then one
 * static sheet for the layout and for the GitBook blocks `Markdown.ts` emits.
 */
import type { Styling, Themed } from "./View.ts"
import { blocksCss } from "./BlocksCss.ts"

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
    `:root{${shape(s)}${light}}` +
    `:root[data-theme="dark"]{${dark}}` +
    `@media (prefers-color-scheme: dark){:root:not([data-theme="light"]){${dark}}}`
  )
}

const headerTheme = (s: Styling): string => {
  switch (s.theme) {
    case "bold":
      // The header takes the primary color; in dark mode a deep shade of it, as a bright bar glares.
      return `:root{--header-bg:var(--primary);--header-fg:var(--primary-contrast)}
:root[data-theme="dark"]{--header-bg:color-mix(in oklab,var(--primary) 28%,var(--bg));--header-fg:var(--text)}
@media (prefers-color-scheme: dark){:root:not([data-theme="light"]){--header-bg:color-mix(in oklab,var(--primary) 28%,var(--bg));--header-fg:var(--text)}}
.site-header{background:var(--header-bg);color:var(--header-fg);border-bottom-color:transparent;backdrop-filter:none}
.site-header :is(.brand,.header-link,.tab,.theme-toggle,.nav-button){color:var(--header-fg)}
.site-header :is(.header-link,.theme-toggle,.nav-button):hover{background:color-mix(in oklab,var(--header-fg) 14%,transparent);color:var(--header-fg)}
.site-header .theme-toggle{border-color:color-mix(in oklab,var(--header-fg) 35%,transparent)}
.site-header .header-link.button-primary{background:var(--header-fg);color:var(--header-bg)}
.site-header .header-link.button-secondary{border-color:color-mix(in oklab,var(--header-fg) 45%,transparent)}
.site-header .tab:hover{box-shadow:inset 0 -2px 0 color-mix(in oklab,var(--header-fg) 40%,transparent)}
.site-header :is(.tab[aria-current=page],.tab.current){color:var(--header-fg);box-shadow:inset 0 -2px 0 var(--header-fg)}
.site-header .search-box{background:color-mix(in oklab,var(--header-fg) 14%,transparent);border-color:transparent;color:var(--header-fg)}
.site-header .search-box:focus-within{background:var(--bg-raised);color:var(--text-subtle)}
.site-header .search-box input::placeholder{color:color-mix(in oklab,var(--header-fg) 75%,transparent)}
.site-header .search-key{background:transparent;color:inherit;border-color:color-mix(in oklab,var(--header-fg) 35%,transparent)}`
    case "gradient":
      return `body{background-image:radial-gradient(ellipse 80% 320px at 50% 0,var(--primary-soft),transparent);background-repeat:no-repeat}
.site-header{background:color-mix(in oklab,var(--bg) 70%,transparent)}`
    case "muted":
      return `.site-header,.sidebar-filled .sidebar{background:var(--bg-subtle)}`
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
export const pageBodyCss = (s: Styling = {}): string =>
  themeVariables(s) + `\n${iconCss}\n${faIconCss}\n${themedImagesCss}\n.markdown img{max-width:100%;height:auto}\n` + pageBodyRules + blocksCss

/** The whole stylesheet of a site with this styling. */
export const themeCss = (s: Styling): string => themeVariables(s) + staticCss + blocksCss + headerTheme(s)

/** SVG icons (Icons.ts), in the chrome and in page bodies. */
const iconCss = `.icon{width:1em;height:1em;transform-origin:50% 50%;transform-box:fill-box;fill:none;stroke:currentColor;stroke-width:2;stroke-linecap:round;stroke-linejoin:round;flex:none}`

/** Images and icons drawn in one theme only. */
const themedImagesCss = `:root[data-theme="dark"] .only-light,:root[data-theme="light"] .only-dark,:root:not([data-theme]) .only-dark{display:none}
@media (prefers-color-scheme: dark){:root:not([data-theme]) .only-dark{display:inline}:root:not([data-theme]) .only-light{display:none}}`

/** Font Awesome icons (`<i class="fa-…">` in pages and page icons). */
const faIconCss = `.fa-icon{width:1em;height:1em;display:inline-block;vertical-align:-.125em;flex:none;overflow:visible}`

/** The rules of a page's body (`.markdown`): text, code, hints, tabs, steppers, columns, cards, embeds, OpenAPI operations. */
const pageBodyRules = `/* markdown */
.markdown{font-size:1rem;line-height:1.72;overflow-wrap:break-word}
.markdown>:first-child{margin-top:0}
.markdown>:last-child{margin-bottom:0}
.markdown :is(h1,h2,h3,h4,h5,h6){font-family:var(--font-heading);color:var(--text);letter-spacing:-.014em;line-height:1.3;scroll-margin-top:8rem;position:relative}
.markdown h1{font-size:1.875rem;margin:2.5rem 0 1rem}
.markdown h2{font-size:1.5rem;margin:2.5rem 0 .85rem;font-weight:650}
.markdown h3{font-size:1.2rem;margin:2rem 0 .6rem;font-weight:650}
.markdown h4{font-size:1.05rem;margin:1.75rem 0 .5rem;font-weight:650}
.markdown :is(h5,h6){font-size:.95rem;margin:1.5rem 0 .5rem;font-weight:650}
.markdown :is(h1,h2,h3,h4,h5,h6)>a:not([href^=http]){color:inherit;text-decoration:none}
.markdown .heading-anchor,.markdown a.anchor{margin-left:.4rem;color:var(--text-subtle);opacity:0;text-decoration:none;font-weight:400}
.markdown :is(h1,h2,h3,h4,h5,h6):hover :is(.heading-anchor,a.anchor){opacity:1}
.markdown p,.markdown ul,.markdown ol,.markdown blockquote,.markdown table,.markdown pre,.markdown figure,.markdown details,.markdown dl{margin:0 0 1.15rem}
.markdown a{color:var(--link);text-decoration:underline;text-decoration-color:var(--link-underline);text-decoration-thickness:1px;text-underline-offset:3px;transition:text-decoration-color .15s}
.markdown a:hover{text-decoration-color:currentColor}
.markdown strong{font-weight:650;color:var(--text)}
.markdown :is(ul,ol){padding-left:1.5rem}
.markdown li{margin:.3rem 0}
.markdown li>:is(ul,ol){margin:.3rem 0 0}
.markdown li::marker{color:var(--text-subtle)}
.markdown .contains-task-list{list-style:none;padding-left:.25rem}
.markdown .task-list-item input{margin:0 .5rem 0 0;accent-color:var(--primary);vertical-align:-.1em}
.markdown hr{border:0;border-top:1px solid var(--border);margin:2.5rem 0}
.markdown blockquote{margin-left:0;padding:.15rem 0 .15rem 1.1rem;border-left:3px solid var(--border-strong);color:var(--text-muted)}
.markdown img{border-radius:var(--radius-sm)}
.markdown figure{text-align:center}
.markdown figure img{display:block;margin:0 auto}
.markdown figcaption{margin-top:.6rem;font-size:.85rem;color:var(--text-subtle)}
.markdown figcaption>p{margin:0}
.markdown mark{background:color-mix(in oklab,var(--warning) 30%,transparent);color:inherit;border-radius:3px;padding:0 .15em}
.markdown kbd{font:500 .8em var(--font-mono);padding:.1em .4em;border:1px solid var(--border-strong);border-bottom-width:2px;border-radius:min(5px,var(--radius-sm));background:var(--bg-subtle)}
.markdown :not(pre)>code{font-family:var(--font-mono);font-size:.85em;padding:.15em .4em;border-radius:min(5px,var(--radius-sm));background:var(--code-bg);border:1px solid var(--border);color:var(--text)}
.markdown table{display:block;width:max-content;max-width:100%;overflow-x:auto;border-collapse:separate;border-spacing:0;border:1px solid var(--border);border-radius:var(--radius-sm);font-size:.9rem}
.markdown th,.markdown td{padding:.6rem .9rem;border-bottom:1px solid var(--border);text-align:left;vertical-align:top}
.markdown th{background:var(--bg-subtle);font-weight:600;color:var(--text)}
.markdown tr:last-child td{border-bottom:0}
.markdown th+th,.markdown td+td{border-left:1px solid var(--border)}
.markdown details{border:1px solid var(--border);border-radius:var(--radius-sm);background:var(--bg-raised)}
.markdown details>summary{padding:.75rem 1rem;cursor:pointer;font-weight:600;color:var(--text)}
.markdown details>:not(summary){margin-left:1rem;margin-right:1rem}
.markdown details[open]>summary{border-bottom:1px solid var(--border);margin-bottom:1rem}
.markdown details>:last-child:not(summary){margin-bottom:1rem}

/* code blocks: Shiki's light and dark colors as variables on each token */
.markdown pre{position:relative;overflow-x:auto;margin:0 0 1.15rem;padding:1rem 1.15rem;border:1px solid var(--border);border-radius:var(--radius-sm);background:var(--code-bg);font-size:.85rem;line-height:1.65;tab-size:2}
.markdown pre code{font-family:var(--font-mono);background:none;border:0;padding:0;font-size:inherit;color:inherit}
.markdown .shiki,.markdown .shiki span{color:var(--shiki-light);font-style:var(--shiki-light-font-style);font-weight:var(--shiki-light-font-weight);text-decoration:var(--shiki-light-text-decoration)}
.markdown pre.shiki{background-color:var(--code-bg)}
:root[data-theme="dark"] .markdown :is(.shiki,.shiki span){color:var(--shiki-dark);font-style:var(--shiki-dark-font-style);font-weight:var(--shiki-dark-font-weight);text-decoration:var(--shiki-dark-text-decoration)}
@media (prefers-color-scheme: dark){:root:not([data-theme="light"]) .markdown :is(.shiki,.shiki span){color:var(--shiki-dark);font-style:var(--shiki-dark-font-style);font-weight:var(--shiki-dark-font-weight);text-decoration:var(--shiki-dark-text-decoration)}}
.markdown .code-block{margin:0 0 1.15rem;border:1px solid var(--border);border-radius:var(--radius-sm);background:var(--code-bg);overflow:hidden}
.markdown .code-block pre{margin:0;border:0;border-radius:0}
.markdown .code-block .code-frame{margin:0}
.markdown .code-title{display:flex;align-items:center;gap:.5rem;padding:.5rem 1.15rem;border-bottom:1px solid var(--border);background:var(--bg-subtle);font:500 .8125rem var(--font-mono);color:var(--text-muted)}
.markdown .code-wrap pre{white-space:pre-wrap;overflow-wrap:anywhere}
.markdown .line-numbers code{counter-reset:line}
.markdown .line-numbers .line::before{counter-increment:line;content:counter(line);display:inline-block;width:2ch;margin-right:1.25rem;text-align:right;color:var(--text-subtle);opacity:.6}
.markdown .code-frame{position:relative;margin:0 0 1.15rem}
.markdown .code-frame>pre{margin:0}
.markdown .copy-code{position:absolute;top:.5rem;right:.5rem;padding:.2rem .55rem;border:1px solid var(--border);border-radius:var(--radius-sm);background:var(--bg-raised);color:var(--text-muted);font:500 .75rem var(--font);cursor:pointer;opacity:0;transition:opacity .15s}
.markdown .code-frame:hover .copy-code,.markdown .copy-code:focus-visible{opacity:1}
.markdown .copy-code:hover{color:var(--text)}

/* hints */
.markdown .hint{--hint:var(--info);position:relative;margin:0 0 1.15rem;padding:.85rem 1rem .85rem 2.85rem;border:1px solid color-mix(in oklab,var(--hint) 30%,var(--border));border-radius:var(--radius-sm);background:color-mix(in oklab,var(--hint) 8%,var(--bg));color:var(--text)}
.markdown .hint::before{content:"";position:absolute;left:1rem;top:1.12rem;width:1.1rem;height:1.1rem;background:var(--hint);-webkit-mask:var(--hint-icon) center/contain no-repeat;mask:var(--hint-icon) center/contain no-repeat}
.markdown .hint>:last-child{margin-bottom:0}
.markdown .hint>:first-child{margin-top:0}
.markdown .hint a{color:inherit;text-decoration-color:color-mix(in oklab,var(--hint) 60%,transparent)}
.markdown .hint :not(pre)>code{background:color-mix(in oklab,var(--hint) 10%,var(--bg));border-color:color-mix(in oklab,var(--hint) 25%,transparent)}
.markdown :is(.hint,.hint-info){--hint-icon:url("data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 24 24'%3E%3Cpath d='M12 2a10 10 0 1 0 0 20 10 10 0 0 0 0-20Zm1 15h-2v-6h2Zm0-8h-2V7h2Z'/%3E%3C/svg%3E")}
.markdown .hint-success{--hint:var(--success);--hint-icon:url("data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 24 24'%3E%3Cpath d='M12 2a10 10 0 1 0 0 20 10 10 0 0 0 0-20Zm-1.5 14.5-4-4 1.4-1.4 2.6 2.6 5.6-5.6 1.4 1.4Z'/%3E%3C/svg%3E")}
.markdown .hint-warning{--hint:var(--warning);--hint-icon:url("data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 24 24'%3E%3Cpath d='M12 2 1 21h22L12 2Zm1 16h-2v-2h2Zm0-4h-2V9h2Z'/%3E%3C/svg%3E")}
.markdown .hint-danger{--hint:var(--danger);--hint-icon:url("data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 24 24'%3E%3Cpath d='M12 2a10 10 0 1 0 0 20 10 10 0 0 0 0-20Zm1 15h-2v-2h2Zm0-4h-2V7h2Z'/%3E%3C/svg%3E")}

/* tabs block: a radio input, its label and its panel per tab; the checked one shows, without JavaScript */
.markdown .tabs{display:flex;flex-wrap:wrap;margin:0 0 1.15rem;padding:0 .5rem;border:1px solid var(--border);border-radius:var(--radius-sm);background:var(--bg-subtle);overflow:hidden}
.markdown .tabs>.tab-input{position:absolute;opacity:0;width:1px;height:1px;pointer-events:none}
.markdown .tabs>.tab-label{order:1;padding:.6rem .75rem;font-size:.875rem;font-weight:550;color:var(--text-muted);cursor:pointer;white-space:nowrap;box-shadow:inset 0 -2px 0 transparent;transition:color .15s}
.markdown .tabs>.tab-label:hover{color:var(--text)}
.markdown .tabs>.tab-input:checked+.tab-label{color:var(--primary-text);box-shadow:inset 0 -2px 0 var(--primary)}
.markdown .tabs>.tab-input:focus-visible+.tab-label{outline:2px solid var(--primary);outline-offset:-2px}
.markdown .tabs>.tab-panel{order:2;display:none;width:calc(100% + 1rem);margin:0 -.5rem;padding:1rem 1.15rem;border-top:1px solid var(--border);background:var(--bg-raised)}
.markdown .tabs>.tab-input:checked+.tab-label+.tab-panel{display:block}
.markdown .tabs>.tab-panel>:last-child{margin-bottom:0}
.markdown .tab-panel :is(pre,.code-block,.code-frame){margin-bottom:1rem}
.markdown .tab-panel>:is(pre,.code-block,.code-frame):last-child{margin-bottom:0}
.markdown .tabs>.tab-panel:has(>:only-child:is(pre,.code-block,.code-frame)){padding:0;background:var(--code-bg)}
.markdown .tab-panel>:only-child:is(pre,.code-block),.markdown .tab-panel>.code-frame:only-child>pre{border:0;border-radius:0}

/* stepper */
.markdown .stepper{list-style:none;padding:0;margin:0 0 1.15rem;counter-reset:step}
.markdown .stepper>.step{position:relative;padding:0 0 1.25rem 2.75rem;margin:0;counter-increment:step}
.markdown .stepper>.step::before{content:counter(step);position:absolute;left:0;top:0;width:1.85rem;height:1.85rem;display:grid;place-items:center;border-radius:50%;background:var(--primary-soft);color:var(--primary-text);font-weight:700;font-size:.85rem}
.markdown .stepper>.step::after{content:"";position:absolute;left:.92rem;top:2.3rem;bottom:.4rem;width:1px;background:var(--border)}
.markdown .stepper>.step:last-child{padding-bottom:0}
.markdown .stepper>.step:last-child::after{display:none}
.markdown .stepper>.step>:first-child{margin-top:.15rem}
.markdown .stepper>.step>:last-child{margin-bottom:0}
.markdown .stepper>.step>:is(h2,h3,h4):first-child{font-size:1.05rem;margin-top:.2rem}

/* columns */
.markdown .columns{display:flex;flex-wrap:wrap;gap:1.5rem;margin:0 0 1.15rem}
.markdown .columns>.column{flex:1 1 16rem;min-width:0}
.markdown .column>:last-child{margin-bottom:0}

/* GitBook's card tables: a grid of cards, a row each; the first cell holding only a link (GitBook's
   card target) covers the card, and link-only cells are otherwise hidden (targets and covers) */
.markdown table.cards{display:block;width:100%;max-width:none;overflow:visible;border:0;border-radius:0;font-size:inherit}
.markdown table.cards thead{display:none}
.markdown table.cards tbody{display:grid;grid-template-columns:repeat(auto-fill,minmax(210px,1fr));gap:1rem}
.markdown table.cards tr{position:relative;display:flex;flex-direction:column;gap:.3rem;padding:1rem 1.15rem;border:1px solid var(--border);border-radius:var(--radius);background:var(--bg-raised);transition:border-color .15s,box-shadow .15s}
.markdown table.cards tr:has(td>a:only-child):hover{border-color:var(--primary);box-shadow:var(--shadow)}
.markdown table.cards td{display:block;padding:0;border:0;font-size:.9rem;color:var(--text-muted)}
.markdown table.cards td:first-child{font-size:1rem;color:var(--text)}
.markdown table.cards td:empty{display:none}
.markdown table.cards td:not(:first-child):has(>a:only-child){position:static;width:0;height:0;overflow:hidden}
.markdown table.cards td:not(:first-child):has(>a:only-child):not(td:has(>a:only-child)~td) a::after{content:"";position:absolute;inset:0;border-radius:inherit}

/* content-ref cards, file links, embeds */
.markdown :is(.content-ref,.file,.embed){margin:0 0 1.15rem}
.markdown :is(.content-ref-link,.file-link,.embed-link){display:flex;align-items:center;gap:.85rem;padding:.85rem 1.1rem;border:1px solid var(--border);border-radius:var(--radius-sm);background:var(--bg-raised);text-decoration:none;color:var(--text);transition:border-color .15s,box-shadow .15s}
.markdown a:is(.content-ref-link,.file-link,.embed-link):hover{border-color:var(--primary);box-shadow:var(--shadow)}
.markdown .content-ref-title{font-weight:600}
.markdown .content-ref-link::before,.markdown .file-link::before,.markdown .embed-link::before{content:"";width:1.15rem;height:1.15rem;flex:none;background:var(--text-subtle);-webkit-mask:var(--card-icon) center/contain no-repeat;mask:var(--card-icon) center/contain no-repeat}
.markdown .content-ref-link{--card-icon:url("data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 24 24' fill='none' stroke='black' stroke-width='2' stroke-linejoin='round'%3E%3Cpath d='M6 3h8l5 5v13H6Z'/%3E%3Cpath d='M13 3v6h6M9 13h7M9 17h5'/%3E%3C/svg%3E")}
.markdown .content-ref-link::after{content:"";width:1rem;height:1rem;margin-left:auto;background:var(--text-subtle);-webkit-mask:url("data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 24 24' fill='none' stroke='black' stroke-width='2' stroke-linecap='round' stroke-linejoin='round'%3E%3Cpath d='m9 6 6 6-6 6'/%3E%3C/svg%3E") center/contain no-repeat;mask:url("data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 24 24' fill='none' stroke='black' stroke-width='2' stroke-linecap='round' stroke-linejoin='round'%3E%3Cpath d='m9 6 6 6-6 6'/%3E%3C/svg%3E") center/contain no-repeat}
.markdown .content-ref-link:hover :is(.content-ref-title){color:var(--primary-text)}
.markdown .file-link{--card-icon:url("data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 24 24' fill='none' stroke='black' stroke-width='2' stroke-linecap='round' stroke-linejoin='round'%3E%3Cpath d='M12 3v12m0 0-4-4m4 4 4-4M5 21h14'/%3E%3C/svg%3E")}
.markdown .file-name{font-weight:600}
.markdown .file-type{margin-left:auto;font-size:.8rem;color:var(--text-subtle)}
.markdown .embed-link{--card-icon:url("data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 24 24' fill='none' stroke='black' stroke-width='2' stroke-linecap='round' stroke-linejoin='round'%3E%3Cpath d='M10 14a4 4 0 0 0 5.7 0l3-3a4 4 0 0 0-5.7-5.7l-1 1M14 10a4 4 0 0 0-5.7 0l-3 3a4 4 0 0 0 5.7 5.7l1-1'/%3E%3C/svg%3E")}
.markdown .embed-host{font-weight:600}
.markdown .embed-url{min-width:0;font-size:.8125rem;color:var(--text-subtle);overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
.markdown :is(.embed-caption,.file-caption){padding:.5rem .25rem 0;font-size:.85rem;color:var(--text-subtle)}
.markdown :is(.embed-caption,.file-caption)>p{margin:0}
.markdown .broken-link{color:var(--danger);text-decoration:line-through wavy;cursor:not-allowed}
.markdown .broken-image{display:none}

/* OpenAPI operations */
.markdown .openapi-operation{margin:0 0 1.15rem;padding:1rem 1.15rem;border:1px solid var(--border);border-radius:var(--radius-sm);background:var(--bg-raised)}
.markdown .openapi-header{display:flex;flex-wrap:wrap;align-items:center;gap:.6rem}
.markdown .openapi-method{--method:var(--info);padding:.1rem .5rem;border-radius:var(--radius-sm);background:color-mix(in oklab,var(--method) 14%,var(--bg));color:var(--method);font:700 .75rem var(--font-mono);letter-spacing:.04em}
.markdown :is(.openapi-method-post){--method:var(--success)}
.markdown :is(.openapi-method-put,.openapi-method-patch){--method:var(--warning)}
.markdown :is(.openapi-method-delete){--method:var(--danger)}
.markdown :is(.openapi-method-get,.openapi-method-head,.openapi-method-options,.openapi-method-trace){--method:var(--info)}
.markdown .openapi-path{font:600 .9rem var(--font-mono);overflow-wrap:anywhere}
.markdown .openapi-deprecated{font-size:.75rem;color:var(--danger);text-decoration:line-through}
.markdown .openapi-summary{margin:.6rem 0 .25rem;font-weight:600}
.markdown .openapi-description{margin:0 0 .5rem;color:var(--text-muted)}
.markdown .openapi-section-title{margin:1rem 0 .4rem;font-size:.8rem;font-weight:700;text-transform:uppercase;letter-spacing:.05em;color:var(--text-muted)}
.markdown .openapi-parameters{margin:0 0 .5rem;font-size:.875rem}
.markdown .openapi-schema{margin:0 0 .4rem;font:.8125rem var(--font-mono);color:var(--text-subtle)}
.markdown .openapi-body>p{margin:0 0 .4rem}
.markdown .openapi-responses{margin:0;padding:0;list-style:none}
.markdown .openapi-response{margin:0 0 .6rem}
.markdown .openapi-status{font:700 .875rem var(--font-mono)}
.markdown .openapi-example{margin:.4rem 0 0}
.markdown .openapi-example pre{margin:0}
.markdown .openapi-missing{margin:0 0 1.15rem;padding:.75rem 1rem;border:1px dashed var(--danger);border-radius:var(--radius-sm);color:var(--danger)}

`

const staticCss = `
*,*::before,*::after{box-sizing:border-box}
html{-webkit-text-size-adjust:100%;text-size-adjust:100%;scroll-padding-top:8rem}
body{margin:0;background:var(--bg);color:var(--text);font-family:var(--font);font-size:16px;line-height:1.65;-webkit-font-smoothing:antialiased;text-rendering:optimizeLegibility}
a{color:inherit}
img{max-width:100%;height:auto}
${iconCss}
.visually-hidden{position:absolute!important;width:1px;height:1px;margin:-1px;padding:0;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap;border:0}
.skip-link{position:absolute;left:1rem;top:-3rem;z-index:100;padding:.5rem .75rem;background:var(--primary);color:var(--primary-contrast);border-radius:var(--radius-sm)}
.skip-link:focus{top:1rem}
:focus-visible{outline:2px solid var(--primary);outline-offset:2px}
${themedImagesCss}

/* announcement */
.announcement{padding:.55rem 1rem;text-align:center;font-size:.875rem;font-weight:500;background:color-mix(in oklab,var(--info) 14%,var(--bg));color:var(--text);border-bottom:1px solid var(--border)}
.announcement.warning{background:color-mix(in oklab,var(--warning) 16%,var(--bg))}
.announcement.danger{background:color-mix(in oklab,var(--danger) 14%,var(--bg))}
.announcement.success{background:color-mix(in oklab,var(--success) 14%,var(--bg))}
.announcement a{text-decoration:underline;text-underline-offset:3px}

/* header */
.site-header{position:sticky;top:0;z-index:30;background:color-mix(in oklab,var(--bg) 86%,transparent);backdrop-filter:saturate(1.4) blur(12px);-webkit-backdrop-filter:saturate(1.4) blur(12px);border-bottom:1px solid var(--border)}
.header-bar{display:flex;align-items:center;gap:1.25rem;max-width:1440px;margin:0 auto;padding:0 1.5rem;height:64px}
.brand{display:flex;align-items:center;gap:.6rem;text-decoration:none;color:var(--text);font-weight:650;font-size:1.0625rem;letter-spacing:-.01em;min-width:0;flex:none}
.brand .logo{height:30px;width:auto;display:block}
.brand-title{white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
.nav-button{display:none;align-items:center;justify-content:center;width:36px;height:36px;margin-left:-.5rem;border-radius:var(--radius-sm);cursor:pointer;color:var(--text-muted);font-size:1.25rem}
.nav-button:hover{background:var(--bg-muted);color:var(--text)}
.nav-toggle{position:absolute;opacity:0;pointer-events:none}
.nav-backdrop{display:none;position:fixed;inset:0;z-index:45;background:rgb(0 0 0 / 35%)}
.search{position:relative;flex:1 1 0;min-width:0;max-width:420px;margin-left:auto}
.search-box{display:flex;align-items:center;gap:.5rem;height:38px;padding:0 .75rem;border:1px solid var(--border);border-radius:var(--radius-pill);background:var(--bg-subtle);color:var(--text-subtle);cursor:text;transition:border-color .15s,box-shadow .15s,background .15s}
.search-box:hover{border-color:var(--border-strong)}
.search-box:focus-within{border-color:var(--primary);box-shadow:0 0 0 3px var(--primary-soft);background:var(--bg-raised)}
.search-box input{flex:1;min-width:0;border:0;outline:0;background:transparent;color:var(--text);font:inherit;font-size:.9rem}
.search-box input::placeholder{color:var(--text-subtle)}
.search-box input::-webkit-search-cancel-button{display:none}
.search-key{font:500 .75rem var(--font);color:var(--text-subtle);border:1px solid var(--border);border-radius:5px;padding:0 .4rem;line-height:1.5;background:var(--bg)}
.search-box:focus-within .search-key{display:none}
.search-results{position:absolute;left:0;right:0;top:calc(100% + 6px);max-height:min(70vh,480px);overflow:auto;padding:.375rem;background:var(--bg-raised);border:1px solid var(--border);border-radius:var(--radius);box-shadow:0 12px 32px rgb(0 0 0 / 16%);z-index:40}
.search-result{display:grid;gap:.1rem;padding:.55rem .7rem;border-radius:var(--radius-sm);text-decoration:none}
.search-result:hover,.search-result.active{background:var(--primary-soft)}
.search-result-title{font-weight:600;color:var(--text);font-size:.9rem}
.search-result-section{font-size:.75rem;color:var(--primary-text);font-weight:500}
.search-result-snippet{font-size:.8125rem;color:var(--text-muted);display:-webkit-box;-webkit-line-clamp:2;-webkit-box-orient:vertical;overflow:hidden}
.search-empty{margin:0;padding:.75rem;color:var(--text-muted);font-size:.875rem}
.header-links{display:flex;align-items:center;gap:.25rem;flex:none}
.header-link{display:inline-flex;align-items:center;gap:.25rem;padding:.4rem .7rem;border-radius:var(--radius-pill);font-size:.875rem;font-weight:500;color:var(--text-muted);text-decoration:none;cursor:pointer;white-space:nowrap}
.header-link:hover{color:var(--text);background:var(--bg-muted)}
.header-link.button-primary{background:var(--primary);color:var(--primary-contrast)}
.header-link.button-primary:hover{background:color-mix(in oklab,var(--primary) 88%,black)}
.header-link.button-secondary{border:1px solid var(--border-strong);color:var(--text)}
.theme-toggle{display:inline-flex;align-items:center;justify-content:center;width:36px;height:36px;flex:none;border:1px solid var(--border);border-radius:var(--radius-pill);background:transparent;color:var(--text-muted);cursor:pointer;font-size:1.05rem}
.theme-toggle[hidden]{display:none}
.theme-toggle:hover{color:var(--text);background:var(--bg-muted)}
.theme-toggle .moon{display:none}
:root[data-theme="dark"] .theme-toggle .moon{display:block}:root[data-theme="dark"] .theme-toggle .sun{display:none}
@media (prefers-color-scheme: dark){:root:not([data-theme]) .theme-toggle .moon{display:block}:root:not([data-theme]) .theme-toggle .sun{display:none}}

/* menus (details/summary: open without JavaScript) */
.menu{position:relative}
.menu>summary{list-style:none;cursor:pointer}
.menu>summary::-webkit-details-marker{display:none}
.menu>summary .icon{font-size:.9em;transition:transform .15s;opacity:.7}
.menu[open]>summary .icon{transform:rotate(180deg)}
.menu-list{position:absolute;top:calc(100% + 6px);left:0;z-index:40;min-width:220px;margin:0;padding:.375rem;list-style:none;background:var(--bg-raised);border:1px solid var(--border);border-radius:var(--radius);box-shadow:0 12px 32px rgb(0 0 0 / 14%)}
.menu-list a{display:flex;align-items:center;gap:.5rem;padding:.45rem .7rem;border-radius:var(--radius-sm);text-decoration:none;font-size:.875rem;color:var(--text);white-space:nowrap}
.menu-list a:hover{background:var(--bg-muted)}
.menu-list a[aria-current=page]{color:var(--primary-text);background:var(--primary-soft);font-weight:600}
.header-menu .menu-list{left:auto;right:0}

/* tabs */
.site-tabs{max-width:1440px;margin:0 auto;padding:0 1.5rem}
.site-tabs>ul{display:flex;gap:1.5rem;margin:0;padding:0;list-style:none;overflow-x:auto;scrollbar-width:none}
.site-tabs>ul::-webkit-scrollbar{display:none}
.site-tabs>ul>li{flex:none}
.tab{display:inline-flex;align-items:center;gap:.4rem;height:44px;font-size:.875rem;font-weight:500;color:var(--text-muted);text-decoration:none;box-shadow:inset 0 -2px 0 transparent;transition:color .15s,box-shadow .15s}
.tab:hover{color:var(--text);box-shadow:inset 0 -2px 0 var(--border-strong)}
.tab[aria-current=page],.tab.current{color:var(--primary-text);box-shadow:inset 0 -2px 0 var(--primary);font-weight:600}
.site-tabs .menu{position:static}
.site-tabs .menu-list{top:auto;left:auto;margin-top:1px}

/* layout */
.layout{display:grid;grid-template-columns:280px minmax(0,1fr) 232px;gap:0 3rem;max-width:1440px;margin:0 auto;padding:0 1.5rem;align-items:start}
.sidebar{position:sticky;top:var(--header-height,109px);max-height:calc(100vh - var(--header-height,109px));overflow-y:auto;padding:1.5rem .5rem 3rem 0;scrollbar-width:thin;scrollbar-color:var(--border) transparent}
.site-header:not(:has(.site-tabs))~.layout .sidebar,.site-header:not(:has(.site-tabs))~.layout .toc{--header-height:65px}
.main{min-width:0;padding:2.5rem 0 4rem}
.toc{position:sticky;top:var(--header-height,109px);max-height:calc(100vh - var(--header-height,109px));overflow-y:auto;padding:2.75rem 0 2rem}
.layout.no-sidebar{grid-template-columns:minmax(0,1fr) 232px}
.layout.no-outline{grid-template-columns:280px minmax(0,1fr)}
.layout.no-sidebar.no-outline{grid-template-columns:minmax(0,1fr)}
.page-wide .page{max-width:none}
.no-sidebar:not(.page-wide) .page,.no-sidebar:not(.page-wide) .pagination{max-width:768px}

/* sidebar tree */
.tree ul{list-style:none;margin:0;padding:0}
.tree ul ul{margin-left:.85rem;padding-left:.6rem;border-left:1px solid var(--border)}
.tree .tree-group>ul{margin-left:0;padding-left:0;border-left:0}
.tree-group{margin-top:1.5rem}
.tree>ul>.tree-group:first-child{margin-top:0}
.tree-heading{margin:0 0 .35rem;padding:0 .75rem;font-size:.75rem;font-weight:650;letter-spacing:.04em;text-transform:uppercase;color:var(--text)}
.tree-link{display:flex;align-items:center;gap:.5rem;padding:.36rem .75rem;border-radius:var(--radius-sm);font-size:.875rem;line-height:1.4;color:var(--text-muted);text-decoration:none;flex:1;min-width:0}
.tree-link:hover{color:var(--text);background:var(--bg-muted)}
.tree-link[aria-current=page]{color:var(--primary-text);background:var(--primary-soft);font-weight:600}
.tree-link .external{margin-left:auto;opacity:.55;font-size:.8em}
.tree-link .emoji{font-size:.95em}
.tree-branch>summary{display:flex;align-items:center;list-style:none;cursor:pointer;border-radius:var(--radius-sm)}
.tree-branch>summary::-webkit-details-marker{display:none}
.tree-branch>summary .chevron{width:26px;height:26px;padding:6px;margin-left:-28px;order:1;flex:none;color:var(--text-subtle);transition:transform .15s;border-radius:var(--radius-sm)}
.tree-branch>summary .tree-link{padding-right:2rem}
.tree-branch>summary:hover .chevron{color:var(--text)}
.tree-branch[open]>summary .chevron{transform:rotate(90deg)}
.tree-branch>ul{margin-top:.1rem;margin-bottom:.25rem}
.sidebar-pill .tree-link[aria-current=page]{border-radius:999px}
.sidebar-line .tree ul{border-left:1px solid var(--border);margin-left:.5rem;padding-left:0}
.sidebar-line .tree>ul{border-left:0;margin-left:0}
.sidebar-line .tree-heading{padding-left:.75rem}
.sidebar-line .tree .tree-group>ul{margin-left:.75rem;border-left:1px solid var(--border)}
.sidebar-line .tree-link{border-radius:0;margin-left:-1px;border-left:2px solid transparent}
.sidebar-line .tree-link[aria-current=page]{border-left-color:var(--primary);background:transparent}
.sidebar-filled .sidebar{height:calc(100vh - var(--header-height,109px));background:var(--bg-subtle);border-right:1px solid var(--border);padding-left:1rem;margin-left:-1.5rem;padding-left:1.5rem}
.variants{margin:0 0 1.25rem}
.variants>summary{display:flex;align-items:center;justify-content:space-between;gap:.5rem;padding:.5rem .75rem;border:1px solid var(--border);border-radius:var(--radius-sm);background:var(--bg-raised);font-size:.875rem;font-weight:550;box-shadow:var(--shadow)}
.variants>summary:hover{border-color:var(--border-strong)}
.variants .menu-list{right:0}

/* page */
.page{max-width:768px;margin:0 auto}
.page-cover{height:var(--cover-height,240px);margin:0 auto 2rem;max-width:768px;border-radius:var(--radius);overflow:hidden;background:var(--bg-muted)}
.page-cover img{width:100%;height:100%;max-width:none;object-fit:cover;object-position:50% 0;display:block}
.page-wide .page-cover,.page-cover.cover-full{max-width:none}
.page-cover.cover-background{max-width:none;margin-top:-1rem;border-radius:0;background:transparent;-webkit-mask-image:linear-gradient(#000 70%,transparent);mask-image:linear-gradient(#000 70%,transparent)}
:root[data-theme="dark"] .page-cover img.only-light,:root:not([data-theme]) .page-cover img.only-dark{display:none}
@media (prefers-color-scheme: dark){:root:not([data-theme]) .page-cover img.only-dark{display:block}}
${faIconCss}
.page-icon{display:inline-flex;align-items:center;color:var(--primary-text)}
.tab-icon{display:inline-flex;align-items:center;font-size:.95em;opacity:.85}
.tree-link .page-icon{font-size:.95em;color:inherit;opacity:.85}
.page-header h1 .page-icon,.page-header h1 .emoji{margin-right:.15em}
.page-header{margin-bottom:2rem}
.page-header h1{margin:0;font-family:var(--font-heading);font-size:2.25rem;line-height:1.2;font-weight:700;letter-spacing:-.022em;color:var(--text)}
.page-description{margin:.75rem 0 0;font-size:1.125rem;line-height:1.55;color:var(--text-muted)}
.eyebrow{margin:0 0 .5rem;font-weight:700;color:var(--primary-text);letter-spacing:.08em}
.page-meta{display:flex;flex-wrap:wrap;align-items:center;justify-content:space-between;gap:1rem;margin-top:3.5rem;padding-top:1.25rem;border-top:1px solid var(--border);font-size:.8125rem;color:var(--text-subtle)}
.page-meta p{margin:0}
.edit-link{display:inline-flex;align-items:center;gap:.4rem;color:var(--text-muted);text-decoration:none;font-weight:500}
.edit-link:hover{color:var(--primary-text)}
.pagination{display:grid;grid-template-columns:1fr 1fr;gap:1rem;max-width:768px;margin:2rem auto 0}
.pager{display:flex;align-items:center;gap:.75rem;padding:.9rem 1.1rem;border:1px solid var(--border);border-radius:var(--radius);text-decoration:none;color:var(--text-subtle);transition:border-color .15s,box-shadow .15s,color .15s;background:var(--bg-raised)}
.pager:hover{border-color:var(--primary);color:var(--primary-text);box-shadow:var(--shadow)}
.pager>span{display:grid;min-width:0}
.pager small{font-size:.75rem;color:var(--text-subtle)}
.pager-title{font-weight:600;color:var(--text);overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
.pager:hover .pager-title{color:var(--primary-text)}
.pager.next{justify-content:flex-end;text-align:right;grid-column:2}
.pager .icon{font-size:1.1rem}
.button{display:inline-flex;align-items:center;gap:.4rem;padding:.55rem 1rem;border-radius:var(--radius-pill);background:var(--primary);color:var(--primary-contrast);text-decoration:none;font-weight:600;font-size:.9rem}

/* table of contents */
.toc h2{margin:0 0 .75rem;font-size:.75rem;font-weight:650;letter-spacing:.04em;text-transform:uppercase;color:var(--text)}
.toc ul{list-style:none;margin:0;padding:0;border-left:1px solid var(--border)}
.toc li a{display:block;padding:.28rem 0 .28rem .9rem;margin-left:-1px;border-left:1px solid transparent;font-size:.8125rem;line-height:1.45;color:var(--text-muted);text-decoration:none}
.toc li.depth-3 a{padding-left:1.7rem}
.toc li a:hover{color:var(--text);border-left-color:var(--border-strong)}
.toc li a.active{color:var(--primary-text);border-left-color:var(--primary)}

/* search page */
.search-page-results{list-style:none;margin:0;padding:0;display:grid;gap:.75rem}
.search-page-results li{padding:1rem 1.15rem;border:1px solid var(--border);border-radius:var(--radius);background:var(--bg-raised)}
.search-page-results a{display:flex;flex-wrap:wrap;align-items:baseline;gap:.6rem;text-decoration:none}
.search-page-results a:hover .search-result-title{color:var(--primary-text)}
.search-page-results .search-result-title{font-size:1rem}
.search-page-results .search-result-snippet{margin:.35rem 0 0;-webkit-line-clamp:3}
.search-hint{color:var(--text-muted)}

/* footer */
.site-footer{border-top:1px solid var(--border);background:var(--bg-subtle);margin-top:2rem}
.footer-inner{max-width:1440px;margin:0 auto;padding:2.5rem 1.5rem;display:grid;gap:2rem 3rem;grid-template-columns:minmax(0,280px) 1fr}
.footer-brand{font-weight:650;color:var(--text);text-decoration:none}
.footer-logo .logo{height:28px;width:auto}
.footer-groups{display:grid;grid-template-columns:repeat(auto-fill,minmax(150px,200px));gap:2rem;grid-column:2}
.footer-group h2{margin:0 0 .6rem;font-size:.8125rem;font-weight:650;color:var(--text)}
.footer-group ul{list-style:none;margin:0;padding:0;display:grid;gap:.35rem}
.footer-group a{font-size:.875rem;color:var(--text-muted);text-decoration:none}
.footer-group a:hover{color:var(--text)}
.copyright{grid-column:1/-1;margin:0;font-size:.8125rem;color:var(--text-subtle)}

${pageBodyRules}/* refusal pages (share link, sign-in) */
.refusal-body .header-bar{justify-content:flex-start}
.refusal{display:flex;justify-content:center;padding:12vh 1.25rem 4rem}
.refusal-card{width:100%;max-width:560px;margin:0;padding:2.25rem 2rem;border:1px solid var(--border);border-radius:var(--radius);background:var(--bg-raised);box-shadow:var(--shadow)}
.refusal-card .page-header{margin-bottom:1.5rem}
.refusal-card .page-header h1{font-size:1.75rem}
.refusal-card>:last-child,.refusal-card .page-description{margin-bottom:0}

/* responsive */
@media (max-width:1200px){
.layout{grid-template-columns:260px minmax(0,1fr);gap:0 2.5rem}
.toc{display:none}
.layout.no-sidebar{grid-template-columns:minmax(0,1fr)}
}
@media (max-width:900px){
.header-bar{padding:0 1rem;gap:.75rem}
.nav-button{display:inline-flex}
.header-links{display:none}
.search{max-width:none}
.search-key{display:none}
.site-tabs{padding:0 1rem}
.layout{display:block;padding:0 1.25rem}
.sidebar{position:fixed;z-index:50;top:0;left:0;bottom:0;width:min(320px,86vw);max-height:none;padding:1.25rem 1rem 2rem;background:var(--bg);border-right:1px solid var(--border);box-shadow:0 0 40px rgb(0 0 0 / 25%);transform:translateX(-105%);transition:transform .2s ease;visibility:hidden}
.nav-toggle:checked~.layout .sidebar{transform:none;visibility:visible}
.sidebar-filled .sidebar{height:auto;margin-left:0;padding-left:1rem}
.nav-toggle:checked~.layout .nav-backdrop{display:block}
.main{padding-top:1.75rem}
.page-header h1{font-size:1.875rem}
.footer-inner{grid-template-columns:1fr}
.footer-groups{grid-column:1}
}
@media (max-width:560px){
.page-cover{height:min(var(--cover-height,240px),50vw)}
.refusal-card{padding:1.75rem 1.25rem}
.header-bar{gap:.5rem}
.brand{flex:1 1 auto}
.brand-title{white-space:normal;line-height:1.2;display:-webkit-box;-webkit-line-clamp:2;-webkit-box-orient:vertical;overflow-wrap:anywhere}
.search{flex:0 0 38px;margin-left:0}
.search .search-box{width:38px;padding:0;justify-content:center;cursor:pointer}
.search .search-box input{position:absolute;width:1px;opacity:0}
.search:focus-within{position:absolute;left:.75rem;right:.75rem;top:13px;z-index:35}
.search:focus-within .search-box{width:auto;padding:0 .75rem;justify-content:flex-start}
.search:focus-within .search-box input{position:static;width:auto;opacity:1}
.pagination{grid-template-columns:1fr}
.pager.next{grid-column:1}
}
@media (prefers-reduced-motion:reduce){*{transition:none!important}}
@media print{.site-header,.sidebar,.toc,.pagination,.site-footer,.announcement{display:none}.layout{display:block}}
`
