/**
 * A site's customization with every setting GitBook's `SiteCustomizationSettings` requires filled
 * in: what the site stored, and GitBook's default for what it did not. GitBook's renderer reads
 * these settings without checking that they are there (`customization.styling.font`,
 * `customization.socialAccounts.filter(...)`), so an answer it reads must hold them all. The
 * defaults are those of a new GitBook site, except where Quire's own published site shows
 * something else by default (no feedback or trademark; its page actions are what it serves: each
 * page's markdown at `<page>.md`, and its MCP server at `~gitbook/mcp`), so both draw the same site.
 */
import type { SiteCustomization } from "./Customization.ts"

type Styling = NonNullable<SiteCustomization["styling"]>
type Themed = { readonly light: string; readonly dark: string }

const same = (color: string): Themed => ({ light: color, dark: color })

/** GitBook's `CustomizationLocale`: the languages its renderer has translations for. */
export const gitbookLocales: ReadonlyArray<string> = ["en", "fr", "es", "zh", "ja", "de", "nl", "no", "pt-br", "ru"]

/** GitBook's default styling of a new site (its colors are those of `@gitbook/colors`). */
export const defaultStyling = {
  theme: "clean",
  // Quire's site and its customization screen draw a lighter blue in dark mode (Theme.ts, customization-model.ts).
  primaryColor: { light: "#346DDB", dark: "#6F9CF2" },
  infoColor: same("#787878"),
  successColor: same("#00C950"),
  warningColor: same("#FE9A00"),
  dangerColor: same("#FB2C36"),
  corners: "rounded",
  depth: "subtle",
  links: "default",
  font: "Inter",
  monospaceFont: "IBMPlexMono",
  background: "plain",
  icons: "regular",
  codeTheme: {
    default: { light: "default-light", dark: "default-dark" },
    openapi: { light: "default-light", dark: "default-dark" }
  },
  sidebar: { background: "default", list: "default" },
  search: "prominent"
} satisfies Styling

/**
 * The page actions of a site that chose none: what Quire's own site serves for every page then
 * (`mcpOffered` in the server: its MCP server is on unless page actions leave `mcp` out).
 */
export const servedPageActions = ["markdown", "mcp"] as const

/** `settings` with every setting GitBook requires; what was stored wins over each default, field by field. */
export const withDefaults = (settings: SiteCustomization): SiteCustomization => {
  const styling = settings.styling ?? {}
  const locale = settings.internationalization?.locale
  return {
    ...settings,
    styling: {
      ...defaultStyling,
      ...styling,
      sidebar: { ...defaultStyling.sidebar, ...styling.sidebar }
    },
    // A language GitBook has no translations for reads as English there.
    internationalization: { locale: locale !== undefined && gitbookLocales.includes(locale) ? locale : "en" },
    favicon: settings.favicon ?? {},
    header: { preset: "default", links: [], ...settings.header },
    footer: { groups: [], ...settings.footer },
    ...(settings.announcement === undefined
      ? {}
      : { announcement: { message: "", style: "info", ...settings.announcement } }),
    themes: settings.themes ?? { default: "system", toggeable: true },
    feedback: settings.feedback ?? { enabled: false },
    ai: settings.ai ?? { mode: "none" },
    advancedCustomization: settings.advancedCustomization ?? { enabled: false },
    pageActions: settings.pageActions ?? { items: [...servedPageActions] },
    externalLinks: settings.externalLinks ?? { target: "self" },
    pagination: settings.pagination ?? { enabled: true },
    trademark: settings.trademark ?? { enabled: false },
    privacyPolicy: settings.privacyPolicy ?? {},
    socialPreview: settings.socialPreview ?? {},
    socialAccounts: settings.socialAccounts ?? [],
    insights: settings.insights ?? { trackingCookie: true }
  }
}

/** The same JSON value, whatever the order of its keys. */
const sameJson = (a: unknown, b: unknown): boolean => {
  if (a === b) return true
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null || Array.isArray(a) !== Array.isArray(b)) return false
  if (Array.isArray(a)) return a.length === (b as ReadonlyArray<unknown>).length && a.every((x, i) => sameJson(x, (b as ReadonlyArray<unknown>)[i]))
  const ka = Object.keys(a).filter((k) => (a as Record<string, unknown>)[k] !== undefined)
  const kb = Object.keys(b).filter((k) => (b as Record<string, unknown>)[k] !== undefined)
  return ka.length === kb.length && ka.every((k) => sameJson((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]))
}

const everyDefault = withDefaults({})

/**
 * `settings` without what is only GitBook's default as `withDefaults` fills it in: a read answers
 * every setting, and what it gave, sent back as it is, must change nothing (the site draws its own
 * defaults for what is unset, a dark mode's primary color lighter than its light one, say).
 */
export const withoutDefaults = (settings: SiteCustomization): SiteCustomization => {
  const out: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(settings)) {
    if (key === "styling" && typeof value === "object" && value !== null) {
      const styling = Object.fromEntries(Object.entries(value).filter(([name, field]) => !sameJson(field, (everyDefault.styling as Record<string, unknown>)[name])))
      if (Object.keys(styling).length > 0) out[key] = styling
    } else if (!sameJson(value, (everyDefault as Record<string, unknown>)[key])) {
      out[key] = value
    }
  }
  return out as SiteCustomization
}
