/**
 * Who is reading a published site: the decision to admit a reader (with the claims that drive
 * adaptive content, `noindex`, and the cookies that keep a share key or visitor token after the
 * first visit) or to deny them, and the filters that keep what a condition shows to an audience.
 */
import { createHash } from "node:crypto"
import { Clock, Duration, Effect } from "effect"
import { sameSecret } from "@quire/kernel"
import * as Condition from "./Condition.ts"
import * as VisitorToken from "./VisitorToken.ts"

export type Visibility = "public" | "unlisted" | "share-link" | "visitor-auth"

/** Query parameter of a share link's secret. */
export const shareParameter = "share"
/** Query parameter of a visitor token, as GitBook names it. */
export const tokenParameter = "jwt_token"
/** How long a share key is kept after a visit; it is checked again on every request. */
export const shareCookieMaxAge = Duration.days(30)

const cookieSafe = (siteId: string): string => siteId.replaceAll(/[^A-Za-z0-9_-]/g, "_")

/** The cookie keeping a share-link site's key. */
export const shareCookieName = (siteId: string): string => `quire_share_${cookieSafe(siteId)}`
/** The cookie keeping a visitor-auth site's token. */
export const visitorCookieName = (siteId: string): string => `quire_visitor_${cookieSafe(siteId)}`

/** The cookie keeping the unsigned claims a visitor brought in the query. */
export const unsignedCookieName = (siteId: string): string => `quire_unsigned_${cookieSafe(siteId)}`
/** GitBook's cookies for adaptive content, set by a product on its docs' domain: a JWT, and JSON. */
export const gitbookTokenCookie = "gitbook-visitor-token"
export const gitbookPublicCookie = "gitbook-visitor-public"
/** Query parameters `visitor.<claim>=<value>` carry unsigned claims, as GitBook's URL method does. */
export const unsignedParameterPrefix = "visitor."

/** A cookie to set on the response; `options` fit `HttpServerResponse.setCookie`. */
export interface SetCookie {
  readonly name: string
  readonly value: string
  readonly options: {
    readonly path: string
    readonly httpOnly: true
    readonly sameSite: "lax"
    readonly secure: boolean
    /** Absent for a cookie that lasts the browser session; zero removes the cookie. */
    readonly maxAge?: Duration.Duration
  }
}

export interface AudienceInput {
  readonly site: {
    readonly id: string
    readonly visibility: Visibility
    readonly published: boolean
    /** The key visitor tokens are signed with; a site without one admits no token. */
    readonly visitorKey?: string | null | undefined
  }
  /** Where the site is published (`https://docs.example.com/`, `http://host/~sites/<id>/`): cookie path and `Secure`. */
  readonly siteUrl: string | URL
  readonly query?: URLSearchParams | Readonly<Record<string, string | undefined>> | undefined
  readonly cookies?: Readonly<Record<string, string | undefined>> | undefined
  /** Whether a secret is an active share key of the site; used before `activeShareSecrets`. */
  readonly checkShare?: ((secret: string) => Effect.Effect<boolean>) | undefined
  /** The site's active share keys, when the caller has them at hand rather than a `checkShare`. */
  readonly activeShareSecrets?: ReadonlyArray<string> | undefined
  /** The time tokens are checked at; the `Clock`'s by default. */
  readonly now?: Date | undefined
  /** How far ahead a visitor token's `exp` may be, in seconds (default `VisitorToken.defaultMaxAgeSeconds`). */
  readonly tokenMaxAgeSeconds?: number | undefined
  /**
   * The reader is a member of the site's organization (a Quire single sign-on session): they may
   * read what they could read through the API, so a share-link or visitor-auth site admits them
   * without a key or token (`via: "member"`).
   */
  readonly member?: boolean | undefined
}

export type DenialReason =
  | "unpublished"
  | "share-key-missing"
  | "share-key-invalid"
  | "visitor-token-missing"
  | "visitor-token-expired"
  | "visitor-token-invalid"
  /** The token has no `exp`, or one further ahead than the instance allows. */
  | "visitor-token-lifetime"

