/**
 * Nothing acknowledged is lost (issue 36): the built server (dist/server.mjs) killed with SIGKILL
 * while two people type live, alone and as one of two servers relaying through Redis, on a fresh
 * database of the machine's PostgreSQL. Each person is Hocuspocus's provider in Node over `ws`,
 * typing a numbered word every few milliseconds at the end of a paragraph of their own. The test
 * reads the protocol on each socket: the server answers every update (and the state sent in reply
 * to its first sync step) with a sync status, in order, only once the update is stored; the
 * words of an update so answered are acknowledged. After the kill, what a browser opened afresh
 * loads and the change request's markdown must hold every acknowledged word of both people.
 */
import { assert, describe, it } from "@effect/vitest"
import { HocuspocusProvider, HocuspocusProviderWebsocket } from "@hocuspocus/provider"
import { Effect, type Scope } from "effect"
import { FetchHttpClient, HttpClient, HttpClientRequest } from "effect/http"
import { HttpApiClient, HttpApiMiddleware } from "effect/http-api"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { WebSocket } from "ws"
import * as Y from "yjs"
import { Api, Authentication } from "@quire/api"
import { Database } from "@quire/db"
import { Services } from "@quire/platform"
import { Backends, LocalServer } from "@quire/testkit"
import * as ProductionBuild from "@quire/testkit/ProductionBuild"

const root = fileURLToPath(new URL("../../..", import.meta.url))
const adminToken = "quire_collab_kill_admin_token_0123456789"
const redisUrl = "redis://127.0.0.1:6379"
/** A word every this many ms per person: under the server's 60 updates a second per connection, with room for bursts under load. */
const typingMs = 40

interface Running extends ProductionBuild.BuiltServer {
  readonly collab: string
}

/** Starts the built server on PostgreSQL at `databaseUrl` and waits for /health; SIGKILLed when the scope closes if still running. */
const start = (databaseUrl: string, dataDir: string, port: number, env: Record<string, string> = {}) =>
  Effect.acquireRelease(
    Effect.promise(async (): Promise<Running> => {
      const server = await ProductionBuild.startServer(root, {
        ...env,
        DATABASE_URL: databaseUrl,
        QUIRE_DATA_DIR: dataDir,
        QUIRE_ADMIN_TOKEN: adminToken
      }, { port })
      return { ...server, collab: `ws://127.0.0.1:${port}/collab` }
    }),
    (running) => Effect.promise(() => running.stop("SIGKILL"))
  )

const kill = (server: Running) => Effect.promise(() => server.stop("SIGKILL"))

const passThrough = HttpApiMiddleware.layerClient(Authentication, ({ next, request }) => next(request))

/** The API's typed client on `server`, as `token`. */
const api = (server: Running, token: string) =>
  HttpApiClient.make(Api, {
    baseUrl: server.url,
    transformClient: HttpClient.mapRequest(HttpClientRequest.bearerToken(token))
  }).pipe(Effect.provide([passThrough, FetchHttpClient.layer]))

const paragraphs = { a: "Alice types:", b: "Bob types:" } as const

/**
 * Two people on a change request's page of two paragraphs, one each, made over the API by the
 * instance administrator: Alice administers the organization, Bob is invited to edit.
 */
const setUp = Effect.fnUntraced(function*(server: Running) {
  const admin = yield* api(server, adminToken)
  const member = Effect.fnUntraced(function*(name: string) {
    const email = `${name.toLowerCase()}.${Date.now()}@collab-kill.test`
    const user = yield* admin.users.createUser({ payload: { email, displayName: name } })
    const token = (yield* admin.users.createUserToken({ params: { userId: user.id }, payload: { label: "typing" } })).token
    return { email, token, api: yield* api(server, token) }
  })
  const alice = yield* member("Alice")
  const bob = yield* member("Bob")
  const org = yield* alice.api.organizations.createOrganization({ payload: { title: "Kill" } })
  yield* alice.api.organizations.inviteUsersToOrganization({ params: { organizationId: org.id }, payload: { emails: [bob.email], role: "edit" } })
  const invite = (yield* bob.api.users.listInvitesForAuthenticatedUser()).items.find((item) => item.organization.id === org.id)
  yield* bob.api.organizations.acceptOrganizationMemberInvite({ params: { organizationId: org.id, inviteId: invite!.id } })
  const space = yield* alice.api.spaces.createSpace({ params: { organizationId: org.id }, payload: { title: "Docs" } })
  const cr = yield* alice.api.changeRequests.createChangeRequest({ params: { spaceId: space.id }, payload: { subject: "Typing" } })
  const params = { spaceId: space.id, changeRequestId: cr.id }
  yield* alice.api.changeRequestContent.updateChangeRequestContent({
    params,
    payload: { changes: [{ operation: "insert_page", title: "Guide", document: { markdown: `${paragraphs.a}\n\n${paragraphs.b}\n` } }] }
  })
  const pageId = (yield* alice.api.changeRequestContent.listPagesInChangeRequest({ params, query: {} })).pages[0]!.id
  return { alice: alice.token, bob: bob.token, name: `${cr.id}/${pageId}`, params: { ...params, pageId } }
})

