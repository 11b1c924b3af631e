/**
 * "Check style" in a change request's review: checks the pages it changes against the style guide
 * of a site showing its space (Quire's `checkChangeRequestStyle`); each sentence that breaks a rule
 * becomes a review comment on its block, naming the rule and a fix. The comments below are read
 * again until the check ends; without a model, it says what a model would add.
 */
import type { SiteStyleguideRun } from "@quire/api"
import { AsyncResult, type Atom } from "effect/reactivity"
import { useEffect, useState } from "react"
import { useAtomValue, useMutation, useRefresh } from "../../api/react.ts"
import { problemOf } from "../sites/errors.ts"
import { siteRef } from "../sites/queries.ts"
import { checkChangeRequest, runsAtom } from "./queries.ts"

/** How long the screen waits for a check to end before it stops reading again. */
const patience = 120_000

const RunStatus = (props: { readonly organizationId: string; readonly started: SiteStyleguideRun; readonly comments: Atom.Atom<unknown> }) => {
  const runs = runsAtom(siteRef(props.organizationId, props.started.site))
  const listed = useAtomValue(runs)
  const refresh = useRefresh()
  const run = AsyncResult.isSuccess(listed) ? listed.value.items.find((r) => r.id === props.started.id) ?? props.started : props.started
  const running = run.status === "running"
  useEffect(() => {
    if (!running) {
      refresh(props.comments)
      return
    }
    const until = Date.now() + patience
    const timer = setInterval(() => {
      if (Date.now() > until) clearInterval(timer)
      else refresh(runs)
    }, 1000)
    return () => clearInterval(timer)
  }, [running, refresh, runs, props.comments])
  return (
    <p role="status">
      {running ? "Checking the changed pages against the style guide…"
        : run.status === "failed" ? `The check failed: ${run.error ?? "no reason given"}.`
        : run.findings === 0 ? "The changed pages follow the style guide."
        : `The check found ${run.findings} ${run.findings === 1 ? "sentence" : "sentences"} to look at: ${run.findings === 1 ? "it is a comment" : "they are comments"} on the change request, naming the rule and a fix.`}
      {!running && !run.model ? " Checked without a model: a model (QUIRE_AI_URL) would also check the guide's prose rules and propose rewrites." : null}
      {!running && run.model && run.error !== undefined && run.status === "done" ? ` ${run.error}` : null}
    </p>
  )
}

export const CheckStyle = (props: {
  readonly spaceId: string
  readonly number: number
  readonly organizationId: string | undefined
  /** The review's comments, read again when the check ends. */
  readonly comments: Atom.Atom<unknown>
}) => {
  const check = useMutation(checkChangeRequest)
  const [busy, setBusy] = useState(false)
  const [problem, setProblem] = useState<string | undefined>(undefined)
  const [started, setStarted] = useState<SiteStyleguideRun | undefined>(undefined)
  const start = async () => {
    setBusy(true)
    setProblem(undefined)
    try {
      const run = await check({ params: { spaceId: props.spaceId, changeRequestId: String(props.number) }, payload: null, reactivityKeys: [] })
      setStarted(run)
    } catch (error) {
      setProblem(problemOf(error).message)
    } finally {
      setBusy(false)
    }
  }
  return (
    <section aria-labelledby="check-style-h" className="check-style">
      <h2 id="check-style-h">Style guide</h2>
      <p className="muted">Checks the pages this change request changes against the style guide of its site, and comments where a sentence breaks a rule.</p>
      <div className="review-toolbar">
        <button type="button" disabled={busy} aria-busy={busy} onClick={() => void start()}>Check style</button>
      </div>
      {problem === undefined ? null : <p className="review-error" role="alert">{problem}</p>}
      {started === undefined || props.organizationId === undefined ? null
        : <RunStatus key={started.id} organizationId={props.organizationId} started={started} comments={props.comments} />}
    </section>
  )
}
