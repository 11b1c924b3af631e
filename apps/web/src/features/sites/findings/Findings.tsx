/**
 * `/o/<org>/sites/<site>/findings`, the site dashboard's Findings tab (GitBook's site-context):
 * what readers asked that the docs do not answer, from the site's own questions, failed searches,
 * bad ratings and 404s, pushed tickets and connections. "Run a scan" clusters them into topics and
 * checks each against the published pages (with a model, it also judges whether the page that
 * answers is outdated or wrong, and names the topics); each finding lists its pages and records and
 * opens a change request fixing it (the agent drafts it when the server has a model; without one
 * its page holds the questions, or a note atop the page to fix). Loaded with the site screen's chunk.
 */
import type { ContextRecord, Site, SiteFinding, SiteScan } from "@quire/api"
import { AsyncResult } from "effect/reactivity"
import { useState } from "react"
import { useAtomValue, useMutation } from "../../../api/react.ts"
import { documentText } from "../../change-request/description-view.ts"
import { navigate } from "../../../router.ts"
import { EmptyState } from "../../../ui/EmptyState.tsx"
import { Link } from "../../../ui/Link.tsx"
import { ChevronDownIcon, QuestionIcon } from "../../../ui/icons.tsx"
import { refusalOf } from "../../../ui/refusal.ts"
import { Failure, Loading } from "../../../ui/States.tsx"
import "../insights/insights.css"
import "./findings.css"
import { changeRequestsOfFinding, findingDetailAtom, findingsAtom, findingsKey, findingsRef, readScan, startScan, triggerFinding } from "./queries.ts"

const types: Readonly<Record<SiteFinding["type"], string>> = {
  "content-gap": "Missing from the docs",
  "content-outdated": "Outdated",
  "content-incorrect": "Incorrect",
  "broken-link": "Page not found",
  "outbound-link-error": "Broken outbound link",
  other: "Other"
}
const origins: Readonly<Record<ContextRecord["origin"], string>> = {
  question: "Question on the site",
  search: "Search that found nothing",
  feedback: "Page rated bad",
  "not-found": "Address that found no page",
  api: "Pushed ticket",
  website: "Website page",
  issue: "Issue"
}
const scanStates: Readonly<Record<SiteScan["status"], string>> = { pending: "queued", running: "running", done: "done", failed: "failed" }
const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`
const dateOf = (iso: string) => new Date(iso).toLocaleString(undefined, { year: "numeric", month: "short", day: "numeric", hour: "2-digit", minute: "2-digit" })

/** "Run a scan": queues one, then follows it until it ends and reads the findings again. */
const RunScan = (props: { readonly organizationId: string; readonly siteId: string; readonly last: SiteScan | undefined }) => {
  const start = useMutation(startScan)
  const read = useMutation(readScan)
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | undefined>()
  const params = { organizationId: props.organizationId, siteId: props.siteId }
  const run = async () => {
    setBusy(true)
    setError(undefined)
    try {
      let scan = await start({ params })
      for (let i = 0; i < 600 && (scan.status === "pending" || scan.status === "running"); i++) {
        await new Promise((resolve) => setTimeout(resolve, 500))
        scan = await read({ params: { ...params, siteScanId: scan.id }, reactivityKeys: [] })
      }
      await read({ params: { ...params, siteScanId: scan.id }, reactivityKeys: [findingsKey(props.siteId)] })
      if (scan.status === "failed") setError(scan.failureMessage ?? "The scan failed.")
    } catch (failure) {
      setError(`Could not scan: ${refusalOf(failure)?.message ?? "no answer from the server"}`)
    } finally {
      setBusy(false)
    }
  }
  return (
    <div className="findings-scan">
      <button type="button" className="button" onClick={() => void run()} disabled={busy}>{busy ? "Scanning…" : "Run a scan"}</button>
      <span className="muted" role="status">
        {busy ? "Clustering the records and searching the docs for each…" : props.last === undefined ? "No scan yet." : `Last scan ${scanStates[props.last.status]}, ${dateOf(props.last.finishedAt ?? props.last.createdAt)}.`}
      </span>
      {error === undefined ? null : <span className="field-error" role="alert">{error}</span>}
    </div>
  )
}

/** "Open a change request": the finding's trigger, then the change request it opened. */
const OpenFix = (props: { readonly organizationId: string; readonly siteId: string; readonly finding: SiteFinding }) => {
  const trigger = useMutation(triggerFinding)
  const list = useMutation(changeRequestsOfFinding)
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | undefined>()
  const params = { organizationId: props.organizationId, siteId: props.siteId, siteFindingId: props.finding.id }
  const open = async () => {
    setBusy(true)
    setError(undefined)
    try {
      await trigger({ params, reactivityKeys: [findingsKey(props.siteId)] })
      const opened = await list({ params, query: { limit: 1 }, reactivityKeys: [] })
      const cr = opened.items[0]
      if (cr !== undefined) navigate(`/s/${cr.space}/~/changes/${cr.number}/`)
      else setBusy(false)
    } catch (failure) {
      setBusy(false)
      setError(`Could not open a change request: ${refusalOf(failure)?.message ?? "no answer from the server"}`)
    }
  }
  return (
    <span className="insights-action">
      <button type="button" className="button small" onClick={() => void open()} disabled={busy} aria-label={`Open a change request for “${props.finding.title}”`}>
        {busy ? "Opening…" : "Open a change request"}
      </button>
      {error === undefined ? null : <span className="field-error" role="alert">{error}</span>}
    </span>
  )
}

/** A judged finding's description: what the page says (quoted) and what the record says instead. */
const JudgedDescription = (props: { readonly finding: SiteFinding }) => {
  const lines = documentText(props.finding.description as unknown as Parameters<typeof documentText>[0]).split("\n").map((l) => l.trim()).filter((l) => l !== "")
  return (
    <div className="findings-description">
      {lines.map((line, i) => line.startsWith(">") ? <blockquote key={i}>{line.replace(/^>\s*/, "").replace(/\\([\\`*_[\]<>#|])/g, "$1")}</blockquote> : <p key={i}>{line}</p>)}
    </div>
  )
}