export type AudienceDecision =
  | {
      readonly kind: "admitted"
      /** The visitor's claims (a verified token's payload); empty for an anonymous reader. */
      readonly claims: Record<string, unknown>
      /** Whether pages must not be indexed nor listed in sitemaps. */
      readonly noindex: boolean
      /** What let the reader in. */
      readonly via: "open" | "share-key" | "visitor-token" | "member"
      readonly setCookies: ReadonlyArray<SetCookie>
    }
  | {
      readonly kind: "denied"
      readonly reason: DenialReason
      /** Removes a cookie whose key was revoked or whose token no longer verifies. */
      readonly setCookies: ReadonlyArray<SetCookie>
    }

const param = (query: AudienceInput["query"], name: string): string | undefined => {
  if (query === undefined) return undefined
  const value = query instanceof URLSearchParams ? query.get(name) : Object.hasOwn(query, name) ? query[name] : undefined
  return value === null || value === undefined || value === "" ? undefined : value
}

const cookie = (cookies: AudienceInput["cookies"], name: string): string | undefined => {
  const value = cookies !== undefined && Object.hasOwn(cookies, name) ? cookies[name] : undefined
  return value === undefined || value === "" ? undefined : value
}

const shareKeyActive = (input: AudienceInput, secret: string): Effect.Effect<boolean> => {
  if (secret.length > 512) return Effect.succeed(false)
  if (input.checkShare !== undefined) return input.checkShare(secret)
  // Every secret is compared so that the time does not say which one matched.
  let found = false
  for (const active of input.activeShareSecrets ?? []) found = sameSecret(active, secret) || found
  return Effect.succeed(found)
}

type TokenOutcome =
  | { readonly kind: "none" }
  | { readonly kind: "valid"; readonly claims: Record<string, unknown>; readonly setCookies: ReadonlyArray<SetCookie> }
  | {
      readonly kind: "invalid"
      readonly reason: "visitor-token-expired" | "visitor-token-invalid" | "visitor-token-lifetime"
      readonly setCookies: ReadonlyArray<SetCookie>
    }

/**
 * Decides whether a reader is admitted to a site. A share key or token in the query wins over
 * the cookie and, when valid, replaces it; when the query's is not valid, a valid cookie still
 * admits. A cookie that no longer admits is removed.
 */
export const decide = Effect.fnUntraced(function*(input: AudienceInput): Effect.fn.Return<AudienceDecision> {
  if (!input.site.published) return { kind: "denied", reason: "unpublished", setCookies: [] }
  const url = typeof input.siteUrl === "string" ? new URL(input.siteUrl) : input.siteUrl
  const path = url.pathname.replace(/\/+$/, "") || "/"
  const secure = url.protocol === "https:"
  const setCookie = (name: string, value: string, maxAge?: Duration.Duration): SetCookie => ({
    name,
    value,
    options: { path, httpOnly: true, sameSite: "lax", secure, ...(maxAge === undefined ? {} : { maxAge }) }
  })
  const removeCookie = (name: string): SetCookie => setCookie(name, "", Duration.zero)
  const gated = yield* gate(input, setCookie, removeCookie)
  const decision: AudienceDecision = gated.kind === "denied" && input.member === true
    ? { kind: "admitted", claims: {}, noindex: true, via: "member", setCookies: gated.setCookies }
    : gated
  if (decision.kind === "denied") return decision
  const unsigned = unsignedClaims(input, setCookie)
  if (unsigned === undefined) return decision
  return {
    ...decision,
    // Unsigned claims live under `unsigned` only: they never stand in for a signed claim.
    claims: { ...decision.claims, unsigned: unsigned.claims },
    setCookies: [...decision.setCookies, ...unsigned.setCookies]
  }
})

