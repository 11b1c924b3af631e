/**
 * Property-based requests to every operation of the contract: parameters, queries and bodies
 * generated from the endpoints' own schemas (the ones the OpenAPI document is derived from), some
 * valid, some broken on purpose. No answer is a 5xx, and a write that is refused changes nothing a
 * listing shows. Bounded: a few samples per operation and per kind, a fixed seed per backend.
 */
import { assert, layer } from "@effect/vitest"
import { Arbitrary, Effect, Schema } from "effect"
import { Api } from "@quire/api"
import { backends, raw, spaceWithContent } from "./Harness.ts"
import { get, publishedSite } from "./SiteFixtures.ts"

interface Endpoint {
  readonly group: string
  readonly name: string
  readonly method: string
  readonly path: string
  readonly params: Schema.Top | undefined
  readonly query: Schema.Top | undefined
  readonly payload: ReadonlyArray<Schema.Top>
}

/** Operations that fetch from the network (website imports): generated URLs would make Quire wait on DNS. */
const skipped = new Set(["importContent", "importContentInChangeRequest", "getChangeRequestPDF"])

const destructive = /^(delete|remove|transfer|move)/

const endpoints: ReadonlyArray<Endpoint> = Object.values(
  (Api as unknown as { readonly groups: Record<string, { readonly identifier: string; readonly endpoints: Record<string, unknown> }> }).groups
).flatMap((group) =>
  Object.values(group.endpoints).map((value) => {
    const e = value as {
      readonly identifier: string
      readonly method: string
      readonly path: string
      readonly params: Schema.Top | undefined
      readonly query: Schema.Top | undefined
      readonly payload: ReadonlyMap<string, { readonly schemas?: ReadonlyArray<Schema.Top> }>
    }
    return {
      group: group.identifier,
      name: e.identifier,
      method: e.method,
      path: e.path,
      params: e.params,
      query: e.query,
      payload: e.payload.get("application/json")?.schemas ?? []
    }
  })
).filter((e) => !skipped.has(e.name))
  // What deletes or moves the fixture away goes last, so the other operations meet it.
  .toSorted((a, b) => Number(destructive.test(a.name)) - Number(destructive.test(b.name)))

const samples = 3

/** Values of a schema, or none when it cannot be generated (a pattern the generator does not support). */
const sample = (schema: Schema.Top | undefined, seed: number): Effect.Effect<ReadonlyArray<unknown>> =>
  schema === undefined
    ? Effect.succeed(Array.from({ length: samples }, () => ({})))
    : Arbitrary.sampleEffect(Arbitrary.schema(schema as Schema.Codec<unknown, unknown>), { count: samples, seed, size: 8 }).pipe(
      Effect.map((values) => values.map((v) => Schema.encodeUnknownSync(schema as Schema.Codec<unknown, unknown>)(v))),
      Effect.catchCause(() => Effect.succeed([]))
    )

/** Strips what would make the server fetch from the network (`url` of insert_files). */
const offline = (value: unknown): unknown =>
  Array.isArray(value)
    ? value.map(offline)
    : typeof value === "object" && value !== null
    ? Object.fromEntries(Object.entries(value).filter(([k]) => k !== "url").map(([k, v]) => [k, offline(v)]))
    : value

/** `encodeURIComponent` of any string: lone surrogates (which it throws on) become U+FFFD first. */
const encode = (value: unknown): string =>
  encodeURIComponent(String(value).replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, "\ufffd"))

const queryString = (query: unknown): string => {
  if (typeof query !== "object" || query === null) return ""
  const search = new URLSearchParams()
  for (const [key, value] of Object.entries(query)) {
    for (const v of Array.isArray(value) ? value : [value]) if (v !== undefined) search.append(key, String(v))
  }
  const text = search.toString()
  return text === "" ? "" : `?${text}`
}

