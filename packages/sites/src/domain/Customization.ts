/**
 * A site's customization: GitBook's `SiteCustomizationSettings`, every field optional. Values are
 * checked as GitBook's spec defines them (enumerations as literal sets, fonts as one of its names or
 * a custom font definition, code themes by name, content references as flat records), so nothing
 * stored is nested deeper than the schema. Values that reach a page's CSS (colors) are checked
 * strictly. `decodeStored` reads back what an older version stored, field by field.
 */
import { Option, Schema } from "effect"

const opt = Schema.optionalKey

/** `#rgb` or `#rrggbb` (GitBook's `Color`). */
export const Color = Schema.String.check(Schema.isPattern(/^#(?:[0-9a-fA-F]{3}){1,2}$/))
/** GitBook's `URL`: absolute (`format: uri`). */
export const Url = Schema.String.check(Schema.isMaxLength(2048), Schema.makeFilter((s: string) => URL.canParse(s) || "Expected an absolute URL"))

export const ThemedColor = Schema.Struct({ light: Color, dark: Color })
export const ThemedUrl = Schema.Struct({ light: Url, dark: Url })

/** GitBook's kinds of `ContentRef`, each with the field it requires (`ContentRefFile`'s `file`...). */
const contentRefKinds = {
  file: "file",
  url: "url",
  page: "page",
  anchor: "anchor",
  user: "user",
  collection: "collection",
  space: "space",
  "reusable-content": "reusableContent",
  tag: "tag",
  openapi: "spec"
} as const

/**
 * GitBook's `ContentRef`: `{kind, ...}` (a URL, page, file, space...), whose other fields are ids,
 * slugs or URLs; its kind one of GitBook's, with the field that kind requires.
 */
export const ContentRef = Schema.StructWithRest(Schema.Struct({ kind: Schema.Literals(Object.keys(contentRefKinds) as Array<keyof typeof contentRefKinds>) }), [
  Schema.Record(Schema.String.check(Schema.isMaxLength(50)), Schema.String.check(Schema.isMaxLength(2048)))
]).check(Schema.makeFilter((ref: { readonly kind: keyof typeof contentRefKinds; readonly [key: string]: string }) =>
  typeof ref[contentRefKinds[ref.kind]] === "string" || `Expected a ${ref.kind} reference to have ${contentRefKinds[ref.kind]}`
))

export const ContentLink = Schema.Struct({ title: Schema.String.check(Schema.isMaxLength(128)), to: ContentRef })

export const HeaderItem = Schema.Struct({
  title: Schema.String.check(Schema.isMaxLength(128)),
  style: opt(Schema.Literals(["link", "button-primary", "button-secondary"])),
  to: Schema.NullOr(ContentRef),
  links: Schema.Array(ContentLink),
  condition: opt(Schema.String.check(Schema.isMaxLength(1024)))
})

/** GitBook's `CustomizationDefaultFont`. */
export const DefaultFont = Schema.Literals([
  "ABCFavorit", "Inter", "Roboto", "RobotoSlab", "OpenSans", "SourceSansPro", "Lato", "Ubuntu", "Raleway", "Merriweather",
  "Overpass", "NotoSans", "IBMPlexSerif", "Poppins", "FiraSans"
])
/** GitBook's `CustomizationDefaultMonospaceFont`. */
export const DefaultMonospaceFont = Schema.Literals([
  "FiraCode", "IBMPlexMono", "JetBrainsMono", "SourceCodePro", "RobotoMono", "SpaceMono", "DMMono", "Inconsolata"
])

/** GitBook's `CustomizationFontDefinitionInput`: a font family and its `@font-face` files. */
export const FontDefinition = Schema.Struct({
  id: Schema.String.check(Schema.isMaxLength(100)),
  custom: Schema.Boolean,
  fontFamily: Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(50)),
  fontFaces: Schema.Array(Schema.Struct({
    weight: Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 1000 })),
    sources: Schema.Array(Schema.Struct({ url: Url, format: opt(Schema.Literals(["woff2", "woff"])) }))
      .check(Schema.isMinLength(1), Schema.isMaxLength(10))
  })).check(Schema.isMinLength(1), Schema.isMaxLength(20))
})

/** A font: one of GitBook's names, or a custom font definition. */
const Font = Schema.Union([DefaultFont, FontDefinition])
const MonospaceFont = Schema.Union([DefaultMonospaceFont, FontDefinition])

