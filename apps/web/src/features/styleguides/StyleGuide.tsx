/**
 * A site's "Style guide" tab: its rules (the `##` headings of its style guide space, each marked
 * checked without a model or by a model), the starter templates when it has none, a check of up to
 * three of its spaces, and its runs with their findings. Editors make the guide and run checks;
 * members who see the site read them. Without a model, it says what a model would add.
 */
import type { Site, SiteStructure, SiteStyleguideRun } from "@quire/api"
import { AsyncResult } from "effect/reactivity"
import { type FormEvent, useState } from "react"
import { useAtomValue, useMutation } from "../../api/react.ts"
import { Link } from "../../ui/Link.tsx"
import { Failure, Loading } from "../../ui/States.tsx"
import { formatTime } from "../../ui/time.ts"
import { messageElse, messageFor } from "../sites/errors.ts"
import { siteRef, structureAtom, useAction } from "../sites/queries.ts"
import { createStyleguide, findingsAtom, orgStyleguidesAtom, runsAtom, startRun, styleguideAtom, styleguideKey, templatesAtom } from "./queries.ts"
import "./styleguides.css"

/** The spaces a site shows, once each, in its order. */
const spacesOf = (structure: SiteStructure): ReadonlyArray<{ readonly id: string; readonly title: string }> => {
  const siteSpaces = structure.type === "siteSpaces"
    ? structure.structure
    : structure.structure.flatMap((entry) => entry.object === "site-section" ? entry.siteSpaces : entry.object === "site-section-group" ? entry.sections.flatMap((s) => s.siteSpaces) : [])
  const seen = new Map<string, string>()
  for (const s of siteSpaces) if (!seen.has(s.space.id)) seen.set(s.space.id, s.space.title || "Untitled space")
  return Array.from(seen, ([id, title]) => ({ id, title }))
}

const Templates = (props: { readonly organizationId: string; readonly site: Site }) => {
  const templates = useAtomValue(templatesAtom(props.organizationId))
  const [chosen, setChosen] = useState("plain-language")
  const create = useMutation(createStyleguide)
  const action = useAction()
  const editor = props.site.permissions.edit
  const start = (template: string | undefined) =>
    void action.run(() => create({
      params: { organizationId: props.organizationId, siteId: props.site.id },
      payload: template === undefined ? null : { template },
      reactivityKeys: [styleguideKey(props.site.id), `styleguides:${props.organizationId}`]
    }))
  return (
    <section className="panel styleguide-start" aria-labelledby="styleguide-start-h">
      <h3 id="styleguide-start-h">Start a style guide</h3>
      <p className="muted">A style guide is a space of rules, one under each <code>##</code> heading, that checks comment on change requests with. Start from a template and make it yours, or from a blank page.</p>
      {AsyncResult.isFailure(templates) ? <Failure result={templates} /> : !AsyncResult.isSuccess(templates) ? <Loading what="the templates" /> : (
        <fieldset className="styleguide-templates" disabled={!editor}>
          <legend>Templates</legend>
          {templates.value.templates.map((t) => (
            <div key={t.id} className="styleguide-template">
              <label>
                <input type="radio" name="styleguide-template" value={t.id} checked={chosen === t.id} onChange={() => setChosen(t.id)} />
                <span><span aria-hidden="true">{t.emoji}</span> <strong>{t.title}</strong></span>
              </label>
              {t.subtitle === undefined ? null : <p className="meta">{t.subtitle}</p>}
              <details>
                <summary>Preview {t.title}</summary>
                <pre className="styleguide-preview">{t.markdown}</pre>
              </details>
            </div>
          ))}
        </fieldset>
      )}
      {editor ? (
        <>
          {action.problem === undefined ? null : <p className="form-error" role="alert">{messageFor(action.problem, "template") ?? action.problem.message}</p>}
          <div className="toolbar">
            <button type="button" className="primary" disabled={action.busy} aria-busy={action.busy} onClick={() => start(chosen)}>Use this template</button>
            <button type="button" disabled={action.busy} onClick={() => start(undefined)}>Start blank</button>
          </div>
        </>
      ) : <p className="muted">The site's editors and the organization's admins start its style guide.</p>}
    </section>
  )
}

