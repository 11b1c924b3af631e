/**
 * The site dashboard's first tab: what a person needs first, beside the published address the
 * dashboard's head shows. Who can read the site (its visibility, its own domain), the sections and
 * spaces it shows in short, and the last 30 days' views; each part links to the tab that changes it.
 */
import type { SiteSection, SiteSectionGroup, SiteExternalLink, SiteSpace, SiteStructure, Site } from "@quire/api"
import { AsyncResult } from "effect/reactivity"
import { useAtomValue } from "../../api/react.ts"
import { Link } from "../../ui/Link.tsx"
import { Failure, Loading } from "../../ui/States.tsx"
import { headlineAtom } from "./insights/queries.ts"
import { siteRef } from "./queries.ts"
import { visibilities } from "./wording.ts"

const spaceNames = (siteSpaces: ReadonlyArray<SiteSpace>) =>
  siteSpaces.length === 0 ? "no space yet" : siteSpaces.map((s) => s.title === "" ? s.space.title || "Untitled space" : s.title).join(", ")

const SectionLine = (props: { readonly section: SiteSection }) => (
  <li><strong>{props.section.title}</strong>{props.section.default ? <span className="badge">Default</span> : null} <span className="meta">{spaceNames(props.section.siteSpaces)}</span></li>
)

const Contents = (props: { readonly structure: SiteStructure }) => {
  const { structure } = props
  if (structure.type === "siteSpaces") {
    return structure.structure.length === 0
      ? <p className="muted">It shows no space yet.</p>
      : <p>Spaces: {spaceNames(structure.structure)}</p>
  }
  if (structure.structure.length === 0) return <p className="muted">It has no section yet.</p>
  return (
    <ul className="overview-list" aria-label="Sections">
      {structure.structure.map((entry: SiteSection | SiteSectionGroup | SiteExternalLink) => entry.object === "site-section"
        ? <SectionLine key={entry.id} section={entry} />
        : entry.object === "site-external-link"
        ? <li key={entry.id}>{entry.title} <span className="meta">(link to {entry.url}{entry.draft ? ", draft" : ""})</span></li>
        : (
          <li key={entry.id}>
            <strong>{entry.title}</strong> <span className="meta">(group)</span>
            <ul className="overview-list">{entry.sections.map((section) => <SectionLine key={section.id} section={section} />)}</ul>
          </li>
        ))}
    </ul>
  )
}

const Headline = (props: { readonly organizationId: string; readonly siteId: string }) => {
  const headline = useAtomValue(headlineAtom(siteRef(props.organizationId, props.siteId)))
  if (AsyncResult.isFailure(headline)) return <Failure result={headline} />
  if (!AsyncResult.isSuccess(headline)) return <Loading what="the views" />
  const { views, visitors } = headline.value
  return (
    <p className="overview-figures">
      <strong>{views}</strong> {views === 1 ? "view" : "views"} · <strong>{visitors}</strong> daily {visitors === 1 ? "visitor" : "visitors"}, last 30 days
    </p>
  )
}

export const Overview = (props: {
  readonly organizationId: string
  readonly site: Site
  readonly structure: AsyncResult.AsyncResult<SiteStructure, unknown>
  readonly base: string
}) => {
  const { site, structure } = props
  const visibility = visibilities.find((v) => v.value === site.visibility)
  return (
    <div className="overview">
      <section aria-labelledby="overview-readers" className="panel overview-part">
        <h2 id="overview-readers">Readers</h2>
        <p><strong>{visibility?.label ?? site.visibility}</strong>: {visibility?.description}</p>
        {site.published ? null : <p className="muted">Not published: readers cannot open it yet.</p>}
        {site.hostname === undefined ? null : <p>Its own domain: <code>{site.hostname}</code>{site.basename === undefined ? null : <> under <code>/{site.basename}</code></>}</p>}
        <p><Link href={`${props.base}/audience`}>Visibility and permissions</Link></p>
      </section>
      <section aria-labelledby="overview-contents" className="panel overview-part">
        <h2 id="overview-contents">Sections and spaces</h2>
        {AsyncResult.isFailure(structure) ? <Failure result={structure} /> : !AsyncResult.isSuccess(structure) ? <Loading what="the structure" /> : <Contents structure={structure.value} />}
        <p><Link href={`${props.base}/structure`}>{site.permissions.edit ? "Change the structure" : "The structure"}</Link></p>
      </section>
      <section aria-labelledby="overview-insights" className="panel overview-part">
        <h2 id="overview-insights">Insights</h2>
        <Headline organizationId={props.organizationId} siteId={site.id} />
        <p><Link href={`${props.base}/insights`}>Top pages, searches, ratings and broken links</Link></p>
      </section>
    </div>
  )
}
