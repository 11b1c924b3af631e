/**
 * Test harness: the real router on a real HTTP server (an ephemeral port), over each storage
 * backend, with typed clients derived from the API contract.
 */
import { assert } from "@effect/vitest"
import { ConfigProvider, Context, Effect, Layer } from "effect"
import { FetchHttpClient, HttpClient, type HttpClientError, HttpClientRequest, HttpServer } from "effect/http"
import { HttpApiClient, HttpApiMiddleware } from "effect/http-api"
import { SqlClient } from "effect/sql"
import { Api, Authentication } from "@quire/api"
import { Database } from "@quire/db"
import { Users } from "@quire/identity"
import type { Roles } from "@quire/kernel"
import type { StoredLiveMarkdown } from "@quire/reviews"
import * as Metrics from "@quire/kernel/Metrics"
import { Queue, Services, Storage, Telemetry } from "@quire/platform"
import { Backends, LocalServer } from "@quire/testkit"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import * as CollabStoredMarkdown from "@quire/live/CollabStoredMarkdown"
import * as Http from "../src/Http.ts"
import * as NodeServer from "../src/NodeServer.ts"
import * as Capture from "./conformance/Capture.ts"
import { PublicUrl } from "../src/PublicUrl.ts"

export const adminEmail = "admin@quire.test"
export const adminToken = "quire_test_admin_token_0123456789"
export const publicUrl = "http://quire.test"

const bootstrap = Layer.effectDiscard(
  Effect.flatMap(Effect.service(Users), (users) => users.bootstrapAdmin(adminEmail, adminToken))
)

/** Bytes of files each organization of the test servers may store, unless a suite sets a smaller quota to reach it with less data. */
export const testStorageQuota = 16 * 1024 * 1024

/**
 * Settings of the test servers: outbound fetches may reach 127.0.0.1 (the import tests serve sites
 * there), file bytes go to a data directory of their own, removed with the server, each
 * organization may store `testStorageQuota` bytes of files, and Git sync may use `file://`
 * repositories (the Git tests' bare repositories) and runs a push's import or an edit's export
 * 300 ms after it, not 3 s (what waits for the debounce is gitsync's own suite, on a TestClock);
 * every person the suites sign up comes from 127.0.0.1, so its sign-up limit is high.
 */
const testSettings = Layer.unwrap(Effect.map(
  Effect.acquireRelease(
    Effect.sync(() => mkdtempSync(join(tmpdir(), "quire-server-"))),
    (dataDir) => Effect.sync(() => rmSync(dataDir, { recursive: true, force: true }))
  ),
  (dataDir) =>
    ConfigProvider.layerAdd(ConfigProvider.fromUnknown({ QUIRE_FETCH_ALLOW: "127.0.0.1", QUIRE_DATA_DIR: dataDir, QUIRE_GIT_ALLOW_FILE: "1" }), { asPrimary: true }).pipe(
      // Fallbacks, so that a suite's own setting (withSettings) still wins: suites that wait for an
      // export they ask for set a debounce of a minute, and as a primary setting 300 ms overrode it;
      // the quota suites reach a smaller quota with smaller files.
      Layer.provideMerge(ConfigProvider.layerAdd(ConfigProvider.fromUnknown({ QUIRE_SIGN_UP_LIMIT: 1000, QUIRE_GIT_DEBOUNCE_MS: 300, QUIRE_ORG_STORAGE_BYTES: testStorageQuota })))
    )
))

/** NodeHttpServer.layerTest over the production server (NodeServer.layer: published pages answered before the application). */
const testServer = HttpServer.layerTestClient.pipe(
  Layer.provide(Layer.fresh(FetchHttpClient.layer).pipe(Layer.provide(Layer.succeed(FetchHttpClient.RequestInit)({ keepalive: false })))),
  Layer.provideMerge(Capture.around(NodeServer.layer({ port: 0 })))
)

/**
 * The server over `services` (its storage of kind `kind`), bootstrapped, on an ephemeral port.
 * Jobs run in this process, as in the embedded server: the services enqueue on the in-process
 * queue, whose runner runs the jobs with them.
 */
export const serverOn = <E, R>(
  services: Layer.Layer<Services.Services, E, R>,
  kind: Storage["Service"]["kind"],
  // The codec a merge writes unwritten live edits with: the editor's, as main.ts has it, unless
  // the collaboration server of the test runs another (CollabSupport's plain-text one).
  storedMarkdown: Layer.Layer<StoredLiveMarkdown> = CollabStoredMarkdown.layer
) =>
  bootstrap.pipe(
    Layer.provideMerge(Http.serve),
    Layer.provideMerge(Queue.layerInProcessWith(services.pipe(Layer.provide([testSettings, storedMarkdown])))),
    Layer.provide([PublicUrl.layer(publicUrl), Storage.layer(kind)]),
    Layer.provideMerge(testServer),
    // OTLP export when a test's settings ask for it (Telemetry.test.ts), as main.ts composes it;
    // each server counts its own metrics, as the process's one server does.
    Layer.provide(Telemetry.layer("quire-test")),
    Layer.provide(Layer.fresh(Metrics.layerRegistry))
  )