/** GitBook's `CustomizationCodeTheme`: the themes of code blocks, by name. */
export const CodeTheme = Schema.Literals([
  "default-light", "default-dark", "monochrome-light", "monochrome-dark", "andromeeda", "aurora-x", "ayu-dark",
  "catppuccin-frappe", "catppuccin-latte", "catppuccin-macchiato", "catppuccin-mocha", "dark-plus", "dracula",
  "dracula-soft", "everforest-dark", "everforest-light", "github-dark", "github-dark-default", "github-dark-dimmed",
  "github-dark-high-contrast", "github-light", "github-light-default", "github-light-high-contrast", "gruvbox-dark-hard",
  "gruvbox-dark-medium", "gruvbox-dark-soft", "gruvbox-light-hard", "gruvbox-light-medium", "gruvbox-light-soft",
  "houston", "kanagawa-dragon", "kanagawa-lotus", "kanagawa-wave", "laserwave", "light-plus", "material-theme",
  "material-theme-darker", "material-theme-lighter", "material-theme-ocean", "material-theme-palenight", "min-dark",
  "min-light", "monokai", "night-owl", "nord", "one-dark-pro", "one-light", "plastic", "poimandres", "red", "rose-pine",
  "rose-pine-dawn", "rose-pine-moon", "slack-dark", "slack-ochin", "snazzy-light", "solarized-dark", "solarized-light",
  "synthwave-84", "tokyo-night", "vesper", "vitesse-black", "vitesse-dark", "vitesse-light"
])
const ThemedCodeTheme = Schema.Struct({ light: CodeTheme, dark: CodeTheme })

export const Styling = Schema.Struct({
  theme: opt(Schema.Literals(["clean", "muted", "bold", "gradient"])),
  primaryColor: opt(ThemedColor),
  tint: opt(Schema.NullOr(Schema.Struct({ color: ThemedColor }))),
  infoColor: opt(ThemedColor),
  successColor: opt(ThemedColor),
  warningColor: opt(ThemedColor),
  dangerColor: opt(ThemedColor),
  corners: opt(Schema.Literals(["straight", "rounded", "circular"])),
  depth: opt(Schema.Literals(["subtle", "flat"])),
  links: opt(Schema.Literals(["default", "accent"])),
  font: opt(Font),
  headingFont: opt(Schema.NullOr(Font)),
  monospaceFont: opt(MonospaceFont),
  background: opt(Schema.Literals(["plain", "match"])),
  icons: opt(Schema.Literals(["regular", "solid", "duotone", "light", "thin"])),
  codeTheme: opt(Schema.Struct({ default: ThemedCodeTheme, openapi: ThemedCodeTheme })),
  sidebar: opt(Schema.Struct({
    background: opt(Schema.Literals(["default", "filled"])),
    list: opt(Schema.Literals(["default", "pill", "line"]))
  })),
  search: opt(Schema.Literals(["prominent", "subtle"]))
})

/** GitBook's `SiteSocialAccountPlatform`. */
export const SocialPlatform = Schema.Literals([
  "twitter", "instagram", "facebook", "linkedin", "github", "discord", "slack", "youtube", "tiktok", "reddit", "bluesky",
  "mastodon", "threads", "medium"
])

/** GitBook's `SiteSocialAccount`: a handle (no `@`) on a platform, and where the site shows it. */
export const SocialAccount = Schema.Struct({
  platform: SocialPlatform,
  handle: Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(128)),
  display: Schema.Struct({ footer: Schema.Boolean, header: Schema.Boolean })
})

