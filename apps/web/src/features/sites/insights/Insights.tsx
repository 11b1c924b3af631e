/**
 * `/o/<org>/sites/<site>/insights`, the site dashboard's Insights tab: what readers did on the published site over the last 30 days
 * (views per day, top pages, addresses that found nothing, searches that found nothing, pages
 * rated poorly and their comments, the questions readers asked the site's Ask, what AI agents
 * reported) and the broken links of its spaces;
 * from each, a change request on the page concerned. Loaded with the site screen's chunk and stylesheet.
 */
import type { Site } from "@quire/api"
import { AsyncResult } from "effect/reactivity"
import { useAtomValue } from "../../../api/react.ts"
import { Failure, Loading } from "../../../ui/States.tsx"
import { siteRef } from "../queries.ts"
import { AgentFeedback } from "./AgentFeedback.tsx"
import { PageName } from "./PageName.tsx"
import { Part } from "./Part.tsx"
import { type Insights as Data, insightsAtom, type PageInfo, pageOf, score } from "./queries.ts"
import { OpenChangeRequest } from "./OpenChangeRequest.tsx"
import { Questions } from "./Questions.tsx"
import { Recording } from "./Recording.tsx"
import "./insights.css"

const dayMillis = 24 * 60 * 60 * 1000

const views = (n: number) => `${n} ${n === 1 ? "view" : "views"}`

/** The last 30 days, oldest first, each with its views (0 where none were recorded). */
const lastDays = (data: Data, now: number) => {
  const byDay = new Map(data.days.map((d) => [d.day.slice(0, 10), d]))
  return Array.from({ length: 30 }, (_, i) => {
    const day = new Date(now - (29 - i) * dayMillis).toISOString().slice(0, 10)
    return { day, views: byDay.get(day)?.views ?? 0, visitors: byDay.get(day)?.visitors ?? 0 }
  })
}

const pageAction = (page: PageInfo | undefined, subject: string) =>
  page === undefined ? null : <OpenChangeRequest spaceId={page.spaceId} pagePath={page.path} subject={subject} about={`on the page “${page.title}”`} />

const ViewsChart = (props: { readonly data: Data }) => {
  const days = lastDays(props.data, Date.now())
  const most = Math.max(1, ...days.map((d) => d.views))
  const total = days.reduce((sum, d) => sum + d.views, 0)
  const visitors = days.reduce((sum, d) => sum + d.visitors, 0)
  return (
    <section className="insights-part panel" aria-labelledby="insights-views">
      <h2 id="insights-views">Views over time</h2>
      <p className="insights-total"><strong>{total}</strong> {total === 1 ? "view" : "views"} · <strong>{visitors}</strong> daily {visitors === 1 ? "visitor" : "visitors"}, last 30 days</p>
      <ol className="insights-chart" aria-label="Views per day">
        {days.map((d) => (
          <li key={d.day} title={`${d.day}: ${views(d.views)}`}>
            <span className="bar" style={{ height: `${Math.round((d.views / most) * 100)}%` }} />
            <span className="visually-hidden">{d.day}: {views(d.views)}</span>
          </li>
        ))}
      </ol>
    </section>
  )
}

const Readers = (props: { readonly data: Data; readonly firstSpace: PageInfo | undefined }) => {
  const { data } = props
  return (
    <>
      <Part id="insights-top" title="Top pages" empty="No page views yet." count={data.topPages.length}>
        <ol className="insights-list">
          {data.topPages.map((row) => {
            const page = pageOf(data.pages, row.page)
            return (
              <li key={`${row.page.space}/${row.page.page}`}>
                <PageName page={page} fallback={row.path} /><span className="insights-count">{views(row.views)}</span>
                {pageAction(page, `Improve “${page?.title ?? row.path}”`)}
              </li>
            )
          })}
        </ol>
      </Part>
      <Part id="insights-searches" title="Searches that found nothing" empty="Every search found something." count={data.emptySearches.length}>
        <ul className="insights-list">
          {data.emptySearches.map((row) => (
            <li key={row.query}>
              <q>{row.query}</q><span className="insights-count">{row.count} {row.count === 1 ? "search" : "searches"}</span>
              {props.firstSpace === undefined ? null : (
                <OpenChangeRequest spaceId={props.firstSpace.spaceId} subject={`Readers searched for “${row.query}”`} about={`for the search “${row.query}”`} />
              )}
            </li>
          ))}
        </ul>
      </Part>
    </>
  )
}