const gate = Effect.fnUntraced(function*(
  input: AudienceInput,
  setCookie: (name: string, value: string, maxAge?: Duration.Duration) => SetCookie,
  removeCookie: (name: string) => SetCookie
): Effect.fn.Return<AudienceDecision> {
  const { site } = input
  const token = yield* visitorToken(input, setCookie, removeCookie)

  switch (site.visibility) {
    case "public":
    case "unlisted": {
      // Adaptive content may still read a visitor's claims on an open site.
      const noindex = site.visibility === "unlisted"
      return {
        kind: "admitted",
        claims: token.kind === "valid" ? token.claims : {},
        noindex,
        via: "open",
        setCookies: token.kind === "none" ? [] : token.setCookies
      }
    }
    case "share-link": {
      const name = shareCookieName(site.id)
      const fromQuery = param(input.query, shareParameter)
      const fromCookie = cookie(input.cookies, name)
      const tokenCookies = token.kind === "none" ? [] : token.setCookies
      const claims = token.kind === "valid" ? token.claims : {}
      if (fromQuery !== undefined && (yield* shareKeyActive(input, fromQuery))) {
        const keep = fromQuery === fromCookie ? [] : [setCookie(name, fromQuery, shareCookieMaxAge)]
        return { kind: "admitted", claims, noindex: true, via: "share-key", setCookies: [...keep, ...tokenCookies] }
      }
      if (fromCookie !== undefined && (yield* shareKeyActive(input, fromCookie))) {
        return { kind: "admitted", claims, noindex: true, via: "share-key", setCookies: tokenCookies }
      }
      return {
        kind: "denied",
        reason: fromQuery === undefined && fromCookie === undefined ? "share-key-missing" : "share-key-invalid",
        setCookies: fromCookie === undefined ? tokenCookies : [removeCookie(name), ...tokenCookies]
      }
    }
    case "visitor-auth": {
      switch (token.kind) {
        case "valid":
          return { kind: "admitted", claims: token.claims, noindex: true, via: "visitor-token", setCookies: token.setCookies }
        case "invalid":
          return { kind: "denied", reason: token.reason, setCookies: token.setCookies }
        case "none":
          return { kind: "denied", reason: "visitor-token-missing", setCookies: [] }
      }
    }
  }
})

/** The visitor token of a request, from the query first, then our cookie, then GitBook's. */
const visitorToken = Effect.fnUntraced(function*(
  input: AudienceInput,
  setCookie: (name: string, value: string, maxAge?: Duration.Duration) => SetCookie,
  removeCookie: (name: string) => SetCookie
): Effect.fn.Return<TokenOutcome> {
  const name = visitorCookieName(input.site.id)
  const fromQuery = param(input.query, tokenParameter)
  const ours = cookie(input.cookies, name)
  const fromCookie = ours ?? cookie(input.cookies, gitbookTokenCookie)
  if (fromQuery === undefined && fromCookie === undefined) return { kind: "none" }
  const key = input.site.visitorKey
  const now = input.now ?? new Date(yield* Clock.currentTimeMillis)
  const check = (token: string | undefined): Effect.Effect<VisitorToken.VerifyResult | undefined> =>
    token === undefined || key === undefined || key === null || key === ""
      ? Effect.succeed(undefined)
      : VisitorToken.verify(token, key, now, input.tokenMaxAgeSeconds)
  const queryResult = yield* check(fromQuery)
  if (queryResult?.ok === true) {
    const exp = queryResult.claims["exp"]
    const maxAge =
      typeof exp === "number" ? Duration.seconds(Math.max(0, Math.floor(exp - now.getTime() / 1000))) : undefined
    return {
      kind: "valid",
      claims: queryResult.claims,
      setCookies: fromQuery === fromCookie ? [] : [setCookie(name, fromQuery!, maxAge)]
    }
  }
  const cookieResult = fromCookie === fromQuery ? queryResult : yield* check(fromCookie)
  if (cookieResult?.ok === true) return { kind: "valid", claims: cookieResult.claims, setCookies: [] }
  // The query's failure says more about what the reader just did than the cookie's.
  const failure = fromQuery !== undefined ? queryResult : cookieResult
  return {
    kind: "invalid",
    reason: failure?.ok === false && failure.reason === "expired"
      ? "visitor-token-expired"
      : failure?.ok === false && failure.reason === "lifetime"
      ? "visitor-token-lifetime"
      : "visitor-token-invalid",
    // GitBook's cookie belongs to the product's domain; only ours is ours to remove.
    setCookies: ours === undefined ? [] : [removeCookie(name)]
  }
})