/**
 * The server on each storage backend: in memory, on the machine's PostgreSQL, on PGlite (each
 * database a copy of one already migrated: the server's own migration run finds nothing to do).
 */
const allBackends = Backends.make({
  memory: serverOn(Services.layerMemory, "memory"),
  migrations: Services.migrations,
  // The server's SqlClient is the tests' too (a NOTIFY as another replica would send it).
  sql: (database) =>
    Layer.merge(
      serverOn(Services.layerSql, database === "pglite" ? "embedded" : "postgres"),
      Layer.effect(SqlClient.SqlClient, Effect.service(SqlClient.SqlClient))
    )
})

/**
 * A test server (a backend's layer) with `settings` over the environment's: how a test file sets
 * what it would set in the environment (a provider URL, a short interval). Not `process.env`: the
 * server suite's files share one module graph per worker (`isolate: false`, tooling/vitest/config.ts), and
 * Effect's default ConfigProvider keeps the environment it read first.
 */
export const withSettings = <A, E, R>(server: Layer.Layer<A, E, R>, settings: Record<string, string | number | boolean>) =>
  server.pipe(Layer.provide(ConfigProvider.layerAdd(ConfigProvider.fromUnknown(settings), { asPrimary: true })))

/**
 * The backend an API suite runs on: the machine's PostgreSQL, what production runs. The memory
 * layers answer to the same ports, and each port's contract suite holds them to it (beside the
 * packages' use-case suites over them), so running every API suite on memory as well repeated
 * the same handlers for a sixth of the suite's time; `memoryAndPostgres` keeps the few suites
 * that check the memory layers compose into a whole server answering GitBook's client.
 */
export const backends = allBackends.filter((backend) => backend.name === "postgres")

/**
 * The databases: PostgreSQL and PGlite, which runs the same SQL on the same engine through one
 * connection. The suites where that one connection can tell (concurrent writes, merges and
 * conflicts, jobs, Git, live editing, caches, large pages) run on both, and every test of the
 * built server runs on PGlite, its default (docs/testing.md).
 */
export const everyBackend = allBackends.filter((backend) => backend.name !== "memory")

/** The server in memory, for suites whose subject is not storage (the CLI's). */
export const memory = allBackends.find((backend) => backend.name === "memory")!

/** Memory and PostgreSQL: the suites that drive the whole server with GitBook's client and the identity and merge flows on both. */
export const memoryAndPostgres = [memory, ...backends]

const passThrough = HttpApiMiddleware.layerClient(Authentication, ({ next, request }) => next(request))

/**
 * The embedded server as `start.sh server` runs it, on the data directory `dataDir` (jobs not run):
 * provide it again over the same directory to restart it. A new directory starts from a cluster
 * already migrated, as the build's initial database starts a new installation (from the sources
 * there is none, and PGlite would run initdb). `maxMessageBytes` lowers what its database client
 * reads in one message, for a test that proves no row comes back larger.
 */
export const embeddedServerOn = (dataDir: string, options?: { readonly maxMessageBytes?: number }) =>
  Layer.effectDiscard(Effect.flatMap(Effect.service(Users), (users) => users.bootstrapAdmin(adminEmail, adminToken))).pipe(
    Layer.provideMerge(Http.serve),
    Layer.provideMerge(Services.layerSql.pipe(Layer.provide([Queue.layerEnqueueOnly, CollabStoredMarkdown.layer]))),
    Layer.provide([
      Layer.unwrap(Effect.map(
        Backends.embeddedClusterFile(Services.migrations),
        (initialCluster) => Database.layerEmbedded({ dataDir, initialCluster, maxMessageBytes: options?.maxMessageBytes })
      )),
      PublicUrl.layer("http://quire.test"),
      Storage.layer("embedded")
    ]),
    Layer.provideMerge(NodeServer.layerTest),
    Layer.orDie
  )

/** The bearer token of the requests a client view sends (`client`): none for an anonymous one. */
const CurrentToken = Context.Reference<string | undefined>("@quire/server/test/Harness/CurrentToken", { defaultValue: () => undefined })

/**
 * An HttpClient that sends each request through the test server's HttpClient of the fiber that
 * runs it (the suite's layer provides it) with the token of `CurrentToken`: one typed client
 * serves every test server and token of a worker.
 */