const Findings = (props: { readonly organizationId: string; readonly siteId: string; readonly run: SiteStyleguideRun }) => {
  const findings = useAtomValue(findingsAtom(`${props.organizationId}\n${props.siteId}\n${props.run.id}`))
  if (AsyncResult.isFailure(findings)) return <Failure result={findings} />
  if (!AsyncResult.isSuccess(findings)) return <Loading what="the findings" />
  if (findings.value.items.length === 0) return <p className="muted">No sentence breaks the guide's rules.</p>
  const numbers = new Map(props.run.changeRequests.map((c) => [c.changeRequest, c.space]))
  return (
    <ul className="styleguide-findings" aria-label="Findings">
      {findings.value.items.map((f) => (
        <li key={f.position}>
          <p><strong>{f.rule.title}</strong> <span className="meta">on {f.page.title}{f.source === "model" ? " · by the model" : ""}</span></p>
          <p>{f.message}</p>
          <blockquote>{f.sentence}</blockquote>
          {f.fix === undefined ? null : <p><span className="meta">Suggested:</span> {f.fix}</p>}
          {numbers.has(f.changeRequest) ? <p className="meta">In the check's change request (its review lists the comment).</p> : null}
        </li>
      ))}
    </ul>
  )
}

const statusWords: Record<SiteStyleguideRun["status"], string> = { running: "Running", done: "Done", failed: "Failed" }

const Runs = (props: { readonly organizationId: string; readonly siteId: string; readonly spaceTitles: ReadonlyMap<string, string> }) => {
  const runs = useAtomValue(runsAtom(siteRef(props.organizationId, props.siteId)))
  if (AsyncResult.isFailure(runs)) return <Failure result={runs} />
  if (!AsyncResult.isSuccess(runs)) return <Loading what="the checks" />
  if (runs.value.items.length === 0) return <p className="muted">No check has run yet.</p>
  return (
    <ul className="styleguide-runs" aria-label="Checks">
      {runs.value.items.map((run) => (
        <li key={run.id} className="styleguide-run">
          <p>
            <strong>{run.target === "change-request" ? "Change request check" : "Spaces check"}</strong>{" "}
            <span className={`badge run-${run.status}`}>{statusWords[run.status]}</span>{" "}
            <span className="meta">{formatTime(run.createdAt)} by {run.createdBy.displayName || "someone"} · {run.findings} {run.findings === 1 ? "finding" : "findings"}{run.model ? " · with the model" : ""}</span>
          </p>
          <p className="meta">
            {run.changeRequests.map((c, i) => (
              <span key={c.changeRequest}>{i > 0 ? ", " : ""}<Link href={`/s/${c.space}/~/change-requests`}>{props.spaceTitles.get(c.space) ?? "Space"}</Link></span>
            ))}
          </p>
          {run.error === undefined ? null : <p className="meta">{run.error}</p>}
          {run.status === "running" ? null : (
            <details>
              <summary>Findings of this check</summary>
              <Findings organizationId={props.organizationId} siteId={props.siteId} run={run} />
            </details>
          )}
        </li>
      ))}
    </ul>
  )
}

const RunForm = (props: { readonly organizationId: string; readonly site: Site; readonly spaces: ReadonlyArray<{ readonly id: string; readonly title: string }>; readonly guideSpace: string }) => {
  const choices = props.spaces.filter((s) => s.id !== props.guideSpace)
  const [picked, setPicked] = useState<ReadonlyArray<string>>(() => choices.slice(0, 1).map((s) => s.id))
  const [said, setSaid] = useState("")
  const run = useMutation(startRun)
  const action = useAction()
  const submit = async (event: FormEvent) => {
    event.preventDefault()
    setSaid("")
    const done = await action.run(() => run({
      params: { organizationId: props.organizationId, siteId: props.site.id },
      payload: { spaces: picked },
      reactivityKeys: [styleguideKey(props.site.id)]
    }))
    if (done) setSaid("The check is running: its findings become comments in a change request on each space.")
  }
  if (choices.length === 0) return <p className="muted">Add a space to the site to check it.</p>
  return (
    <form className="panel styleguide-run-form" onSubmit={(event) => void submit(event)} aria-label="Check spaces">
      <h3>Check spaces</h3>
      <fieldset>
        <legend>Spaces to check (up to 3)</legend>
        {choices.map((s) => (
          <label key={s.id} className="check">
            <input type="checkbox" checked={picked.includes(s.id)} disabled={!picked.includes(s.id) && picked.length >= 3}
              onChange={(event) => setPicked(event.target.checked ? [...picked, s.id] : picked.filter((id) => id !== s.id))} />
            {s.title}
          </label>
        ))}
      </fieldset>
      {messageElse(action.problem) === undefined ? null : <p className="form-error" role="alert">{messageElse(action.problem)}</p>}
      {messageFor(action.problem, "spaces") === undefined ? null : <p className="form-error" role="alert">{messageFor(action.problem, "spaces")}</p>}
      <div className="toolbar">
        <button type="submit" className="primary" disabled={action.busy || picked.length === 0} aria-busy={action.busy}>Run check</button>
        <span className="status" role="status">{said}</span>
      </div>
    </form>
  )
}

export const StyleGuide = (props: { readonly organizationId: string; readonly site: Site }) => {
  const guides = useAtomValue(orgStyleguidesAtom(props.organizationId))
  const has = AsyncResult.isSuccess(guides) ? guides.value.styleguides.some((g) => g.sites.some((s) => s.id === props.site.id)) : undefined
  return (
    <section aria-labelledby="styleguide-heading" className="site-part styleguide">
      <h2 id="styleguide-heading">Style guide</h2>
      {AsyncResult.isFailure(guides) ? <Failure result={guides} />
        : has === undefined ? <Loading what="the style guide" />
        : has ? <Guide organizationId={props.organizationId} site={props.site} />
        : <Templates organizationId={props.organizationId} site={props.site} />}
    </section>
  )
}

const Guide = (props: { readonly organizationId: string; readonly site: Site }) => {
  const ref = siteRef(props.organizationId, props.site.id)
  const guide = useAtomValue(styleguideAtom(ref))
  const structure = useAtomValue(structureAtom(ref))
  const spaces = AsyncResult.isSuccess(structure) ? spacesOf(structure.value) : []
  const titles = new Map(spaces.map((s) => [s.id, s.title]))
  return (
    <>
      {AsyncResult.isInitial(guide) ? <Loading what="the style guide" />
        : AsyncResult.isFailure(guide) ? <Failure result={guide} />
        : (
          <>
            <section className="panel" aria-labelledby="styleguide-rules-h">
              <h3 id="styleguide-rules-h">Rules</h3>
              <p className="muted">
                The rules are the <code>##</code> headings of the space <Link href={`/s/${guide.value.space.id}`}>{guide.value.space.title}</Link>: edit them there, in a change request.
              </p>
              {guide.value.rules.length === 0 ? <p className="muted">The guide has no rule yet: add one under a <code>##</code> heading.</p> : (
                <ul className="styleguide-rules" aria-label="Rules">
                  {guide.value.rules.map((rule) => (
                    <li key={rule.id}>
                      <strong>{rule.title}</strong>{" "}
                      {rule.checks.length > 0 ? <span className="badge">Checked without a model</span> : null}{" "}
                      {rule.needsModel ? <span className={guide.value.model ? "badge" : "badge muted-badge"}>{guide.value.model ? "Checked by the model" : "Needs a model"}</span> : null}
                      {rule.text === "" ? null : <p className="meta styleguide-rule-text">{rule.text}</p>}
                    </li>
                  ))}
                </ul>
              )}
              {guide.value.withoutModel === undefined ? null : <p className="site-note" role="note">{guide.value.withoutModel}</p>}
            </section>
            {props.site.permissions.edit ? <RunForm organizationId={props.organizationId} site={props.site} spaces={spaces} guideSpace={guide.value.space.id} /> : null}
            <section className="panel" aria-labelledby="styleguide-runs-h">
              <h3 id="styleguide-runs-h">Checks</h3>
              <Runs organizationId={props.organizationId} siteId={props.site.id} spaceTitles={titles} />
            </section>
          </>
        )}
    </>
  )
}
