/**
 * Support of the live-editing tests: the test server with the collaboration server mounted, and
 * Yjs clients (Hocuspocus's provider in Node, over `ws`) that send the headers a browser or a
 * script would.
 */
import { HocuspocusProvider, HocuspocusProviderWebsocket } from "@hocuspocus/provider"
import { Context, Effect, Layer, Option } from "effect"
import { HttpServer } from "effect/http"
import { WebSocket } from "ws"
import * as Y from "yjs"
import { Database } from "@quire/db"
import { Services, type Storage } from "@quire/platform"
import { Backends } from "@quire/testkit"
import { CollabCodec } from "@quire/live/CollabCodec"
import * as CollabStoredMarkdown from "@quire/live/CollabStoredMarkdown"
import * as CollabServer from "../src/collab/CollabServer.ts"
import * as CollabUpdateCheck from "@quire/live/CollabUpdateCheck"
import { PublicUrl } from "../src/PublicUrl.ts"
import { type Client as ApiClient, publicUrl, serverOn } from "./Harness.ts"

/**
 * PLACEHOLDER FOR TESTS ONLY: the page's markdown as one Y.Text, so these tests can check
 * storage, access and relaying by typing plain text. The server is wired with the editor's codec
 * (`CollabCodec.layer`: `@quire/document` over y-prosemirror), never with this;
 * `CollabEditorCodec.test.ts` runs the server with that one.
 */
export const PlainTextCodecForTests = Layer.succeed(
  CollabCodec,
  CollabCodec.of({
    fromMarkdown: (markdown) => {
      const doc = new Y.Doc()
      doc.getText("markdown").insert(0, markdown)
      const update = Y.encodeStateAsUpdate(doc)
      doc.destroy()
      return update
    },
    // No bound: every page's state is made.
    stateBytesAtLeast: () => 0,
    toMarkdown: (doc) => doc.getText("markdown").toString(),
    apply: (doc, markdown) => {
      // The one stretch that differs, replaced: what is before and after it keeps its items.
      const text = doc.getText("markdown")
      const now = text.toString()
      let start = 0
      while (start < now.length && start < markdown.length && now[start] === markdown[start]) start++
      let end = 0
      while (end < now.length - start && end < markdown.length - start && now[now.length - 1 - end] === markdown[markdown.length - 1 - end]) end++
      doc.transact(() => {
        text.delete(start, now.length - start - end)
        text.insert(start, markdown.slice(start, markdown.length - end))
      })
    },
    check: CollabUpdateCheck.rootOnly("markdown")
  })
)

export const redisUrl = "redis://127.0.0.1:6379"

/** Short enough for a test to see a revoked member go and a write happen; the limits small enough to reach. */
export const testOptions: Partial<CollabServer.CollabOptions> = {
  recheckInterval: "200 millis",
  writeDebounceMs: 100,
  writeMaxDebounceMs: 500,
  maxUpdateBytes: 16 * 1024,
  maxDocumentBytes: 256 * 1024,
  maxUpdatesPerSecond: 1000,
  redisUrl: Option.none()
}

/** The test server (Harness' `serverOn`) with the collaboration server mounted on `/collab` (the plain-text codec unless told). */
export const collabServerOn = <E, R>(
  services: Layer.Layer<Services.Services, E, R>,
  kind: Storage["Service"]["kind"],
  options: Partial<CollabServer.CollabOptions> = {},
  codec: Layer.Layer<CollabCodec> = PlainTextCodecForTests
) =>
  CollabServer.layer({ ...testOptions, ...options }).pipe(
    Layer.provide([PublicUrl.layer(publicUrl), codec]),
    Layer.provideMerge(serverOn(services, kind, CollabStoredMarkdown.layerOf(() => Effect.runPromise(Effect.service(CollabCodec).pipe(Effect.provide(codec))))))
  )

/** The ws:// address of the running server's collaboration endpoint. */
export const collabUrl = Effect.map(Effect.service(HttpServer.HttpServer), (server) => {
  const address = server.address
  return "port" in address ? `ws://127.0.0.1:${address.port}/collab` : ""
})

export interface ClientOptions {
  readonly url: string
  /** `<changeRequestId>/<pageId>`. */
  readonly name: string
  /** An API token, sent in Hocuspocus's authentication message. */
  readonly token?: string
  /** Headers of the upgrade: `origin`, `cookie`, `authorization`. */
  readonly headers?: Record<string, string>
}

/** What a client saw: authenticated or refused (with the reason), closed (with the reasons), told (stateless messages), its text. */
export interface Client {
  readonly doc: Y.Doc
  readonly provider: HocuspocusProvider
  readonly denied: Array<string>
  readonly closed: Array<string>
  readonly told: Array<string>
  readonly text: () => string
  /** Types `value` at `index` of the page's text. */
  readonly type: (index: number, value: string) => void
}