const Detail = (props: { readonly organizationId: string; readonly siteId: string; readonly finding: SiteFinding; readonly editor: boolean }) => {
  const detail = useAtomValue(findingDetailAtom(`${props.organizationId}\n${props.siteId}\n${props.finding.id}`))
  if (AsyncResult.isFailure(detail)) return <Failure result={detail} />
  if (!AsyncResult.isSuccess(detail)) return <Loading what="the finding" />
  const { changeRequests, pages, records } = detail.value
  const judged = props.finding.type === "content-outdated" || props.finding.type === "content-incorrect"
  return (
    <div className="insights-question-detail">
      {judged ? <JudgedDescription finding={props.finding} /> : null}
      {pages.length === 0 ? null : (
        <>
          <h4>{judged ? "The page" : "Pages about it"}</h4>
          <ul className="insights-question-sources">
            {pages.map((p) => (
              <li key={`${p.spaceId}/${p.page.id}`}>
                <Link href={`/s/${p.spaceId}/${p.page.path}`}>{p.page.title}</Link>
              </li>
            ))}
          </ul>
        </>
      )}
      <h4>What readers and customers asked</h4>
      <ul className="insights-question-sources">
        {records.map((record) => (
          <li key={record.id}>
            <q>{record.title}</q>
            <span className="insights-count">{origins[record.origin]}</span>
            {record.urls.source === undefined ? null : <a href={record.urls.source} target="_blank" rel="noreferrer">Source</a>}
          </li>
        ))}
      </ul>
      {changeRequests.length === 0 ? null : (
        <>
          <h4>Change requests</h4>
          <ul className="insights-question-sources">
            {changeRequests.map((cr) => (
              <li key={cr.id}>
                <a href={`/s/${cr.space}/~/changes/${cr.number}/`}>#{cr.number} {cr.subject}</a>
                <span className="insights-count">{cr.status}</span>
              </li>
            ))}
          </ul>
        </>
      )}
      {props.editor && (props.finding.status === "open" || props.finding.status === "candidate")
        ? <OpenFix organizationId={props.organizationId} siteId={props.siteId} finding={props.finding} />
        : null}
    </div>
  )
}

