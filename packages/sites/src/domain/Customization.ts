/**
 * A site's customization: GitBook's `SiteCustomizationSettings`, every field optional. Values that
 * reach a page's CSS (colors) are checked strictly; enumerations GitBook's spec lists are literal
 * sets; what it leaves open (fonts, link targets) is kept as given.
 */
import { Schema } from "effect"

const opt = Schema.optionalKey

/** `#rgb` or `#rrggbb` (GitBook's `Color`). */
export const Color = Schema.String.check(Schema.isPattern(/^#(?:[0-9a-fA-F]{3}){1,2}$/))
export const Url = Schema.String.check(Schema.isMaxLength(2048))

export const ThemedColor = Schema.Struct({ light: Color, dark: Color })
export const ThemedUrl = Schema.Struct({ light: Url, dark: Url })

/** GitBook's `ContentRef`: `{kind, ...}` (a URL, page, file, space...); kept as given. */
export const ContentRef = Schema.StructWithRest(Schema.Struct({ kind: Schema.String }), [Schema.Record(Schema.String, Schema.Unknown)])

export const ContentLink = Schema.Struct({ title: Schema.String.check(Schema.isMaxLength(128)), to: ContentRef })

export const HeaderItem = Schema.Struct({
  title: Schema.String.check(Schema.isMaxLength(128)),
  style: opt(Schema.Literals(["link", "button-primary", "button-secondary"])),
  to: Schema.NullOr(ContentRef),
  links: Schema.Array(ContentLink),
  condition: opt(Schema.String.check(Schema.isMaxLength(1024)))
})

/** A font: one of GitBook's names, or a custom font definition. */
const Font = Schema.Union([Schema.String.check(Schema.isMaxLength(100)), Schema.Record(Schema.String, Schema.Unknown)])

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
  monospaceFont: opt(Font),
  background: opt(Schema.Literals(["plain", "match"])),
  icons: opt(Schema.Literals(["regular", "solid", "duotone", "light", "thin"])),
  codeTheme: opt(Schema.Record(Schema.String, Schema.Unknown)),
  sidebar: opt(Schema.Struct({
    background: opt(Schema.Literals(["default", "filled"])),
    list: opt(Schema.Literals(["default", "pill", "line"]))
  })),
  search: opt(Schema.Literals(["prominent", "subtle"]))
})

export const SiteCustomization = Schema.Struct({
  title: opt(Schema.String.check(Schema.isMinLength(2), Schema.isMaxLength(128))),
  styling: opt(Styling),
  internationalization: opt(Schema.Struct({ locale: Schema.String.check(Schema.isMaxLength(10)) })),
  favicon: opt(Schema.Union([
    Schema.Struct({ icon: ThemedUrl }),
    Schema.Struct({ emoji: Schema.String.check(Schema.isMaxLength(50)) }),
    Schema.Struct({})
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
  ai: opt(Schema.Struct({ mode: Schema.Literals(["none", "search", "assistant"]) })),
  advancedCustomization: opt(Schema.Struct({ enabled: Schema.Boolean })),
  git: opt(Schema.Struct({ showEditLink: Schema.Boolean })),
  pageActions: opt(Schema.Record(Schema.String, Schema.Unknown)),
  externalLinks: opt(Schema.Struct({ target: Schema.Literals(["self", "blank"]) })),
  pagination: opt(Schema.Struct({ enabled: Schema.Boolean })),
  trademark: opt(Schema.Struct({ enabled: Schema.Boolean })),
  privacyPolicy: opt(Schema.Struct({ url: opt(Url) })),
  socialPreview: opt(Schema.Struct({ url: opt(Url) })),
  insights: opt(Schema.Struct({ trackingCookie: Schema.Boolean }))
})
export type SiteCustomization = typeof SiteCustomization.Type

/** A site's customization and when it last changed (null: never). */
export interface SiteCustomizationRecord {
  readonly settings: SiteCustomization
  readonly updatedAt: Date | null
}