export const SiteCustomization = Schema.Struct({
  // GitBook's `SiteTitle`: 2 to 128 characters, an emoji counting as one.
  title: opt(Schema.String.check(Schema.isMinLength(2), Schema.isMaxLength(128), Schema.makeFilter((s: string) => [...s].length >= 2 || "Expected at least 2 characters"))),
  styling: opt(Styling),
  internationalization: opt(Schema.Struct({ locale: Schema.String.check(Schema.isMaxLength(10)) })),
  favicon: opt(Schema.Union([
    Schema.Struct({ icon: ThemedUrl }),
    Schema.Struct({ emoji: Schema.String.check(Schema.isMaxLength(50)) }),
    // No favicon: an empty object and nothing else (GitBook's `additionalProperties: false`).
    Schema.Record(Schema.String, Schema.Never)
  ])),
  header: opt(Schema.Struct({
    preset: opt(Schema.Literals(["default", "bold", "contrast", "custom", "none"])),
    logo: opt(ThemedUrl),
    links: opt(Schema.Array(HeaderItem))
  })),
  footer: opt(Schema.Struct({
    logo: opt(ThemedUrl),
    groups: opt(Schema.Array(Schema.Struct({ title: Schema.String.check(Schema.isMaxLength(128)), links: Schema.Array(ContentLink) }))),
    copyright: opt(Schema.String.check(Schema.isMaxLength(512)))
  })),
  announcement: opt(Schema.Struct({
    enabled: Schema.Boolean,
    message: opt(Schema.String.check(Schema.isMaxLength(128))),
    link: opt(ContentLink),
    style: opt(Schema.String.check(Schema.isMaxLength(50)))
  })),
  themes: opt(Schema.Struct({ default: Schema.Literals(["light", "dark", "system"]), toggeable: Schema.Boolean })),
  pdf: opt(Schema.Struct({ enabled: Schema.Boolean })),
  feedback: opt(Schema.Struct({ enabled: Schema.Boolean })),
  ai: opt(Schema.Struct({
    mode: Schema.Literals(["none", "search", "assistant"]),
    /** GitBook's `CustomizationSuggestedQuestions`: the questions offered first. */
    suggestions: opt(Schema.Array(Schema.String.check(Schema.isMinLength(3), Schema.isMaxLength(64))).check(Schema.isMaxLength(5)))
  })),
  advancedCustomization: opt(Schema.Struct({ enabled: Schema.Boolean })),
  git: opt(Schema.Struct({ showEditLink: Schema.Boolean })),
  pageActions: opt(Schema.Struct({
    items: Schema.Array(Schema.Literals(["assistant", "external-ai", "markdown", "mcp", "git", "pdf"])).check(Schema.isMaxLength(20))
  })),
  externalLinks: opt(Schema.Struct({ target: Schema.Literals(["self", "blank"]) })),
  pagination: opt(Schema.Struct({ enabled: Schema.Boolean })),
  trademark: opt(Schema.Struct({ enabled: Schema.Boolean })),
  privacyPolicy: opt(Schema.Struct({ url: opt(Url) })),
  socialPreview: opt(Schema.Struct({ url: opt(Url) })),
  insights: opt(Schema.Struct({ trackingCookie: Schema.Boolean })),
  socialAccounts: opt(Schema.Array(SocialAccount).check(Schema.isMaxLength(10)))
})
export type SiteCustomization = typeof SiteCustomization.Type

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

const decodeSettings = Schema.decodeUnknownOption(SiteCustomization)
const decodeStyling = Schema.decodeUnknownOption(Styling)

/**
 * A stored customization as far as it decodes: a field that does not (stored before the schema
 * was checked, or under an older one) is left out, so the site shows its default for it; `dropped`
 * names those fields (`styling.font`) for a log line. Never fails.
 */
export const decodeStored = (stored: unknown): { readonly settings: SiteCustomization; readonly dropped: ReadonlyArray<string> } => {
  const whole = decodeSettings(stored)
  if (Option.isSome(whole)) return { settings: whole.value, dropped: [] }
  if (!isRecord(stored)) return { settings: {}, dropped: ["customization"] }
  const dropped: Array<string> = []
  const kept: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(stored)) {
    if (key === "styling" && isRecord(value)) {
      const styling: Record<string, unknown> = {}
      for (const [name, field] of Object.entries(value)) {
        if (Option.isSome(decodeStyling({ [name]: field }))) styling[name] = field
        else dropped.push(`styling.${name}`)
      }
      kept[key] = styling
    } else if (Option.isSome(decodeSettings({ [key]: value }))) kept[key] = value
    else dropped.push(key)
  }
  // What was kept decodes field by field; decoding it whole gives the schema's own values.
  return { settings: Option.getOrElse(decodeSettings(kept), () => ({})), dropped }
}

/** A site's customization and when it last changed (null: never). */
export interface SiteCustomizationRecord {
  readonly settings: SiteCustomization
  readonly updatedAt: Date | null
}