const currentServerClient = HttpClient.makeWith<never, never, HttpClientError.HttpClientError, never>(
  (request) =>
    Effect.withFiber((fiber) => {
      const server = Context.getOrUndefined(fiber.context, HttpClient.HttpClient)
      if (server === undefined) return Effect.die(new Error("Harness.client: run its requests inside a test server's layer"))
      const token = fiber.getRef(CurrentToken)
      return Effect.flatMap(request, (sent) => server.execute(token === undefined ? sent : HttpClientRequest.bearerToken(sent, token)))
    }),
  Effect.succeed
)

const makeClient = HttpApiClient.makeWith(Api, { httpClient: currentServerClient }).pipe(Effect.provide(passThrough))

export type Client = Effect.Success<typeof makeClient>

/**
 * The worker's one typed client: making one derives the codecs of every endpoint (15 ms of CPU or
 * more), which a client per test server and token had repeated for every user a suite signs up.
 */
let shared: Client | undefined

/** `client` sending `token` with every request: each endpoint's effect runs with it as `CurrentToken`. */
const withToken = <T extends object>(client: T, token: string | undefined): T =>
  Object.fromEntries(Object.entries(client).map(([key, value]) => [
    key,
    typeof value === "function"
      ? (...args: Array<unknown>) => Effect.provideService((value as (...args: Array<unknown>) => Effect.Effect<unknown, unknown, unknown>)(...args), CurrentToken, token)
      : typeof value === "object" && value !== null ? withToken(value, token) : value
  ])) as T

/** The views made so far, by token: a suite asks for the administrator's hundreds of times. */
const views = new Map<string | undefined, Client>()

/** A typed client derived from the API contract, sending `token` as bearer (none: anonymous), to the test server of the fiber that runs its requests. */
export const client = (token?: string): Effect.Effect<Client> =>
  Effect.suspend(() => {
    const known = views.get(token)
    if (known !== undefined) return Effect.succeed(known)
    return Effect.map(shared === undefined ? makeClient : Effect.succeed(shared), (made) => {
      shared = made
      const view = withToken(made, token)
      views.set(token, view)
      return view
    })
  })

/** The server's base URL, for clients that are not Effect's (GitBook's own, raw fetch). */
export const baseUrl = Effect.map(Effect.service(HttpServer.HttpServer), (server) => {
  const address = server.address
  return "port" in address ? `http://127.0.0.1:${address.port}` : ""
})

/** A raw request, for what the typed client cannot send (malformed JSON, unknown routes). */
export const raw = Effect.fnUntraced(function*(method: string, path: string, init?: { body?: string; token?: string }) {
  const base = yield* baseUrl
  const response = yield* Effect.promise(() =>
    fetch(`${base}${path}`, {
      method,
      headers: {
        "content-type": "application/json",
        ...(init?.token === undefined ? {} : { authorization: `Bearer ${init.token}` })
      },
      ...(init?.body === undefined ? {} : { body: init.body })
    })
  )
  const text = yield* Effect.promise(() => response.text())
  // An event stream (Ask's) is its text; everything else the API answers is JSON.
  const json = !(response.headers.get("content-type") ?? "").includes("text/event-stream")
  return { status: response.status, body: text === "" ? undefined : json ? JSON.parse(text) as unknown : text }
})

let counter = 0
/** A new user with a token of their own, created through the API by the administrator. */
export const newUser = Effect.fnUntraced(function*(name: string) {
  const admin = yield* client(adminToken)
  const email = `${name.toLowerCase()}.${++counter}.${Date.now()}@example.com`
  const user = yield* admin.users.createUser({ payload: { email, displayName: name } })
  const token = yield* admin.users.createUserToken({ params: { userId: user.id }, payload: { label: "test" } })
  return { user, token: token.token, email, api: yield* client(token.token) }
})

/** The status code inside an API error (the typed client's failure, or a raw body). */
export const errorCode = (error: unknown): number | undefined =>
  (error as { readonly error?: { readonly code?: number } }).error?.code

/** The message inside an API error (the typed client's failure, or a raw body); "" without one. */
export const errorMessage = (error: unknown): string =>
  (error as { readonly error?: { readonly message?: string } }).error?.message ?? ""

type TestUser = Effect.Success<ReturnType<typeof newUser>>

/**
 * The person `api` acts for accepts their pending invitation to the organization (an organization
 * admin's invitation is an offer: it grants nothing until then); answers the organization.
 */
export const acceptInvite = Effect.fnUntraced(function*(api: Client, organizationId: string) {
  const pending = yield* api.users.listInvitesForAuthenticatedUser()
  const invite = pending.items.find((item) => item.organization.id === organizationId)
  assert.isDefined(invite, `no pending invitation to ${organizationId}`)
  return yield* api.organizations.acceptOrganizationMemberInvite({ params: { organizationId, inviteId: invite!.id } })
})