type Page = Effect.Success<ReturnType<typeof setUp>>

/** The page's markdown in the change request, read over the API from `server` (as Alice). */
const markdownOf = (server: Running, page: Page) =>
  Effect.flatMap(api(server, page.alice), (client) =>
    Effect.map(
      client.changeRequestContent.getPageInChangeRequestById({ params: page.params, query: { format: "markdown" } }),
      (found) => (found as { readonly markdown?: string }).markdown ?? ""
    ))

/** The typed words (`a12`, `b7`) in `text`. */
const wordsIn = (text: string): Set<string> => new Set(text.match(/\b[ab]\d+\b/g) ?? [])

/** The text an update inserts, item by item. */
const insertedBy = (update: Uint8Array): string =>
  Y.decodeUpdate(update).structs
    .flatMap((struct) => (struct instanceof Y.Item && struct.content instanceof Y.ContentString ? [struct.content.str] : []))
    .join(" ")

/** Just enough of lib0's decoding to read Hocuspocus's frames: `<document name><message type>...`. */
class Frame {
  private at = 0
  constructor(private readonly bytes: Uint8Array) {}
  uint(): number {
    let value = 0
    for (let shift = 1; ; shift *= 128) {
      const byte = this.bytes[this.at++]!
      value += (byte & 0x7f) * shift
      if (byte < 0x80) return value
    }
  }
  bytesOf(): Uint8Array {
    const length = this.uint()
    this.at += length
    return this.bytes.subarray(this.at - length, this.at)
  }
}

const messageSync = 0
const messageSyncReply = 4
const messageSyncStatus = 8
const syncStep2 = 1
const syncUpdate = 2

/**
 * A person typing in a browser: their own Y.Doc, connected to one server after another. Every
 * update frame sent (and the state sent in reply to the server's first sync step) waits in its
 * socket's queue for the server's sync status, which Hocuspocus sends in order, after the
 * `beforeSync` hook stored the update; the words of a frame answered "applied" are acknowledged.
 */
class Person {
  readonly doc = new Y.Doc()
  /** Words typed, in order. */
  readonly typed: Array<string> = []
  readonly acknowledged = new Set<string>()
  /** Called, synchronously, as each acknowledgement arrives. */
  onAcknowledged: () => void = () => {}
  provider: HocuspocusProvider | undefined
  private timer: ReturnType<typeof setInterval> | undefined

  /** `from`: the number of the first word this browser types (another browser of the same person types others). */
  constructor(readonly letter: "a" | "b", readonly token: string, readonly name: string, readonly from = 1) {}