/** Junk for a field: wrong types, NUL, control characters, huge and odd strings. */
const junk: ReadonlyArray<unknown> = [
  null, 0, -1, 1e308, true, [], {}, "", "\u0000", "a\u0000b", "\r\n", "x".repeat(100_000), "../..", "%00", "\ud800",
  { $gt: "" }, [[[[[]]]]], "<script>", "😀".repeat(1000)
]
const junkPaths: ReadonlyArray<string> = ["%00", "..", "%2e%2e", "x".repeat(300), "%FF", "a%0d%0ab", "%F0%9F%98%80", "0", "-1"]
const junkQueries: ReadonlyArray<string> = [
  "limit=abc", "limit=-1", "limit=1e9", "page=W10", "page=%00", "order=sideways", "format=x", "query=", "query=%00",
  "limit=1&limit=2", "nested=maybe", "status=%0d%0a", `page=${"x".repeat(5000)}`
]

/** Replaces one field of a JSON value (chosen by `n`) with junk. */
const mutate = (value: unknown, n: number): unknown => {
  if (typeof value !== "object" || value === null) return junk[n % junk.length]
  const keys = Object.keys(value)
  if (keys.length === 0) return { [`extra${n}`]: junk[n % junk.length] }
  const key = keys[n % keys.length]!
  const inner = (value as Record<string, unknown>)[key]
  return {
    ...(value as Record<string, unknown>),
    [key]: typeof inner === "object" && inner !== null && n % 3 === 0 ? mutate(inner, Math.floor(n / 3)) : junk[n % junk.length]
  }
}

