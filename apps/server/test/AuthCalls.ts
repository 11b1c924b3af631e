/**
 * Requests to the running test server as the browser app makes them (`/auth/*` with the session
 * cookie, `/v1` with it or a bearer token), and the session cookie an answer sets.
 */
import { assert } from "@effect/vitest"
import { Effect } from "effect"
import { baseUrl } from "./Harness.ts"

/** The origin of the app's own pages. */
export const ownOrigin = "http://quire.test"

export interface Answer {
  readonly status: number
  readonly headers: Headers
  readonly body: any
}

/**
 * A request as a page of `origin` (ours by default; `null` for none) sends it, with `cookie` or a
 * bearer `token`, more `headers`, and a `body` (JSON unless a string); redirects are not followed.
 */
export const call = (
  method: string,
  path: string,
  init: {
    readonly cookie?: string
    readonly token?: string
    readonly body?: unknown
    readonly headers?: Record<string, string>
    readonly origin?: string | null
  } = {}
) =>
  Effect.flatMap(baseUrl, (base) =>
    Effect.promise(async (): Promise<Answer> => {
      const origin = init.origin === undefined ? ownOrigin : init.origin
      const response = await fetch(`${base}${path}`, {
        method,
        redirect: "manual",
        headers: {
          ...(init.body === undefined ? {} : { "content-type": "application/json" }),
          ...(origin === null ? {} : { origin }),
          ...(init.cookie === undefined ? {} : { cookie: init.cookie }),
          ...(init.token === undefined ? {} : { authorization: `Bearer ${init.token}` }),
          ...init.headers
        },
        ...(init.body === undefined ? {} : { body: typeof init.body === "string" ? init.body : JSON.stringify(init.body) })
      })
      const text = await response.text()
      return { status: response.status, headers: response.headers, body: text === "" ? undefined : JSON.parse(text) }
    }))

/** The `name=value` of the session cookie an answer sets. */
export const cookieOf = (answer: Answer) => {
  const set = answer.headers.get("set-cookie") ?? ""
  assert.match(set, /^quire_session=/)
  return set.split(";")[0]!
}
