/** The state of the last run, its errors, and when it ended. */
import type { OpenAPISpec } from "@quire/api"
import { formatTime } from "../../../ui/time.ts"
import { stateOf } from "../model.ts"

export interface ProcessingProps {
  readonly spec: OpenAPISpec
}

export const Processing = (props: ProcessingProps) => {
  const { spec } = props
  const state = stateOf(spec)
  const errors = spec.lastProcessedErrors ?? []
  return (
    <section className={`panel spec-state${state.failed ? " failed" : ""}`} aria-labelledby="state-heading">
      <h2 id="state-heading">State</h2>
      <p role="status" className="spec-state-label">{state.running ? `${state.label}…` : state.label}</p>
      {spec.lastProcessedAt === undefined ? null : <p className="meta">Last run ended {formatTime(spec.lastProcessedAt)}</p>}
      {errors.length === 0 ? null : (
        <>
          <h3>{spec.lastProcessedErrorCount === 1 ? "The error" : `Errors (${spec.lastProcessedErrorCount})`}</h3>
          <ul className="spec-errors">
            {errors.map((error, index) => <li key={index}>{error.code === undefined ? null : <code>{error.code}</code>} {error.message}</li>)}
          </ul>
          {errors.length < spec.lastProcessedErrorCount ? <p className="meta">The first {errors.length} are shown.</p> : null}
        </>
      )}
      {state.failed && spec.lastVersion !== undefined ? <p className="meta">Pages keep showing the last version that was processed.</p> : null}
    </section>
  )
}