const Finding = (props: { readonly organizationId: string; readonly siteId: string; readonly finding: SiteFinding; readonly editor: boolean }) => {
  const { finding } = props
  const [open, setOpen] = useState(false)
  return (
    <li className="insights-question">
      <details onToggle={(event) => setOpen(event.currentTarget.open)}>
        <summary>
          <ChevronDownIcon />
          <strong>{finding.title}</strong>
          <span className={`outcome findings-severity-${finding.severity}`}>{finding.severity}</span>
          <span className="insights-count">
            {types[finding.type]} · {plural(finding.records, "record", "records")} · {plural(finding.questions, "question", "questions")}
            {finding.changeRequests > 0 ? ` · ${plural(finding.changeRequests, "change request", "change requests")}` : ""}
            {finding.status === "open" || finding.status === "candidate" ? "" : ` · ${finding.status}`}
          </span>
        </summary>
        {open ? <Detail organizationId={props.organizationId} siteId={props.siteId} finding={finding} editor={props.editor} /> : null}
      </details>
    </li>
  )
}

export const Findings = (props: { readonly organizationId: string; readonly site: Site }) => {
  const data = useAtomValue(findingsAtom(findingsRef(props.organizationId, props.site.id)))
  const editor = props.site.permissions.edit
  return (
    <section aria-labelledby="findings-heading" className="site-part findings">
      <h2 id="findings-heading">Findings</h2>
      <p className="hint">
        A scan reads what readers asked that the site did not answer (questions to its assistant, searches that found nothing, pages rated bad, addresses that found no page) and the
        tickets pushed through the API or pulled by connections; it groups them into topics by their words and searches the published pages for each. A topic no page answers is a finding.
      </p>
      <p className="site-note" role="note">
        With an AI model on the server (<code>QUIRE_AI_URL</code>), a scan also judges whether the page that answers a topic is outdated or contradicts what was reported, names each
        topic, and a finding’s change request is drafted by the agent. Without one, scans find what the docs do not answer, and the change request lists the questions for a writer.
      </p>
      {AsyncResult.isFailure(data) ? <Failure result={data} /> : !AsyncResult.isSuccess(data) ? <Loading what="the findings" /> : (
        <>
          {data.value.lastScan?.withoutModel === undefined ? null : <p className="site-note" role="note">{data.value.lastScan.withoutModel}</p>}
          {editor ? <RunScan organizationId={props.organizationId} siteId={props.site.id} last={data.value.lastScan} /> : null}
          <p className="insights-total">
            <strong>{data.value.stats.statuses.open}</strong> open {data.value.stats.statuses.open === 1 ? "finding" : "findings"} ·{" "}
            <strong>{data.value.stats.questions}</strong> {data.value.stats.questions === 1 ? "question" : "questions"} behind them ·{" "}
            <strong>{data.value.stats.mergedChangeRequests}</strong> merged {data.value.stats.mergedChangeRequests === 1 ? "fix" : "fixes"}
          </p>
          <div className="insights-grid">
            <section className="insights-part panel" aria-labelledby="findings-list">
              <h2 id="findings-list">What the docs miss or get wrong</h2>
              {data.value.findings.length === 0
                ? <EmptyState icon={<QuestionIcon size={20} />} title="No findings">{data.value.lastScan === undefined ? "Run a scan to check what readers asked against the docs." : "The last scan found every topic answered by a page."}</EmptyState>
                : (
                  <ul className="insights-list insights-question-list">
                    {data.value.findings.map((finding) => <Finding key={finding.id} organizationId={props.organizationId} siteId={props.site.id} finding={finding} editor={editor} />)}
                  </ul>
                )}
            </section>
            <section className="insights-part panel" aria-labelledby="findings-topics">
              <h2 id="findings-topics">Topics</h2>
              {data.value.topics.length === 0 ? <p className="muted">Scans group records into topics by the words they share.</p> : (
                <ul className="insights-list">
                  {data.value.topics.map((topic) => (
                    <li key={topic.id}>
                      <span>{topic.label}</span>
                      <span className="insights-count">
                        {plural(topic.records, "record", "records")} · {plural(topic.pages, "page", "pages")} about it · {plural(topic.findings.open, "open finding", "open findings")}
                      </span>
                    </li>
                  ))}
                </ul>
              )}
            </section>
          </div>
        </>
      )}
    </section>
  )
}
