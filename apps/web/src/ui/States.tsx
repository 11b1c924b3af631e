/** What a screen shows while loading, and when a query failed. */
import type { AsyncResult } from "effect/reactivity"
import { failureOf } from "../api/react.ts"

export const Loading = (props: { readonly what: string }) => <p className="muted" role="status">Loading {props.what}…</p>

/** The API's error classes (packages/api ApiErrors) by name; their body is `{ error: { code, message } }`. */
export const apiErrorName = (error: unknown): string | undefined =>
  error instanceof Error && "error" in error ? error.name : undefined

/** The words of a failed load or write: the API's message, or plain words for its common errors. */
export const messageOf = (error: unknown): string => {
  const name = apiErrorName(error)
  if (name === "NotFound") return "This does not exist, or you cannot see it."
  if (name === "Forbidden") return "You do not have access to this."
  if (name === "Unauthorized") return "Your session has ended. Sign in again."
  if (typeof error === "object" && error !== null) {
    if ("error" in error && typeof error.error === "object" && error.error !== null && "message" in error.error && typeof error.error.message === "string") return error.error.message
    if ("message" in error && typeof error.message === "string" && error.message !== "") return error.message
  }
  return "Something went wrong while loading this."
}

export const Failure = (props: { readonly result: AsyncResult.Failure<unknown, unknown> }) => (
  <div className="panel" role="alert">
    <p>{messageOf(failureOf(props.result))}</p>
  </div>
)