for (const backend of backends.filter((b) => b.name !== "pglite")) {
  layer(backend.layer, { timeout: 300_000, excludeTestServices: true })(`fuzzing every operation on ${backend.name}`, (it) => {
    it.effect("random valid and invalid requests: never a 5xx, and a refused write changes nothing", () =>
      Effect.gen(function*() {
        const { alice, collection, cr, organizationId, space } = yield* spaceWithContent()
        const spaceId = space.id
        const api = alice.api
        const token = alice.token
        const revision = yield* api.changeRequestContent.getRevisionOfChangeRequestById({ params: { spaceId, changeRequestId: cr.id }, query: {} })
        const comment = yield* api.comments.postCommentInSpace({ params: { spaceId }, payload: { body: { markdown: "Hi" } } })
        const reply = yield* api.comments.postCommentReplyInSpace({ params: { spaceId, commentId: comment.id }, payload: { body: { markdown: "Re" } } })
        const team = yield* api.teams.createOrganizationTeam({ params: { organizationId }, payload: { title: "T" } })
        const me = yield* api.users.getAuthenticatedUser()
        const known: Record<string, string> = {
          organizationId,
          spaceId,
          collectionId: collection.id,
          changeRequestId: cr.id,
          pageId: revision.pages[0]!.id,
          fileId: revision.files[0]!.id,
          commentId: comment.id,
          commentReplyId: reply.id,
          teamId: team.id,
          userId: me.id
        }

        /** What listings show of the organization: a refused write must leave it as it was. */
        const snapshot = Effect.gen(function*() {
          const paths = [
            `/v1/orgs/${organizationId}/spaces`,
            `/v1/orgs/${organizationId}/collections`,
            `/v1/orgs/${organizationId}/members`,
            `/v1/spaces/${spaceId}/comments`,
            `/v1/spaces/${spaceId}/change-requests/${cr.id}/content`
          ]
          const answers = yield* Effect.forEach(paths, (path) => raw("GET", path, { token }))
          // `lastSeen`-like timestamps move on reads; compare the rest.
          return JSON.stringify(answers.map((a) => [a.status, a.body]), (key, value) => (key === "updatedAt" || key === "lastSeen" ? undefined : value))
        })

        const failures: Array<string> = []
        const statuses = new Map<number, number>()
        const send = Effect.fnUntraced(function*(method: string, path: string, body: string | undefined, label: string) {
          const answer = yield* raw(method, path, body === undefined ? { token } : { token, body }).pipe(
            Effect.catchCause((cause) => Effect.succeed({ status: 599, body: String(cause) as unknown }))
          )
          statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1)
          if (answer.status >= 500) failures.push(`${label} ${method} ${path} ${body?.slice(0, 200) ?? ""} -> ${answer.status} ${JSON.stringify(answer.body).slice(0, 300)}`)
          return answer
        })

        let seed = backend.name === "memory" ? 1 : 2
        let refusedWrites = 0
        /** The snapshot of the current state, while no request since may have changed it. */
        let listed: string | undefined
        let requests = 0
        for (const endpoint of endpoints) {
          seed++
          const params = yield* sample(endpoint.params, seed)
          const queries = yield* sample(endpoint.query, seed)
          const payloads = endpoint.payload.length === 0
            ? [undefined]
            : (yield* Effect.forEach(endpoint.payload, (schema) => sample(schema, seed))).flat()
          for (let i = 0; i < samples; i++) {
            const generated = (params[i] ?? {}) as Record<string, unknown>
            const path = endpoint.path.replace(/:(\w+)/g, (_, name: string) => {
              const value = i % 2 === 0 && known[name] !== undefined ? known[name] : generated[name] ?? known[name] ?? "x"
              return encode(value)
            })
            const payload = payloads.length === 0 ? undefined : payloads[i % payloads.length]
            const body = payload === undefined ? undefined : JSON.stringify(offline(payload))
            const write = endpoint.method !== "GET"

            // Valid by the schema (the handler may still refuse it: unknown ids, roles, rules).
            yield* send(endpoint.method, `${path}${queryString(queries[i])}`, body, `valid ${endpoint.name}`)
            requests++
            if (write) listed = undefined

            // Broken: a field of the body, a path parameter or a query parameter replaced with junk.
            const n = seed * 7 + i
            const broken: Array<readonly [string, string | undefined]> = [
              [`${path}${queryString(queries[i])}`, body === undefined ? undefined : JSON.stringify(mutate(offline(payload), n))],
              [`${endpoint.path.replace(/:(\w+)/g, (_, name: string) => (n % 2 === 0 ? junkPaths[n % junkPaths.length]! : encode(known[name] ?? "x")))}?${junkQueries[n % junkQueries.length]!}`, body],
              ...(write ? [[path, n % 2 === 0 ? "{not json" : "[]"] as const] : [])
            ]
            for (const [brokenPath, brokenBody] of broken) {
              const before = write ? listed ?? (yield* snapshot) : ""
              const answer = yield* send(endpoint.method, brokenPath, brokenBody, `broken ${endpoint.name}`)
              requests++
              listed = undefined
              if (write && answer.status >= 400 && answer.status < 500) {
                refusedWrites++
                const after = yield* snapshot
                if (after !== before) failures.push(`refused ${endpoint.method} ${brokenPath} changed what listings show (${answer.status} ${JSON.stringify(answer.body).slice(0, 200)})`)
                // Unchanged: it is also the state before the next refused write.
                listed = after
              }
            }
          }
        }
        assert.deepStrictEqual(failures, [], failures.slice(0, 10).join("\n"))
        assert.isAbove(requests, endpoints.length * samples * 2)
        assert.isAbove(refusedWrites, 0)
        // The valid requests reach the handlers: many succeed, and the broken ones are refused as bad input.
        const count = (from: number, to: number) => Array.from(statuses).filter(([s]) => s >= from && s < to).reduce((n, [, c]) => n + c, 0)
        assert.isAbove(count(200, 300), endpoints.length, JSON.stringify(Array.from(statuses)))
        assert.isAbove(statuses.get(400) ?? 0, endpoints.length, JSON.stringify(Array.from(statuses)))
      }), 240_000) // every operation (150 and growing), on a loaded CI machine running every suite at once
  })
}

// --- Sites' customization: generated and broken customizations, then every read of the site. ---