const maxUnsignedClaims = 50
const maxUnsignedText = 4096

/** A query value as a claim: `true`/`false` and plain decimal numbers as such, the rest as text. */
const claimValue = (text: string): string | number | boolean =>
  text === "true" ? true : text === "false" ? false : /^-?(0|[1-9]\d{0,14})(\.\d{1,15})?$/.test(text) ? Number(text) : text

const jsonObject = (text: string | undefined): Record<string, unknown> | undefined => {
  if (text === undefined || text.length > maxUnsignedText) return undefined
  for (const candidate of [text, safeDecode(text)]) {
    try {
      const value: unknown = JSON.parse(candidate)
      if (typeof value === "object" && value !== null && !Array.isArray(value)) return value as Record<string, unknown>
    } catch {
      // Not JSON as it is; the URI-decoded form is tried next.
    }
  }
  return undefined
}

const safeDecode = (text: string): string => {
  try {
    return decodeURIComponent(text)
  } catch {
    return text
  }
}

/**
 * Unsigned claims (`visitor.claims.unsigned.*`), which the reader may set at will: from the
 * query's `visitor.<claim>` parameters (then kept in a session cookie, since links do not carry
 * them), else from that cookie, else from GitBook's `gitbook-visitor-public` JSON cookie.
 */
const unsignedClaims = (
  input: AudienceInput,
  setCookie: (name: string, value: string) => SetCookie
): { readonly claims: Record<string, unknown>; readonly setCookies: ReadonlyArray<SetCookie> } | undefined => {
  const entries =
    input.query === undefined
      ? []
      : input.query instanceof URLSearchParams
      ? [...input.query.entries()]
      : Object.entries(input.query).filter((e): e is [string, string] => typeof e[1] === "string")
  const fromQuery: Record<string, unknown> = {}
  let count = 0
  for (const [name, value] of entries) {
    if (!name.startsWith(unsignedParameterPrefix) || count >= maxUnsignedClaims) continue
    const claim = name.slice(unsignedParameterPrefix.length)
    if (claim === "" || claim.length > 128 || value.length > 1024 || forbiddenClaims.has(claim)) continue
    fromQuery[claim] = claimValue(value)
    count++
  }
  const name = unsignedCookieName(input.site.id)
  if (count > 0) {
    const json = JSON.stringify(fromQuery)
    const stored = cookie(input.cookies, name)
    const same = stored !== undefined && Buffer.from(stored, "base64url").toString() === json
    return { claims: fromQuery, setCookies: same ? [] : [setCookie(name, Buffer.from(json).toString("base64url"))] }
  }
  const kept = cookie(input.cookies, name)
  const fromCookie =
    (kept === undefined ? undefined : jsonObject(Buffer.from(kept, "base64url").toString())) ??
    jsonObject(cookie(input.cookies, gitbookPublicCookie))
  return fromCookie === undefined ? undefined : { claims: withoutForbidden(fromCookie), setCookies: [] }
}

/** Names that would reach an object's prototype if a later reader forgot to check. */
const forbiddenClaims: ReadonlySet<string> = new Set(["__proto__", "constructor", "prototype"])

