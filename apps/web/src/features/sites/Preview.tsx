/**
 * A preview of the published site, drawn here with its saved customization: the announcement, the
 * header (logo or title, header links), the sections as tabs, the default space's pages in the
 * sidebar, in the site's default mode with its primary color. Not a frame of the published site:
 * published pages may not be framed (`frame-ancestors 'none'`) and the app's policy allows no
 * frame. When the site is published, its pages open from the sidebar.
 */
import type { RevisionPage, Site, SiteSpace, SiteStructure } from "@quire/api"
import { AsyncResult, Atom } from "effect/reactivity"
import type { CSSProperties } from "react"
import { pagesAtom } from "../../api/queries.ts"
import { useAtomValue } from "../../api/react.ts"
import { useTheme } from "../../ui/theme.ts"
import type { Settings } from "./customization-model.ts"

type PagesResult = AsyncResult.AsyncResult<{ readonly pages: ReadonlyArray<RevisionPage> }, unknown>
const noPages: Atom.Atom<PagesResult> = Atom.make(AsyncResult.initial<{ readonly pages: ReadonlyArray<RevisionPage> }, unknown>())

/** The site space readers land on: the default section's default variant, or the default root space. */
export const landingSiteSpace = (structure: SiteStructure | undefined): SiteSpace | undefined => {
  if (structure === undefined) return undefined
  if (structure.type === "siteSpaces") return structure.structure.find((s) => s.default) ?? structure.structure[0]
  const sections = structure.structure.flatMap((entry) => entry.object === "site-section" ? [entry] : entry.object === "site-section-group" ? entry.sections : [])
  const section = sections.find((s) => s.default) ?? sections[0]
  return section?.siteSpaces.find((s) => s.default) ?? section?.siteSpaces[0]
}

const withSlash = (url: string) => url.endsWith("/") ? url : `${url}/`

export const Preview = (props: { readonly site: Site; readonly settings: Settings; readonly structure: SiteStructure | undefined; readonly publishedUrl: string | undefined }) => {
  const { settings } = props
  const app = useTheme()
  const landing = landingSiteSpace(props.structure)
  const pages = useAtomValue<PagesResult>(landing === undefined ? noPages : pagesAtom(landing.space.id))
  const modeSetting = settings.themes?.default ?? "system"
  const dark = modeSetting === "dark" || (modeSetting === "system" && app.dark)
  const primary = (dark ? settings.styling?.primaryColor?.dark : settings.styling?.primaryColor?.light) ?? (dark ? "#6F9CF2" : "#346DDB")
  const tint = settings.styling?.tint?.color[dark ? "dark" : "light"]
  const title = settings.title ?? props.site.title
  const logo = settings.header?.logo?.[dark ? "dark" : "light"]
  const sections = props.structure?.type === "sections" ? props.structure.structure.flatMap((entry) => entry.object === "site-section" ? [entry] : entry.object === "site-section-group" ? entry.sections : []) : []
  const visible = AsyncResult.isSuccess(pages) ? pages.value.pages.filter((page) => !page.hidden) : []
  const style = { "--preview-primary": primary, ...(tint === undefined ? {} : { "--preview-tint": tint }) } as CSSProperties
  // A site space's published address; for a share-link site, the site's through a share link.
  const base = landing?.urls.published ?? props.publishedUrl
  return (
    <figure className="site-preview-frame">
      <figcaption>Preview{props.site.published ? "" : " (the site is not published)"}</figcaption>
      <div className={`site-preview theme-${settings.styling?.theme ?? "clean"}`} data-mode={dark ? "dark" : "light"} data-primary={primary} style={style} data-testid="site-preview">
        {settings.announcement?.enabled === true && settings.announcement.message !== undefined
          ? <p className="preview-announcement">{settings.announcement.message}</p>
          : null}
        <div className="preview-header">
          {logo === undefined ? <span className="preview-title">{title}</span> : <img src={logo} alt={title} className="preview-logo" />}
          <span className="preview-links">
            {(settings.header?.links ?? []).map((link, index) => <span key={index} className="preview-link">{link.title}</span>)}
          </span>
        </div>
        {sections.length > 1 ? (
          <div className="preview-tabs">
            {sections.map((section) => <span key={section.id} className={section.default ? "preview-tab current" : "preview-tab"}>{section.title}</span>)}
          </div>
        ) : null}
        <div className="preview-body">
          <ul className="preview-nav" aria-label="Pages of the site">
            {landing === undefined ? <li className="preview-muted">No space yet</li> : visible.length === 0 ? <li className="preview-muted">{AsyncResult.isSuccess(pages) ? "No pages yet" : "Loading…"}</li> : visible.map((page, index) => (
              <li key={page.id} className={index === 0 ? "current" : undefined}>
                {props.site.published && base !== undefined
                  ? <a href={`${withSlash(base)}${page.path}`} target="_blank" rel="noreferrer">{page.title}</a>
                  : <span>{page.title}</span>}
              </li>
            ))}
          </ul>
          <div className="preview-page">
            <p className="preview-heading">{visible[0]?.title ?? landing?.title ?? title}</p>
            <p className="preview-text">{visible[0]?.description ?? "The page's content as readers see it."}</p>
            <span className="preview-button">Next page →</span>
          </div>
        </div>
        {settings.footer?.copyright === undefined ? null : <p className="preview-footer">{settings.footer.copyright}</p>}
      </div>
    </figure>
  )
}