const Feedback = (props: { readonly data: Data }) => {
  const { data } = props
  return (
    <Part id="insights-ratings" title="Pages rated poorly" empty="No page was rated “No” or “Somewhat”." count={data.ratings.length}>
      <ul className="insights-list">
        {data.ratings.map((row) => {
          const page = pageOf(data.pages, row.page)
          const comments = data.comments.filter((c) => c.page.space === row.page.space && c.page.page === row.page.page)
          return (
            <li key={`${row.page.space}/${row.page.page}`} className="insights-rated">
              <PageName page={page} fallback="A page no longer shown" />
              <span className="insights-count">
                {Math.round(score(row.ratings) * 100)}% helpful · {row.ratings.good} yes, {row.ratings.ok} somewhat, {row.ratings.bad} no
              </span>
              {pageAction(page, `Reader feedback on “${page?.title ?? "a page"}”`)}
              {comments.length === 0 ? null : (
                <ul className="insights-comments" aria-label="Comments">
                  {comments.map((c, i) => <li key={i}><span className={`rating rating-${c.rating}`}>{c.rating === "bad" ? "No" : c.rating === "ok" ? "Somewhat" : "Yes"}</span> {c.comment}</li>)}
                </ul>
              )}
            </li>
          )
        })}
      </ul>
    </Part>
  )
}

const Broken = (props: { readonly data: Data }) => {
  const { data } = props
  return (
    <Part id="insights-broken" title="Broken links" empty="No broken links, and no reader reached a missing address." count={data.brokenLinks.length + data.notFound.length}>
      {data.brokenLinks.length === 0 ? null : (
        <ul className="insights-list">
          {data.brokenLinks.flatMap((link) => link.from.map((page) => (
            <li key={`${link.target}@${page.spaceId}/${page.pageId}`}>
              <span><span className="muted">Link to</span> <code>{link.target}</code> <span className="muted">on</span> <PageName page={page} fallback="" /></span>
              {pageAction(page, `Fix the broken link on “${page.title}”`)}
            </li>
          )))}
        </ul>
      )}
      {data.notFound.length === 0 ? null : (
        <>
          <h3>Addresses readers reached that show nothing</h3>
          <ul className="insights-list">
            {data.notFound.map((row) => <li key={row.path}><code>{row.path}</code><span className="insights-count">{views(row.views)}</span></li>)}
          </ul>
        </>
      )}
    </Part>
  )
}

/** The site dashboard's Insights tab (the screen's title and tabs are the dashboard's). */
export const Insights = (props: { readonly organizationId: string; readonly site: Site }) => {
  const data = useAtomValue(insightsAtom(siteRef(props.organizationId, props.site.id)))
  const firstSpace = AsyncResult.isSuccess(data) ? data.value.pages.values().next().value : undefined
  return (
    <div className="insights-screen">
      <Recording organizationId={props.organizationId} site={props.site} />
      {AsyncResult.isFailure(data) ? <Failure result={data} /> : !AsyncResult.isSuccess(data) ? <Loading what="the insights" /> : (
        <div className="insights-grid">
          <ViewsChart data={data.value} />
          <Readers data={data.value} firstSpace={firstSpace} />
          <Feedback data={data.value} />
          <Questions organizationId={props.organizationId} siteId={props.site.id} data={data.value} firstSpace={firstSpace} />
          <AgentFeedback data={data.value} firstSpace={firstSpace} />
          <Broken data={data.value} />
        </div>
      )}
    </div>
  )
}