const withoutForbidden = (claims: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(Object.entries(claims).filter(([name]) => !forbiddenClaims.has(name)).slice(0, maxUnsignedClaims))

/** How a stored condition is parsed: `Condition.parse`, or a site renderer's remembering parse (conditions are few and read on every request). */
export type ParseCondition = (source: string) => Condition.ParseResult

/**
 * Whether an item with this condition is shown to an audience. No condition (undefined, null or
 * blank) shows it; a condition that does not parse hides it, as one that throws does.
 */
export const visible = (
  condition: Condition.Condition | string | null | undefined,
  claims: Readonly<Record<string, unknown>>,
  parse: ParseCondition = Condition.parse
): boolean => {
  if (condition === undefined || condition === null) return true
  if (typeof condition === "string") {
    if (condition.trim() === "") return true
    const result = parse(condition)
    return result.ok && Condition.evaluate(result.condition, claims)
  }
  return Condition.evaluate(condition, claims)
}

/** The items shown to an audience (sections, site spaces, pages of one level), in order. */
export const filterVisible = <A>(
  items: ReadonlyArray<A>,
  conditionOf: (item: A) => Condition.Condition | string | null | undefined,
  claims: Readonly<Record<string, unknown>>,
  parse: ParseCondition = Condition.parse
): ReadonlyArray<A> => items.filter((item) => visible(conditionOf(item), claims, parse))

/**
 * A tree (pages and their children) without the items hidden from an audience; a hidden item
 * hides its descendants. `withChildren` rebuilds an item with its kept children.
 */
export const filterTree = <A>(
  items: ReadonlyArray<A>,
  conditionOf: (item: A) => Condition.Condition | string | null | undefined,
  childrenOf: (item: A) => ReadonlyArray<A> | undefined,
  withChildren: (item: A, children: ReadonlyArray<A>) => A,
  claims: Readonly<Record<string, unknown>>
): ReadonlyArray<A> =>
  filterVisible(items, conditionOf, claims).map((item) => {
    const children = childrenOf(item)
    return children === undefined || children.length === 0
      ? item
      : withChildren(item, filterTree(children, conditionOf, childrenOf, withChildren, claims))
  })

const canonical = (value: unknown): string => {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`
  if (typeof value === "object" && value !== null) {
    const entries = Object.entries(value).toSorted(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(",")}}`
  }
  return JSON.stringify(value) ?? "null"
}

/** What a site's conditions can read of a visitor's claims: some claims by name, or all of them. */
export type ClaimsRead = ReadonlySet<string> | "all"

/**
 * What the given conditions can read together (a condition that does not parse shows nothing to
 * anyone, so it reads nothing).
 */
export const claimsReadBy = (conditions: Iterable<string | null | undefined>): ClaimsRead => {
  const names = new Set<string>()
  for (const source of conditions) {
    if (source === undefined || source === null || source.trim() === "") continue
    const result = Condition.parse(source)
    if (!result.ok) continue
    const read = Condition.claimsRead(result.condition)
    if (read === "all") return "all"
    for (const name of read) names.add(name)
  }
  return names
}

/**
 * A short key naming an audience for caches: the claims that `read` names (every claim, JWT's
 * registered ones included, by default), whatever their order; `"anonymous"` when it holds none.
 * Two readers with one key see the same answer, since no condition can tell them apart.
 */
export const audienceKey = (claims: Readonly<Record<string, unknown>>, read: ClaimsRead = "all"): string => {
  const own = read === "all"
    ? claims
    : Object.fromEntries(Object.entries(claims).filter(([name]) => read.has(name)))
  if (Object.keys(own).length === 0) return "anonymous"
  return createHash("sha256").update(canonical(own)).digest("base64url").slice(0, 22)
}

/** The refusals a visitor-auth site's sign-in fallback URL answers instead of a page: no token, or one that no longer admits. */
const signInReasons: ReadonlySet<DenialReason> = new Set(["visitor-token-missing", "visitor-token-expired", "visitor-token-invalid"])

/**
 * Where a reader refused for `reason` is sent to sign in, as GitBook does: the site's fallback URL
 * with `location`, the path below the site's root the reader asked for (its query kept, its token
 * left out), so that the sign-in can send the reader back there; `undefined` when the site has no
 * fallback URL or the refusal is not about signing in.
 */
export const signInRedirect = (
  fallbackUrl: string | undefined,
  reason: DenialReason,
  path: string,
  query: URLSearchParams
): string | undefined => {
  if (fallbackUrl === undefined || !signInReasons.has(reason)) return undefined
  let target: URL
  try {
    target = new URL(fallbackUrl)
  } catch {
    return undefined
  }
  if (target.protocol !== "https:") return undefined
  const kept = new URLSearchParams(query)
  kept.delete(tokenParameter)
  const rest = kept.toString()
  target.searchParams.set("location", `/${path.replace(/^\/+/, "")}${rest === "" ? "" : `?${rest}`}`)
  return target.toString()
}