  /** Connects to `collab` (reconnecting to it whenever the socket closes); disconnected by `close`. */
  connect(collab: string) {
    const acknowledge = (words: Set<string>) => {
      for (const word of words) this.acknowledged.add(word)
      this.onAcknowledged()
    }
    class Tracked extends WebSocket {
      /** The words of each frame sent that the server answers, oldest first. */
      private readonly waiting: Array<Set<string>> = []
      constructor(url: string | URL, protocols?: string | Array<string>) {
        super(url, protocols)
        // As a browser's socket: an error is an event, never thrown. Closing a socket that is still
        // connecting (the person closed while it reconnects) emits one after the provider has
        // stopped listening, which Node would otherwise raise as an uncaught exception.
        this.on("error", () => {})
        this.on("message", (data: Buffer | ArrayBuffer) => {
          const frame = new Frame(data instanceof ArrayBuffer ? new Uint8Array(data) : new Uint8Array(data.buffer, data.byteOffset, data.byteLength))
          frame.bytesOf()
          if (frame.uint() !== messageSyncStatus) return
          const applied = frame.uint() === 1
          const words = this.waiting.shift() ?? new Set()
          if (applied) acknowledge(words)
        })
      }
      override send(data: any, ...rest: Array<any>) {
        const bytes = data as Uint8Array
        const frame = new Frame(bytes)
        frame.bytesOf()
        const type = frame.uint()
        if (type === messageSync || type === messageSyncReply) {
          const step = frame.uint()
          if (step === syncStep2 || step === syncUpdate) this.waiting.push(wordsIn(insertedBy(frame.bytesOf())))
        }
        super.send(data, ...rest)
      }
    }
    const socket = new HocuspocusProviderWebsocket({ url: collab, WebSocketPolyfill: Tracked, delay: 100, minDelay: 100, maxDelay: 500 })
    this.provider = new HocuspocusProvider({ websocketProvider: socket, name: this.name, document: this.doc, token: this.token })
    this.provider.attach()
  }

  /** The connection's state, for a failed wait. */
  show() {
    const provider = this.provider
    return `${this.letter}: ${provider?.configuration.websocketProvider.status ?? "closed"}, synced ${provider?.synced}, ` +
      `unsynced ${provider?.unsyncedChanges}, typed ${this.typed.length}, acknowledged ${this.acknowledged.size}`
  }

  get synced() {
    return this.provider !== undefined && this.provider.synced && !this.provider.hasUnsyncedChanges
  }

  /** The paragraph's text this person types at the end of. */
  private paragraph(): Y.XmlText | undefined {
    for (const node of this.doc.getXmlFragment("default").toArray()) {
      if (node instanceof Y.XmlElement && node.toString().includes(paragraphs[this.letter])) return node.get(0) as Y.XmlText
    }
    return undefined
  }

  /** Types a numbered word every `typingMs`, connected or not, until `stop`. */
  startTyping() {
    this.timer = setInterval(() => {
      const text = this.paragraph()
      if (text === undefined) return
      const word = `${this.letter}${this.from + this.typed.length}`
      this.typed.push(word)
      text.insert(text.length, ` ${word}`)
    }, typingMs)
  }

  stopTyping() {
    clearInterval(this.timer)
  }

  /** What the document holds, as words. */
  words() {
    return wordsIn(this.doc.getXmlFragment("default").toString())
  }

  close() {
    this.stopTyping()
    const socket = this.provider?.configuration.websocketProvider
    this.provider?.destroy()
    socket?.destroy()
    this.provider = undefined
  }
}

/** A person's browser, closed with the scope. */
const person = (letter: "a" | "b", token: string, page: Page, from = 1): Effect.Effect<Person, never, Scope.Scope> =>
  Effect.acquireRelease(Effect.sync(() => new Person(letter, token, page.name, from)), (p) => Effect.sync(() => p.close()))

/** What a failed wait shows: the servers' logs and the people's connections. */
let showing: () => string = () => ""

/** Waits (real time, up to `ms`) until `condition` holds; fails naming `what`. */
const until = (what: string, condition: () => boolean, ms = 90_000) =>
  Effect.gen(function*() {
    const deadline = Date.now() + ms
    while (!condition()) {
      if (Date.now() > deadline) return yield* Effect.die(new Error(`Timed out waiting until ${what}\n${showing()}`))
      yield* Effect.sleep("20 millis")
    }
  })

/** Reads `effect` until `done` holds of its value (up to 90 s); answers the last value. */
const untilRead = <A, E, R>(effect: Effect.Effect<A, E, R>, done: (value: A) => boolean) =>
  Effect.gen(function*() {
    const deadline = Date.now() + 90_000
    let value = yield* effect
    while (!done(value) && Date.now() < deadline) {
      yield* Effect.sleep("200 millis")
      value = yield* effect
    }
    return value
  })

/**
 * A fresh database holding the server's migrations (a copy of their template): the servers'
 * first start finds nothing to migrate, which on an empty database was most of its start-up
 * (two servers migrating one database at once is not this suite's subject).
 */
const migratedDatabase = Backends.layerPostgresMigrated(Services.migrations)

