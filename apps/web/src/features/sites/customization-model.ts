/**
 * The customization form's fields and the API's `SiteCustomizationSettings`, both ways. Pure. The
 * form edits a few fields (title, colors, theme, light/dark, logo, favicon, header links,
 * announcement, footer, page actions, Ask); `toSettings` writes them over what was loaded, so a field the
 * form does not show is sent back as it was (`updateSiteCustomizationById` replaces the whole).
 */
import type { SiteCustomization } from "@quire/api"

export type Settings = Omit<typeof SiteCustomization.Type, "updatedAt">
type Styling = NonNullable<Settings["styling"]>
type HeaderItem = NonNullable<NonNullable<Settings["header"]>["links"]>[number]

export const themes = ["clean", "muted", "bold", "gradient"] as const
export const modes = ["light", "dark", "system"] as const
export const pageActions = ["markdown", "pdf", "git", "external-ai", "assistant", "mcp"] as const

export interface HeaderLink {
  readonly title: string
  readonly url: string
}

export interface Draft {
  readonly title: string
  readonly primaryLight: string
  readonly primaryDark: string
  readonly tint: string
  readonly theme: (typeof themes)[number]
  readonly mode: (typeof modes)[number]
  readonly toggeable: boolean
  readonly logo: string
  readonly favicon: string
  readonly links: ReadonlyArray<HeaderLink>
  readonly announcementEnabled: boolean
  readonly announcement: string
  readonly copyright: string
  readonly pageActions: ReadonlyArray<(typeof pageActions)[number]>
  /** Ask on the site: `ai.mode` "assistant". */
  readonly ask: boolean
}

/** The API's field of each form field, as a 400 names it (`styling.primaryColor.light`). */
export const fieldPaths = {
  title: "title",
  primaryLight: "styling.primaryColor.light",
  primaryDark: "styling.primaryColor.dark",
  tint: "styling.tint",
  theme: "styling.theme",
  mode: "themes",
  logo: "header.logo",
  favicon: "favicon",
  links: "header.links",
  announcement: "announcement",
  copyright: "footer.copyright",
  pageActions: "pageActions",
  ask: "ai.mode"
} as const satisfies Partial<Record<keyof Draft, string>>

/** A header item that links to a URL (the kind the form edits). */
const urlOf = (item: HeaderItem): string | undefined =>
  item.to !== null && item.to.kind === "url" && typeof item.to["url"] === "string" ? item.to["url"] : undefined

/** The form's fields of a loaded customization (GitBook's defaults where it has none). */
export const toDraft = (settings: Settings, siteTitle: string): Draft => {
  const favicon = settings.favicon !== undefined && "icon" in settings.favicon ? settings.favicon.icon : undefined
  return {
    title: settings.title ?? siteTitle,
    primaryLight: settings.styling?.primaryColor?.light ?? "#346DDB",
    // The published site's own dark default (sites' Theme.ts): saving the form keeps the dark theme legible.
    primaryDark: settings.styling?.primaryColor?.dark ?? "#6F9CF2",
    tint: settings.styling?.tint?.color.light ?? "",
    theme: settings.styling?.theme ?? "clean",
    mode: settings.themes?.default ?? "system",
    toggeable: settings.themes?.toggeable ?? true,
    logo: settings.header?.logo?.light ?? "",
    favicon: typeof favicon === "object" ? favicon.light : "",
    links: (settings.header?.links ?? []).flatMap((item) => {
      const url = urlOf(item)
      return url === undefined ? [] : [{ title: item.title, url }]
    }),
    announcementEnabled: settings.announcement?.enabled ?? false,
    announcement: settings.announcement?.message ?? "",
    copyright: settings.footer?.copyright ?? "",
    pageActions: (settings.pageActions?.items ?? ["markdown", "pdf"]).filter((item): item is Draft["pageActions"][number] => (pageActions as ReadonlyArray<string>).includes(item)),
    ask: settings.ai?.mode === "assistant"
  }
}

const without = <A extends object, K extends keyof A>(value: A, key: K): Omit<A, K> => {
  const { [key]: _, ...rest } = value
  return rest
}

/** The settings to send: the draft's fields written over `base` (what was loaded), the rest kept. */
export const toSettings = (base: Settings, draft: Draft): Settings => {
  let styling: Styling = {
    ...base.styling,
    theme: draft.theme,
    primaryColor: { light: draft.primaryLight.trim(), dark: draft.primaryDark.trim() }
  }
  styling = draft.tint.trim() === "" ? without(styling, "tint") : { ...styling, tint: { color: { light: draft.tint.trim(), dark: draft.tint.trim() } } }
  // Header items linking elsewhere than a URL (a page, a space) are kept after the form's.
  const others = (base.header?.links ?? []).filter((item) => urlOf(item) === undefined)
  const links: Array<HeaderItem> = [
    ...draft.links.filter((link) => link.title.trim() !== "" || link.url.trim() !== "")
      .map((link): HeaderItem => ({ title: link.title.trim(), to: { kind: "url", url: link.url.trim() }, links: [] })),
    ...others
  ]
  const logo = draft.logo.trim()
  const header = { ...base.header, links, ...(logo === "" ? {} : { logo: { light: logo, dark: logo } }) }
  const favicon = draft.favicon.trim()
  const copyright = draft.copyright.trim()
  const footer = copyright === "" ? (base.footer === undefined ? undefined : without(base.footer, "copyright")) : { ...base.footer, copyright }
  const announcement = draft.announcement.trim()
  const settings: Settings = {
    ...base,
    title: draft.title.trim(),
    styling,
    themes: { default: draft.mode, toggeable: draft.toggeable },
    header: logo === "" ? without(header, "logo") : header,
    announcement: announcement === ""
      ? { ...without(base.announcement ?? { enabled: false }, "message"), enabled: draft.announcementEnabled }
      : { ...base.announcement, enabled: draft.announcementEnabled, message: announcement },
    pageActions: { items: [...draft.pageActions] },
    // Ask off keeps another mode the site had ("search"), which the form does not offer.
    ai: { mode: draft.ask ? "assistant" : base.ai?.mode === "assistant" || base.ai === undefined ? "none" : base.ai.mode }
  }
  const withFavicon: Settings = favicon === "" ? (base.favicon !== undefined && "icon" in base.favicon ? without(settings, "favicon") : settings) : { ...settings, favicon: { icon: { light: favicon, dark: favicon } } }
  return footer === undefined ? without(withFavicon, "footer") : { ...withFavicon, footer }
}
