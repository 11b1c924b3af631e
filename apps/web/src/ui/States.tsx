/** What a screen shows while loading, and when a query failed. */
import type { AsyncResult } from "effect/reactivity"
import { failureOf } from "../api/react.ts"

export const Loading = (props: { readonly what: string }) => <p className="muted" role="status">Loading {props.what}…</p>

const messageOf = (error: unknown): string => {
  if (typeof error === "object" && error !== null) {
    if ("_tag" in error && error._tag === "NotFound") return "This does not exist, or you cannot see it."
    if ("_tag" in error && error._tag === "Forbidden") return "You do not have access to this."
    if ("_tag" in error && error._tag === "Unauthorized") return "Your session has ended. Sign in again."
    if ("message" in error && typeof error.message === "string" && error.message !== "") return error.message
  }
  return "Something went wrong while loading this."
}

export const Failure = (props: { readonly result: AsyncResult.Failure<unknown, unknown> }) => (
  <div className="panel" role="alert">
    <p>{messageOf(failureOf(props.result))}</p>
  </div>
)