/** `admin` invites `member` with `role` and `member` accepts: they are a member with that role. */
export const inviteAndAccept = Effect.fnUntraced(function*(
  admin: Client,
  organizationId: string,
  member: { readonly email: string; readonly api: Client },
  role: Roles.MemberRole | null
) {
  yield* admin.organizations.inviteUsersToOrganization({ params: { organizationId }, payload: { emails: [member.email], role } })
  return yield* acceptInvite(member.api, organizationId)
})

/** An organization administered by a new user, Alice, with a new member of each given role. */
export const organizationWith = Effect.fnUntraced(function*(roles: ReadonlyArray<Roles.MemberRole> = []) {
  const alice = yield* newUser("Alice")
  const org = yield* alice.api.organizations.createOrganization({ payload: { title: "Acme" } })
  const members: Partial<Record<Roles.MemberRole, TestUser>> = {}
  for (const role of roles) {
    const member = yield* newUser(role)
    yield* inviteAndAccept(alice.api, org.id, member, role)
    members[role] = member
  }
  return { alice, organizationId: org.id, members }
})

/** `organizationWith`, plus an empty space "Docs" in the organization. */
export const spaceWith = Effect.fnUntraced(function*(roles: ReadonlyArray<Roles.MemberRole> = []) {
  const organization = yield* organizationWith(roles)
  const space = yield* organization.alice.api.spaces.createSpace({
    params: { organizationId: organization.organizationId },
    payload: { title: "Docs" }
  })
  return { ...organization, space }
})

/** `spaceWith()` plus a collection and a change request holding a page "Guide" and a file "a.txt". */
export const spaceWithContent = Effect.fnUntraced(function*() {
  const setup = yield* spaceWith()
  const api = setup.alice.api
  const spaceId = setup.space.id
  const collection = yield* api.collections.createCollection({ params: { organizationId: setup.organizationId }, payload: { title: "C" } })
  const cr = yield* api.changeRequests.createChangeRequest({ params: { spaceId }, payload: { subject: "Content" } })
  yield* api.changeRequestContent.updateChangeRequestContent({
    params: { spaceId, changeRequestId: cr.id },
    payload: {
      changes: [
        { operation: "insert_page", title: "Guide", document: { markdown: "Install it." } },
        { operation: "insert_files", files: [{ name: "a.txt", contentType: "text/plain", base64: Buffer.from("a").toString("base64") }] }
      ]
    }
  })
  return { ...setup, collection, cr }
})

/** The changes of an updateChangeRequestContent body. */
export type ContentChanges = Parameters<Client["changeRequestContent"]["updateChangeRequestContent"]>[0]["payload"]["changes"]

/** Steps on the change requests of one space, acting as `api`. */
export const changeRequestsOn = (api: Client, spaceId: string) => {
  const params = (changeRequestId: string) => ({ spaceId, changeRequestId })
  return {
    open: (subject: string) => api.changeRequests.createChangeRequest({ params: { spaceId }, payload: { subject } }),
    edit: (cr: string, changes: ContentChanges) => api.changeRequestContent.updateChangeRequestContent({ params: params(cr), payload: { changes } }),
    merge: (cr: string) => api.changeRequests.mergeChangeRequest({ params: params(cr) }),
    update: (cr: string) => api.changeRequests.updateChangeRequest({ params: params(cr) }),
    get: (cr: string) => api.changeRequests.getChangeRequestById({ params: params(cr) }),
    main: () => api.spaceContent.getCurrentRevision({ params: { spaceId }, query: {} }),
    mainMarkdown: (pageId: string) =>
      Effect.map(api.spaceContent.getPageById({ params: { spaceId, pageId }, query: { format: "markdown" } }), (p) => p.markdown),
    crMarkdown: (cr: string, pageId: string) =>
      Effect.map(
        api.changeRequestContent.getPageInChangeRequestById({ params: { ...params(cr), pageId }, query: { format: "markdown" } }),
        (p) => p.markdown
      )
  }
}

/** `changes` made to main through a change request "Seed" opened and merged by `api`'s user; answers the merge. */
export const mergeIntoMain = Effect.fnUntraced(function*(api: Client, spaceId: string, changes: ContentChanges) {
  const s = changeRequestsOn(api, spaceId)
  const cr = yield* s.open("Seed")
  yield* s.edit(cr.id, changes)
  return yield* s.merge(cr.id)
})

/** A GET of an absolute Quire file URL on the test server (its public URL is not where it listens). */
export const download = Effect.fnUntraced(function*(url: string) {
  const base = yield* baseUrl
  assert.isTrue(url.startsWith(`${publicUrl}/files/`), url)
  return yield* LocalServer.download(`${base}${url.slice(publicUrl.length)}`)
})
