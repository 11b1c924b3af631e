/** The field rules of a site's MCP servers: name, URL, headers and condition, each refusal naming its field. */
import { Effect, Option } from "effect"
import { Errors } from "@quire/kernel"
import type { OutboundFetch } from "@quire/outbound"
import * as Condition from "../Condition.ts"
import { maxHeaderName, maxHeaders, maxHeaderValue, maxMcpUrl } from "../domain/Agent.ts"
import * as SiteGuard from "../SiteGuard.ts"

/** An HTTP header name (RFC 9110's token). */
const headerName = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/
// oxlint-disable-next-line no-control-regex -- refusing control characters is the point
const controlCharacter = /[\u0000-\u0008\u000a-\u001f\u007f]/

const bad = (field: string, reason: string) => new Errors.InvalidInput({ field, reason })

/** Why `url` cannot be an MCP server's URL, before the outbound guard looks at its host. */
export const urlProblem = (url: string): string | undefined => {
  if (url.length > maxMcpUrl) return `must be at most ${maxMcpUrl} characters`
  if (!URL.canParse(url)) return "must be an absolute URL, such as https://mcp.example.com/mcp"
  const parsed = new URL(url)
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:") return "must be an http or https URL"
  if (parsed.username !== "" || parsed.password !== "") return "must not hold a user name or password (send credentials as a header)"
  return undefined
}

/**
 * `url`, checked as given and as the outbound guard would see it: what the guard would refuse to
 * connect to is refused now; a host that does not resolve yet is let through (a call through the
 * guard checks it again).
 */
export const url = Effect.fnUntraced(function*(outbound: OutboundFetch["Service"], value: string) {
  const problem = urlProblem(value)
  if (problem !== undefined) return yield* bad("url", problem)
  yield* outbound.check(value).pipe(Effect.catch((e) =>
    e.reason === "blocked"
      ? Effect.fail(bad("url", `leads to a private or local address, which this server does not call unless its administrator allows it (QUIRE_FETCH_ALLOW): ${e.message.split(";")[0]}`))
      : e.reason === "invalid-url"
      ? Effect.fail(bad("url", e.message))
      : Effect.void
  ))
})

export const name = (value: string): Effect.Effect<void, Errors.InvalidInput> =>
  SiteGuard.checkLength("name", value, 1, 100).pipe(
    Effect.andThen(value.trim() === "" ? Effect.fail(bad("name", "must not be blank")) : Effect.void)
  )

/** The condition to store: none (`""` or null) as null, undefined left unchanged; its syntax checked. */
export const condition = (value: string | null | undefined): Effect.Effect<string | null | undefined, Errors.InvalidInput> => {
  if (value === undefined || value === null) return Effect.succeed(value)
  if (value.trim() === "") return Effect.succeed(null)
  const parsed = Condition.parse(value)
  return parsed.ok ? Effect.succeed(value) : Effect.fail(bad("condition", parsed.message))
}

/**
 * The headers to store, in order, checked; a value equal to `masked` keeps what `stored` holds for
 * that header (`stored` undefined: a new server, where the mask is a value like any other).
 */
export const headers = Effect.fnUntraced(function*(
  given: Readonly<Record<string, string>>,
  stored: Readonly<Record<string, string>> | undefined,
  masked: string
) {
  const entries = Object.entries(given)
  if (entries.length > maxHeaders) return yield* bad("headers", `must hold at most ${maxHeaders} headers (${entries.length} sent)`)
  const seen = new Set<string>()
  const out: Array<[string, string]> = []
  for (const [header, value] of entries) {
    const field = `headers.${header}`
    if (header.length === 0 || header.length > maxHeaderName || !headerName.test(header)) {
      return yield* bad(field, `is not a valid HTTP header name (letters, digits and !#$%&'*+-.^_\`|~, at most ${maxHeaderName})`)
    }
    if (seen.has(header.toLowerCase())) return yield* bad(field, "is given twice (header names ignore case)")
    seen.add(header.toLowerCase())
    if (typeof value !== "string" || value.length < 1 || value.length > maxHeaderValue) return yield* bad(field, `must be 1 to ${maxHeaderValue} characters`)
    if (controlCharacter.test(value)) return yield* bad(field, "must not contain line breaks or control characters")
    if (value === masked && stored !== undefined) {
      const kept = Option.fromNullishOr(stored[header])
      if (Option.isNone(kept)) return yield* bad(field, "has no stored value to keep: send the value itself")
      out.push([header, kept.value])
    } else out.push([header, value])
  }
  return out
})
