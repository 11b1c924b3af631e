/**
 * The benchmark's data set, written through Quire's own migrations and use cases (the
 * administrator, its token and its organization) plus bulk rows in SQL, so that the indexes the
 * request path uses hold realistic numbers of entries.
 */
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { randomBytes } from "node:crypto"
import type { Database } from "@quire/db"
import { Organizations, Users } from "@quire/identity"
import { Actor } from "@quire/kernel"
import { CollabStoredMarkdown } from "@quire/live"
import { Queue, Services } from "@quire/platform"

export const adminEmail = "admin@bench.test"

/** The administrator's API token for this run. */
export const adminToken = `quire_bench_${randomBytes(16).toString("hex")}`

/** Extra users, organizations (each user in 3 of them) and tokens around the administrator's. */
export const extraRows = 1_000

/** What the load generator needs to address the seeded data. */
export interface Seeded {
  readonly organizationId: string
}

const bulk = Effect.fnUntraced(function*(n: number) {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    INSERT INTO identity_users (id, email, display_name, instance_admin, created_at)
    SELECT 'bench_user_' || i, 'user' || i || '@bench.test', 'User ' || i, false, now() - i * interval '1 minute'
    FROM generate_series(1, ${n}) AS i`
  yield* sql`
    INSERT INTO identity_api_tokens (id, user_id, label, token_hash, created_at)
    SELECT 'bench_token_' || i, 'bench_user_' || i, 'bench',
      encode(sha256(convert_to('quire_bench_user_' || i, 'UTF8')), 'hex'), now()
    FROM generate_series(1, ${n}) AS i`
  yield* sql`
    INSERT INTO identity_organizations (id, title, created_at, email_domains)
    SELECT 'bench_org_' || i, 'Organization ' || i, now() - i * interval '1 minute',
      jsonb_build_array('org' || i || '.bench.test')
    FROM generate_series(1, ${n}) AS i`
  yield* sql`
    INSERT INTO identity_members (organization_id, user_id, role, joined_at)
    SELECT 'bench_org_' || ((i + k * 337) % ${n} + 1), 'bench_user_' || i,
      (ARRAY['admin', 'create', 'edit', 'read'])[k + 1], now()
    FROM generate_series(1, ${n}) AS i, generate_series(0, 2) AS k
    ON CONFLICT DO NOTHING`
})

/** A deterministic pseudo-random generator (mulberry32), so runs compare. */
export const random = (seed: number) => () => {
  seed = (seed + 0x6D2B79F5) | 0
  let t = seed
  t = Math.imul(t ^ (t >>> 15), t | 1)
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296
}

/**
 * Generated prose from `words`, drawn from `next`: words, sentences, paragraphs, and links to one of
 * `siblings` (its path followed by `suffix`), or "the reference" when there is none.
 */
export const prose = (next: () => number, words: ReadonlyArray<string>, siblings: ReadonlyArray<string>, suffix = "") => {
  const word = () => words[Math.floor(next() * words.length)]!
  const sentence = () => {
    const text = Array.from({ length: 10 + Math.floor(next() * 10) }, word).join(" ")
    return `${text[0]!.toUpperCase()}${text.slice(1)}.`
  }
  const paragraph = () => Array.from({ length: 3 }, sentence).join(" ")
  const link = () => {
    const target = siblings[Math.floor(next() * siblings.length)]
    return target === undefined ? "the reference" : `[the ${word()} page](${target}${suffix})`
  }
  return { word, sentence, paragraph, link }
}

/**
 * For a bench that calls the use cases in process: an instance administrator (bootstrapped with
 * `email` and `token`), `as` to run a use case as them, and an organization of theirs.
 */
export const benchAdmin = Effect.fnUntraced(function*(email: string, token: string, organizationTitle: string) {
  const users = yield* Users
  const organizations = yield* Organizations
  const { user } = yield* users.bootstrapAdmin(email, token)
  const actor = Actor.Actor.of({ userId: user.id, instanceAdmin: true })
  const as = <A, E>(self: Effect.Effect<A, E, Actor.Actor>) => Effect.provideService(self, Actor.Actor, actor)
  const organization = yield* as(organizations.create({ title: organizationTitle }))
  return { as, organization }
})

/** Migrates the database behind `database`, then writes the data set; the layer is closed after. */
export const seed = (database: Layer.Layer<Database.Services, unknown>): Effect.Effect<Seeded, unknown> =>
  Effect.gen(function*() {
    const users = yield* Users
    const organizations = yield* Organizations
    const sql = yield* SqlClient.SqlClient
    const { user } = yield* users.bootstrapAdmin(adminEmail, adminToken)
    yield* bulk(extraRows)
    const actor = Actor.Actor.of({ userId: user.id, instanceAdmin: true })
    // The administrator also belongs to a tenth of the other organizations.
    yield* sql`
      INSERT INTO identity_members (organization_id, user_id, role, joined_at)
      SELECT 'bench_org_' || i, ${user.id}, 'read', now() FROM generate_series(1, ${extraRows}, 10) AS i`
    const access = yield* organizations.create({ title: "Bench Organization", emailDomains: ["bench.test"] }).pipe(
      Effect.provideService(Actor.Actor, actor)
    )
    yield* sql`ANALYZE`
    return { organizationId: access.organization.id }
  }).pipe(Effect.provide(Services.layerSql.pipe(Layer.provide([Queue.layerEnqueueOnly, CollabStoredMarkdown.layer]), Layer.provideMerge(database))))

/**
 * An organization of the administrator, made through the API of a server that bootstrapped them
 * itself (QUIRE_ADMIN_TOKEN): a new embedded data directory needs nothing else, and the bench
 * process then never loads PGlite; its id.
 */
export const organization = (baseUrl: string) =>
  Effect.promise(() => adminCall(baseUrl)<{ readonly id: string }>("POST", "/v1/orgs", { title: "Bench Organization" })).pipe(
    Effect.map((created) => created.id)
  )

/** A JSON call to the bench's Quire server as its administrator; a non-2xx answer throws with its body. */
export const adminCall = (baseUrl: string) => async <A>(method: string, path: string, body?: unknown): Promise<A> => {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${adminToken}`, "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })
  const text = await response.text()
  if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${text.slice(0, 500)}`)
  return (text === "" ? undefined : JSON.parse(text)) as A
}
