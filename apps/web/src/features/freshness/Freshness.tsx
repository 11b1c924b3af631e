/**
 * `/s/<space>/~/freshness` and `/o/<org>/freshness`: which pages are past their verification,
 * never verified or owned by nobody (`getSpaceFreshness`, `getOrganizationFreshness`), stale pages
 * first, with the broken links of the content, and filters. A page's owners and verification are
 * written in its frontmatter (`quire:`), which the screen says how to do when nothing is tracked
 * yet. Loaded with `import()`.
 */
import { AsyncResult } from "effect/reactivity"
import { useState } from "react"
import type { SpaceFreshness } from "@quire/api"
import { useAtomValue } from "../../api/react.ts"
import { EmptyState } from "../../ui/EmptyState.tsx"
import { BackIcon, CheckIcon } from "../../ui/icons.tsx"
import { appPath, Link } from "../../ui/Link.tsx"
import { Failure, Loading } from "../../ui/States.tsx"
import { formatTime } from "../../ui/time.ts"
import { type FreshnessFilter, organizationFreshnessAtom, spaceFreshnessAtom } from "./queries.ts"
import "../admin/admin.css"
import "./freshness.css"

type Page = SpaceFreshness["pages"][number]
type Stats = SpaceFreshness["stats"]

const filters: ReadonlyArray<readonly [FreshnessFilter, string]> = [
  ["all", "All pages"],
  ["stale", "Stale"],
  ["unverified", "Never verified"],
  ["mine", "Owned by me"],
  ["unowned", "Unowned"]
]

const stateWords: Readonly<Record<Page["state"], string>> = {
  stale: "Stale",
  unverified: "Never verified",
  untracked: "Not tracked",
  fresh: "Verified"
}

const dayWords = (day: string) => new Date(`${day}T00:00:00Z`).toLocaleDateString("en", { year: "numeric", month: "short", day: "numeric", timeZone: "UTC" })

const PageRow = (props: { readonly page: Page }) => {
  const p = props.page
  return (
    <li>
      <Link href={appPath(p.urls.app)}>{p.title}</Link>
      <span className={p.state === "stale" ? "badge warn" : "badge"}>{stateWords[p.state]}</span>
      <span className="muted">
        {p.due !== undefined ? (p.state === "stale" ? `Was due ${dayWords(p.due)}` : `Due ${dayWords(p.due)}`) : p.verified !== undefined ? `Verified ${dayWords(p.verified)}` : p.verifyEvery !== undefined ? `Every ${p.verifyEvery} days` : null}
      </span>
      <span className="muted">{p.owners.length === 0 ? "No owner" : `Owners: ${p.owners.join(", ")}`}</span>
      <span className="muted">Edited {formatTime(p.updatedAt)}</span>
      {p.problems.length === 0 ? null : <span className="form-error">{p.problems.join(" ")}</span>}
    </li>
  )
}

const StatsList = (props: { readonly stats: Stats; readonly label: string }) => (
  <ul className="freshness-stats" aria-label={props.label}>
    <li><strong>{props.stats.stale}</strong> stale</li>
    <li><strong>{props.stats.unverified}</strong> never verified</li>
    <li><strong>{props.stats.unowned}</strong> without an owner</li>
    <li><strong>{props.stats.fresh}</strong> verified</li>
    <li><strong>{props.stats.brokenLinks}</strong> broken {props.stats.brokenLinks === 1 ? "link" : "links"}</li>
    <li className="muted">of {props.stats.pages} pages</li>
  </ul>
)

const Filters = (props: { readonly value: FreshnessFilter; readonly onChange: (filter: FreshnessFilter) => void }) => (
  <div className="freshness-filter field">
    <label htmlFor="freshness-filter">Show</label>
    <select id="freshness-filter" value={props.value} onChange={(event) => props.onChange(event.target.value as FreshnessFilter)}>
      {filters.map(([value, label]) => <option key={value} value={value}>{label}</option>)}
    </select>
  </div>
)

/** What to write in a page's frontmatter to track it, shown when nothing is tracked yet. */
const HowTo = () => (
  <details className="panel">
    <summary>How to give a page an owner and a verification</summary>
    <p>In a change request, add to the page’s frontmatter (the Markdown view, or the file in Git):</p>
    <pre>{"---\nquire:\n  owners: [you@example.com]\n  verified: 2026-11-01\n  verify-every: 90d\n---"}</pre>
    <p className="muted">A page is stale the day after its verification plus its interval (days, or 12w, 6m, 1y).</p>
  </details>
)

const PageList = (props: { readonly pages: ReadonlyArray<Page>; readonly filter: FreshnessFilter; readonly label: string }) =>
  props.pages.length === 0
    ? <EmptyState icon={<CheckIcon />} title={props.filter === "all" ? "No pages yet" : "No page matches"} status={props.filter !== "all"} compact />
    : <ul className="freshness-pages" aria-label={props.label}>{props.pages.map((page) => <PageRow key={page.id} page={page} />)}</ul>

export const SpaceFreshnessScreen = (props: { readonly spaceId: string }) => {
  const [filter, setFilter] = useState<FreshnessFilter>("all")
  const result = useAtomValue(spaceFreshnessAtom(JSON.stringify({ id: props.spaceId, filter })))
  return (
    <>
      <h1>Freshness</h1>
      <div className="toolbar"><Link className="button" href={`/s/${props.spaceId}`}><BackIcon />Back to the space</Link></div>
      {AsyncResult.isFailure(result) ? <Failure result={result} /> : !AsyncResult.isSuccess(result) ? <Loading what="the pages' freshness" /> : (
        <>
          <p className="muted">Which pages of {result.value.space.title} are past their verification, never verified or owned by nobody, stale pages first.</p>
          <StatsList stats={result.value.stats} label="Pages by state" />
          <Filters value={filter} onChange={setFilter} />
          <PageList pages={result.value.pages} filter={filter} label="Pages" />
          {result.value.stats.untracked === result.value.stats.pages ? <HowTo /> : null}
        </>
      )}
    </>
  )
}

export const OrganizationFreshnessScreen = (props: { readonly organizationId: string }) => {
  const [filter, setFilter] = useState<FreshnessFilter>("stale")
  const result = useAtomValue(organizationFreshnessAtom(JSON.stringify({ id: props.organizationId, filter })))
  return (
    <div className="admin">
      <p className="admin-back"><Link href={`/o/${props.organizationId}`}>Back to the organization</Link></p>
      <h1>Freshness</h1>
      {AsyncResult.isFailure(result) ? <Failure result={result} /> : !AsyncResult.isSuccess(result) ? <Loading what="the pages' freshness" /> : (
        <>
          <p className="muted">Every space you can read, those with the most stale pages first.</p>
          <StatsList stats={result.value.stats} label="Pages of every space by state" />
          <Filters value={filter} onChange={setFilter} />
          {result.value.spaces.map((space) => (
            <section key={space.space.id} className="freshness-space" aria-label={space.space.title}>
              <h2><Link href={`/s/${space.space.id}/~/freshness`}>{space.space.title}</Link> <span className="muted">{space.stats.stale} stale of {space.stats.pages}</span></h2>
              <PageList pages={space.pages} filter={filter} label={`Pages of ${space.space.title}`} />
            </section>
          ))}
          {result.value.stats.untracked === result.value.stats.pages ? <HowTo /> : null}
        </>
      )}
    </div>
  )
}