/** A client of the collaboration server, disconnected when the scope closes. */
export const connect = (options: ClientOptions) =>
  Effect.acquireRelease(
    Effect.sync((): Client => {
      const headers = options.headers ?? {}
      class HeaderedWebSocket extends WebSocket {
        constructor(url: string | URL, protocols?: string | Array<string>) {
          super(url, protocols, { headers })
          // As a browser's socket: an error is an event, never thrown (one closed while it is still
          // connecting emits one after the provider stopped listening).
          this.on("error", () => {})
        }
      }
      const socket = new HocuspocusProviderWebsocket({ url: options.url, WebSocketPolyfill: HeaderedWebSocket, maxAttempts: 1 })
      const doc = new Y.Doc()
      const denied: Array<string> = []
      const closed: Array<string> = []
      const told: Array<string> = []
      const provider = new HocuspocusProvider({
        websocketProvider: socket,
        name: options.name,
        document: doc,
        token: options.token ?? null,
        onAuthenticationFailed: ({ reason }) => void denied.push(reason),
        onClose: ({ event }) => void closed.push(event.reason),
        onStateless: ({ payload }) => void told.push(payload)
      })
      provider.attach()
      const text = doc.getText("markdown")
      return { doc, provider, denied, closed, told, text: () => text.toString(), type: (index, value) => text.insert(index, value) }
    }),
    (client) =>
      Effect.sync(() => {
        const socket = client.provider.configuration.websocketProvider
        client.provider.destroy()
        socket.destroy()
      })
  )

/**
 * Waits (up to `ms`) until `condition` holds; fails with `what` otherwise. 90 s by default: a
 * merge, an update from main and the broadcast to the clients each wait their turn on two busy cores.
 */
export const eventually = (what: string, condition: () => boolean, ms = 90_000) =>
  Effect.gen(function*() {
    const deadline = Date.now() + ms
    while (!condition()) {
      if (Date.now() > deadline) return yield* Effect.die(new Error(`Timed out waiting until ${what}`))
      yield* Effect.sleep("20 millis")
    }
  })

/** Waits until the client is connected, synced, and every update it sent is acknowledged. */
export const settled = (client: Client) =>
  eventually("the server acknowledged every update", () => client.provider.synced && !client.provider.hasUnsyncedChanges)

/** A change request of `api`'s space holding a page "Guide": its name as a shared document, and its markdown now. */
export const sharedPage = Effect.fnUntraced(function*(api: ApiClient, spaceId: string) {
  const cr = yield* api.changeRequests.createChangeRequest({ params: { spaceId }, payload: { subject: "Live" } })
  const params = { spaceId, changeRequestId: cr.id }
  yield* api.changeRequestContent.updateChangeRequestContent({
    params,
    payload: { changes: [{ operation: "insert_page", title: "Guide", document: { markdown: "Hello.\n" } }] }
  })
  const { pages } = yield* api.changeRequestContent.listPagesInChangeRequest({ params, query: {} })
  const pageId = pages[0]!.id
  const markdown = Effect.map(
    api.changeRequestContent.getPageInChangeRequestById({ params: { ...params, pageId }, query: { format: "markdown" } }),
    (page) => (page as { readonly markdown?: string }).markdown ?? ""
  )
  return { cr, params, pageId, name: `${cr.id}/${pageId}`, markdown }
})

/** Reads `effect` until its value satisfies `done` (up to 90 s, as `eventually`); answers the last value. */
export const eventuallyEffect = <A, E, R>(effect: Effect.Effect<A, E, R>, done: (value: A) => boolean) =>
  Effect.gen(function*() {
    const deadline = Date.now() + 90_000
    let value = yield* effect
    while (!done(value) && Date.now() < deadline) {
      yield* Effect.sleep("100 millis")
      value = yield* effect
    }
    return value
  })

const postgresMigrated = () => Backends.databasesMigrated(Services.migrations).find((database) => database.name === "postgres")!

/** A server with live editing relayed through Redis, on the database `pool` reaches. */
const replica = (pool: Layer.Layer<Database.Services, unknown>) =>
  Layer.build(collabServerOn(Services.layerSql, "postgres", { redisUrl: Option.some(redisUrl) }).pipe(Layer.provide(pool), Layer.orDie))

/**
 * Two test servers with live editing on one fresh PostgreSQL database, relaying through Redis, each
 * with a pool of its own (as two processes would have: each holds connections for its listeners):
 * `onFirst` and `onSecond` run an effect against one of them.
 */
export const twoServers = Effect.gen(function*() {
  const database = yield* Layer.build(postgresMigrated().layer)
  const first = yield* replica(Layer.succeedContext(database))
  const second = yield* replica(Database.layerUrl(Context.get(database, Database.DatabaseInfo).url))
  const on = (server: Context.Context<any>) => <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.provide(effect, server) as Effect.Effect<A, E, never>
  return { onFirst: on(first), onSecond: on(second) }
})