const missing = (words: Iterable<string>, from: Set<string>) => Array.from(words).filter((word) => !from.has(word))

/** A fresh database, a data directory and free ports for the servers of one test. */
const deployment = Effect.gen(function*() {
  const database = yield* Database.DatabaseInfo
  const dataDir = mkdtempSync(join(tmpdir(), "quire-collab-kill-"))
  yield* Effect.addFinalizer(() => Effect.sync(() => rmSync(dataDir, { recursive: true, force: true })))
  return { databaseUrl: database.url, dataDir }
})

describe("live editing killed with SIGKILL (the built server)", () => {
  it.live("one server: every word either person was told is stored is in the page after the restart", () =>
    Effect.gen(function*() {
      const { databaseUrl, dataDir } = yield* deployment
      const port = yield* Effect.promise(() => LocalServer.freePort())
      const first = yield* start(databaseUrl, dataDir, port)
      const page = yield* setUp(first)
      const alice = yield* person("a", page.alice, page)
      const bob = yield* person("b", page.bob, page)
      let second: Running | undefined
      let reader: Person | undefined
      showing = () => [alice.show(), bob.show(), reader?.show(), first.log().slice(-3000), second?.log().slice(-3000)].join("\n")
      alice.connect(first.collab)
      bob.connect(first.collab)
      yield* until("both people are synced", () => alice.synced && bob.synced)
      alice.startTyping()
      bob.startTyping()
      yield* until("the server acknowledged 20 words of each", () => alice.acknowledged.size >= 20 && bob.acknowledged.size >= 20)

      yield* kill(first)
      // Both type on a little (what no server acknowledges), then close their browsers: nothing
      // is sent again until they reconnect below. An acknowledgement already on its way when the
      // server died still counts: the server sent it after storing.
      yield* until("both sockets closed, and each typed a word no server acknowledged", () =>
        [alice, bob].every((p) => p.provider!.configuration.websocketProvider.status !== "connected" && p.typed.length > p.acknowledged.size))
      alice.close()
      bob.close()

      // The restarted server on the same database; a browser opened afresh loads what it stored.
      second = yield* start(databaseUrl, dataDir, port)
      reader = yield* person("a", page.alice, page)
      reader.connect(second.collab)
      yield* until("the fresh browser is synced", () => reader.synced)
      const loaded = reader.words()
      // Loading a document whose edits the markdown lacks writes them.
      const markdown = yield* untilRead(markdownOf(second, page), (now) => missing(loaded, wordsIn(now)).length === 0)
      const found = wordsIn(markdown)
      console.log(
        `one server killed: Alice typed ${alice.typed.length}, acknowledged ${alice.acknowledged.size}; ` +
          `Bob typed ${bob.typed.length}, acknowledged ${bob.acknowledged.size}; ` +
          `after the restart the page holds ${found.size} words (the document ${loaded.size})`
      )
      assert.deepStrictEqual(missing(alice.acknowledged, loaded), [], "Alice's acknowledged words are in the document loaded after the restart")
      assert.deepStrictEqual(missing(bob.acknowledged, loaded), [], "Bob's acknowledged words are in the document loaded after the restart")
      assert.deepStrictEqual(missing(alice.acknowledged, found), [], "Alice's acknowledged words are in the page's markdown")
      assert.deepStrictEqual(missing(bob.acknowledged, found), [], "Bob's acknowledged words are in the page's markdown")

      // The browsers still open send what the server never acknowledged: every word typed ends in the page.
      alice.connect(second.collab)
      bob.connect(second.collab)
      yield* until("both browsers are synced again", () => alice.synced && bob.synced)
      const typed = [...alice.typed, ...bob.typed]
      yield* until("the fresh browser sees every word typed", () => missing(typed, reader.words()).length === 0)
      const all = yield* untilRead(markdownOf(second, page), (now) => missing(typed, wordsIn(now)).length === 0)
      assert.deepStrictEqual(missing(typed, wordsIn(all)), [], "every word typed is in the page once the browsers reconnected")
    }).pipe(Effect.scoped, Effect.provide(migratedDatabase)), { timeout: 180_000 })

  it.live("two servers on Redis: one killed, its person reopens the page on the other, nothing acknowledged is lost", () =>
    Effect.gen(function*() {
      const { databaseUrl, dataDir } = yield* deployment
      const env = { QUIRE_REDIS_URL: redisUrl }
      const killed = yield* start(databaseUrl, dataDir, yield* Effect.promise(() => LocalServer.freePort()), env)
      const surviving = yield* start(databaseUrl, dataDir, yield* Effect.promise(() => LocalServer.freePort()), env)
      const page = yield* setUp(killed)
      const alice = yield* person("a", page.alice, page)
      const bob = yield* person("b", page.bob, page)
      let again: Person | undefined
      showing = () => [alice.show(), bob.show(), again?.show(), killed.log().slice(-3000), surviving.log().slice(-3000)].join("\n")
      alice.connect(killed.collab)
      bob.connect(surviving.collab)
      yield* until("both people are synced", () => alice.synced && bob.synced)
      alice.startTyping()
      bob.startTyping()
      yield* until("each server relayed words to the other", () => bob.words().has("a5") && alice.words().has("b5"))
      // Alice's server dies mid-typing, the moment it acknowledged her 20th word: before it relayed
      // that word to the other server, if that comes after. Her browser dies with it (nothing she
      // typed is sent again).
      alice.onAcknowledged = () => {
        if (alice.acknowledged.size >= 20) killed.child.kill("SIGKILL")
      }
      yield* Effect.promise(() => killed.exited)
      yield* until("Alice's socket closed", () => alice.provider!.configuration.websocketProvider.status !== "connected")
      alice.close()
      const aliceBefore = new Set(alice.acknowledged)
      // Bob types on a little, then pauses: the surviving server's next write back holds every
      // word acknowledged, Alice's last included.
      const bobAtKill = bob.acknowledged.size
      yield* until("Bob had 5 more words acknowledged", () => bob.acknowledged.size >= bobAtKill + 5)
      bob.stopTyping()
      yield* until("Bob's browser has every update acknowledged", () => bob.synced)
      const acknowledged = [...aliceBefore, ...bob.acknowledged]
      const written = wordsIn(yield* untilRead(markdownOf(surviving, page), (now) => missing(acknowledged, wordsIn(now)).length === 0))
      assert.deepStrictEqual(missing(aliceBefore, written), [], "Alice's acknowledged words are in the page the surviving server wrote")
      assert.deepStrictEqual(missing(bob.acknowledged, written), [], "Bob's acknowledged words are in the page the surviving server wrote")

      // Alice opens the page again, on the other server, and both type.
      again = yield* person("a", page.alice, page, 1001)
      again.connect(surviving.collab)
      yield* until("Alice's new browser is synced", () => again.synced)
      const reopened = again.words()
      again.startTyping()
      bob.startTyping()
      yield* until("Alice's new browser had 10 words acknowledged", () => again.acknowledged.size >= 10)
      again.stopTyping()
      bob.stopTyping()
      yield* until("both browsers have every update acknowledged", () => again.synced && bob.synced)
      yield* until("both browsers converge", () => {
        const [a, b] = [again.words(), bob.words()]
        return a.size === b.size && missing(a, b).length === 0
      })
      const held = bob.words()
      const markdown = yield* untilRead(markdownOf(surviving, page), (now) => {
        const found = wordsIn(now)
        return found.size === held.size && missing(held, found).length === 0
      })
      const found = wordsIn(markdown)
      console.log(
        `one of two servers killed: Alice typed ${alice.typed.length} on it, acknowledged ${aliceBefore.size} ` +
          `(${missing(aliceBefore, reopened).length} missing from the other server when she reopened the page), then ` +
          `${again.typed.length} on the other, acknowledged ${again.acknowledged.size}; Bob typed ${bob.typed.length}, ` +
          `acknowledged ${bob.acknowledged.size}; the page holds ${found.size} words`
      )
      assert.deepStrictEqual(missing(aliceBefore, reopened), [], "Alice's acknowledged words are there when she reopens the page on the other server")
      for (const [who, words] of [["Alice", aliceBefore], ["Alice again", again.acknowledged], ["Bob", bob.acknowledged]] as const) {
        assert.deepStrictEqual(missing(words, found), [], `${who}'s acknowledged words are in the page's markdown`)
      }
      assert.deepStrictEqual(missing(found, held), [], "the page holds what both browsers hold")
    }).pipe(Effect.scoped, Effect.provide(migratedDatabase)), { timeout: 180_000 })
})