/** Values GitBook's customization schema refuses that were once accepted and broke every read after. */
const customizationJunk: ReadonlyArray<string> = [
  `{"styling":{"font":{}}}`,
  `{"styling":{"font":null}}`,
  `{"styling":{"font":7}}`,
  `{"styling":{"headingFont":{"fontFamily":{}}}}`,
  `{"styling":{"monospaceFont":[[[]]]}}`,
  `{"styling":{"codeTheme":${'{"a":'.repeat(5_000)}{}${"}".repeat(5_000)}}}`,
  `{"pageActions":${'{"a":'.repeat(5_000)}{}${"}".repeat(5_000)}}`,
  `{"header":{"links":[{"title":"T","links":[],"to":{"kind":"url","url":${"[".repeat(5_000)}${"]".repeat(5_000)}}}]}}`,
  `{"styling":{"primaryColor":{"light":"red}</style>","dark":"#000"}}}`,
  `{"favicon":{"icon":{"light":${"{".repeat(100)}`
]

for (const backend of backends) {
  layer(backend.layer, { timeout: 300_000, excludeTestServices: true })(`fuzzing sites' customization on ${backend.name}`, (it) => {
    it.effect("generated and broken customizations: never a 5xx on the write, the customization or the published site; a refused one changes nothing", () =>
      Effect.gen(function*() {
        const s = yield* publishedSite("public")
        const token = s.token
        const path = `/v1/orgs/${s.organizationId}/sites/${s.siteId}/customization`
        const schema = endpoints.find((e) => e.name === "updateSiteCustomizationById")!.payload[0]! as Schema.Codec<unknown, unknown>
        const generated = yield* Arbitrary.sampleEffect(Arbitrary.schema(schema), { count: 25, seed: backend.name.length, size: 8 })
        const valid = generated.map((value) => JSON.stringify(Schema.encodeUnknownSync(schema)(value)))
        const failures: Array<string> = []
        const statuses = new Map<number, number>()
        const check = (label: string, answer: { readonly status: number; readonly body?: unknown; readonly text?: string }) => {
          statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1)
          if (answer.status >= 500) failures.push(`${label} -> ${answer.status} ${JSON.stringify(answer.body ?? answer.text).slice(0, 300)}`)
        }
        /** Every read a write could break: the API's customization and site, the site's pages and machine files. */
        const readAll = Effect.fnUntraced(function*(label: string) {
          const customization = yield* raw("GET", path, { token })
          check(`${label}: GET customization`, customization)
          check(`${label}: GET site`, yield* raw("GET", `/v1/orgs/${s.organizationId}/sites/${s.siteId}`, { token }))
          for (const page of ["", "install", "install.md", "llms.txt", "llms-full.txt", "sitemap.xml", "~search?q=docker"]) {
            check(`${label}: GET /~sites/…/${page}`, yield* get(`/~sites/${s.siteId}/${page}`))
          }
          return JSON.stringify(customization.body, (key, value) => (key === "updatedAt" ? undefined : value))
        })
        const bodies = [
          ...valid,
          ...valid.map((body, n) => JSON.stringify(mutate(JSON.parse(body), n * 7 + backend.name.length))),
          ...customizationJunk
        ]
        let refused = 0
        for (const body of bodies) {
          const before = yield* readAll("before")
          const answer = yield* raw("PUT", path, { token, body }).pipe(
            Effect.catchCause((cause) => Effect.succeed({ status: 599, body: String(cause) as unknown }))
          )
          check(`PUT ${body.slice(0, 150)}`, answer)
          const after = yield* readAll(`after ${body.slice(0, 150)}`)
          if (answer.status >= 400 && answer.status < 500) {
            refused++
            if (after !== before) failures.push(`refused PUT ${body.slice(0, 150)} changed the customization`)
          }
        }
        assert.deepStrictEqual(failures, [], failures.slice(0, 10).join("\n"))
        assert.isAtLeast(refused, customizationJunk.length)
        assert.isAbove(statuses.get(200) ?? 0, valid.length, JSON.stringify(Array.from(statuses)))
      }), 240_000)
  })
}
