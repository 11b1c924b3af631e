/** What surrounds every page of a site (header, footer, tabs, tree, theme) from its customization, and the 404 page. */
import { Effect } from "effect"
import type { Revision } from "@quire/content"
import * as Audience from "../Audience.ts"
import { overlay } from "../domain/StructureExtras.ts"
import type { PublishedSite } from "../PublishedSites.ts"
import * as Layout from "../render/Layout.ts"
import type * as View from "../render/View.ts"
import { htmlAnswer, type RenderAnswer } from "./Answer.ts"
import { tabsOf, variantsOf } from "./Navigation.ts"
import type { Place } from "./Places.ts"
import type { Reading } from "./Reading.ts"

/** A customization's content reference as a URL: links to the web only (others name content of the organization). */
const refUrl = (ref: { readonly kind: string; readonly [key: string]: unknown }): string | undefined =>
  ref.kind === "url" && typeof ref["url"] === "string" && /^(https?:|mailto:|\/)/i.test(ref["url"]) ? ref["url"] : undefined

const linkOf = (link: { readonly title: string; readonly to: { readonly kind: string; readonly [key: string]: unknown } }): Array<View.LinkView> => {
  const url = refUrl(link.to)
  return url === undefined ? [] : [{ title: link.title, url }]
}

const announcementOf = (a: PublishedSite["customization"]["announcement"]): View.AnnouncementView | undefined => {
  if (a === undefined || !a.enabled || a.message === undefined) return undefined
  const style = a.style === "warning" || a.style === "danger" || a.style === "success" ? a.style : "info"
  const url = a.link === undefined ? undefined : refUrl(a.link.to)
  return { enabled: true, message: a.message, style, ...(url === undefined ? {} : { url }) }
}

/** The site's title as its customization names it. */
export const siteTitle = (site: PublishedSite): string => site.customization.title ?? site.site.title

/** The customization a place shows: the site's, with its site space's override over it. */
export const customizationAt = (site: PublishedSite, place: Place | undefined): PublishedSite["customization"] =>
  place === undefined ? site.customization : overlay(site.customization, site.siteSpaceCustomizations?.get(place.siteSpace.siteSpace.id))

/** The chrome around a place's page (`currentId`). */
export const chrome = (
  reading: Reading,
  place: Place | undefined,
  rev: Revision | undefined,
  currentId: string | undefined
): View.SiteChrome => {
  const { site, request } = reading
  const { basePath } = reading.urls
  const customization = customizationAt(site, place)
  return {
    memo: reading.layout,
    site: {
      title: customization.title ?? site.site.title,
      url: basePath,
      logo: customization.header?.logo,
      favicon: customization.favicon as View.SiteInfo["favicon"]
    },
    basePath,
    styling: (customization.styling ?? {}) as View.Styling,
    header: {
      links: (customization.header?.links ?? []).flatMap((item) =>
        item.condition !== undefined && !Audience.visible(item.condition, request.claims, reading.parseCondition)
          ? []
          : [{
            title: item.title,
            url: item.to === null ? undefined : refUrl(item.to),
            style: item.style,
            links: item.links.flatMap((l) => linkOf(l))
          }]
      )
    },
    footer: {
      logo: customization.footer?.logo,
      groups: (customization.footer?.groups ?? []).map((g) => ({ title: g.title, links: g.links.flatMap((l) => linkOf(l)) })),
      copyright: customization.footer?.copyright
    },
    announcement: announcementOf(customization.announcement),
    themes: customization.themes ?? { default: "system", toggeable: true },
    tabs: tabsOf(reading, place),
    variants: variantsOf(reading, place),
    tree: place === undefined || rev === undefined ? [] : reading.tree(place, rev).items,
    currentPage: currentId,
    searchUrl: `${basePath}~search`,
    askUrl: reading.askConfigured === true && customization.ai?.mode === "assistant" ? `${basePath}~ask` : undefined,
    noindex: request.noindex,
    externalLinks: customization.externalLinks?.target,
    lang: customization.internationalization?.locale,
    insights: insightsOf(reading, place)
  }
}

/**
 * What a page reports: views, searches and link clicks when the site's customization sets
 * `insights`, page ratings when it sets `feedback.enabled`; neither, nothing (no script).
 */
const insightsOf = (reading: Reading, place: Place | undefined): View.InsightsView | undefined => {
  const customization = reading.site.customization
  const views = customization.insights !== undefined
  const feedback = customization.feedback?.enabled === true
  if (!views && !feedback) return undefined
  return {
    url: `${reading.urls.basePath}~insights`,
    views,
    feedback,
    siteSection: place?.section?.section.id,
    siteSpace: place?.siteSpace.siteSpace.id,
    space: place?.siteSpace.space.id
  }
}

/** The 404 page, in the chrome of a place (the site's home where the path names none). */
export const notFound = (reading: Reading, place: Place | undefined): Effect.Effect<RenderAnswer> =>
  Effect.gen(function*() {
    const rev = place === undefined ? undefined : yield* reading.revision(place)
    const view = chrome(reading, place, rev, undefined)
    return htmlAnswer(404, Layout.notFoundDocument({ ...view, path: `/${reading.decoded.join("/")}` }), view)
  })

/** What a refusal page says: a short code above its title, the reason, and a way on. */
export interface RefusalText {
  readonly code?: string | undefined
  readonly title: string
  readonly message: string
  readonly action?: { readonly label: string; readonly url: string } | undefined
}

/** The page of an address no published site answers: the refusal page in the default styling, without a site's name. */
export const unknownSitePage = (): { readonly html: string; readonly policy: string } => {
  const memo = themedOnce({})
  return {
    html: Layout.renderRefusal({
      memo,
      site: { title: "", url: "" },
      styling: {},
      themes: { default: "system", toggeable: false },
      code: "404",
      title: "Site not found",
      message: "There is no published site at this address."
    }),
    policy: Layout.policyOf({}, undefined, memo)
  }
}

/** A memo for one page outside the renderer: its theme made once for its style and its CSP. */
const themedOnce = (styling: View.Styling): View.LayoutMemo => {
  const theme = Layout.themeOf(styling)
  return { ...Layout.unkept, theme: () => theme }
}

/**
 * A page refusing a reader of `site` (share link or sign-in needed, token not valid) in the site's
 * title, logo, favicon, colors, fonts and theme mode, and the CSP that allows its style and script.
 */
export const refusalPage = (site: PublishedSite, text: RefusalText): { readonly html: string; readonly policy: string } => {
  const customization = site.customization
  const styling = (customization.styling ?? {}) as View.Styling
  const memo = themedOnce(styling)
  const html = Layout.renderRefusal({
    memo,
    site: {
      title: siteTitle(site),
      url: "",
      logo: customization.header?.logo,
      favicon: customization.favicon as View.SiteInfo["favicon"]
    },
    styling,
    themes: customization.themes ?? { default: "system", toggeable: true },
    lang: customization.internationalization?.locale,
    ...text
  })
  return { html, policy: Layout.policyOf(styling, undefined, memo) }
}
