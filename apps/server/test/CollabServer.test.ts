/**
 * Live editing on one server, on PostgreSQL and on PGlite (the embedded database; there only what
 * storage can tell, see below): who may connect to `/collab` and from where, what
 * a reader and a revoked member can do, the limits and their reasons, two people typing in one
 * page, and the page's markdown the server writes back crediting them.
 */
import { assert, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { WebSocket } from "ws"
import * as Y from "yjs"
import { Actor } from "@quire/kernel"
import { Services } from "@quire/platform"
import { LiveDocuments } from "@quire/reviews"
import { Backends } from "@quire/testkit"
import * as CollabDocuments from "@quire/live/CollabDocuments"
import * as CollabServer from "../src/collab/CollabServer.ts"
import { call, cookieOf, ownOrigin } from "./AuthCalls.ts"
import { adminEmail, adminToken, client, organizationWith } from "./Harness.ts"
import { type Client, collabServerOn, collabUrl, connect, eventually, eventuallyEffect, PlainTextCodecForTests, settled, sharedPage } from "./CollabSupport.ts"


/** An organization with Alice (admin) and members of `roles`, a space, and a shared page in a change request. */
const setup = Effect.fnUntraced(function*(roles: Parameters<typeof organizationWith>[0] = []) {
  const organization = yield* organizationWith(roles)
  const space = yield* organization.alice.api.spaces.createSpace({ params: { organizationId: organization.organizationId }, payload: { title: "Docs" } })
  const page = yield* sharedPage(organization.alice.api, space.id)
  return { ...organization, space, page, url: yield* collabUrl }
})

/** An unsigned integer as lib0 writes it (seven bits a byte, the high bit saying more follow). */
const varUint = (value: number): Array<number> => {
  const bytes: Array<number> = []
  while (value > 127) {
    bytes.push(128 | (value & 127))
    value = Math.floor(value / 128)
  }
  bytes.push(value)
  return bytes
}
const varBytes = (bytes: Uint8Array): Array<number> => [...varUint(bytes.length), ...bytes]
const varString = (text: string): Array<number> => varBytes(new TextEncoder().encode(text))

/**
 * A client speaking Hocuspocus's protocol by hand: authenticates with `token`, then, once the
 * server answered the authentication, sends `update` as a Yjs update; answers what the server sent
 * back, as Latin-1 text, once it holds `until` (or the socket closed, or 10 s passed).
 */
const sendRawUpdate = (url: string, name: string, token: string, update: Uint8Array, until: string) =>
  Effect.callback<string>((resume) => {
    const socket = new WebSocket(url)
    const received: Array<Buffer> = []
    const answer = () => Buffer.concat(received).toString("latin1")
    let done = false
    const finish = () => {
      if (done) return
      done = true
      clearTimeout(timeout)
      socket.close()
      resume(Effect.succeed(answer()))
    }
    const timeout = setTimeout(finish, 10_000)
    socket.on("open", () => {
      // Auth (2), token (0).
      socket.send(Uint8Array.from([...varString(name), 2, 0, ...varString(token)]))
    })
    socket.on("message", (data: Buffer) => {
      // Sync (0), update (2), after the first answer (the authentication's).
      if (received.length === 0) socket.send(Uint8Array.from([...varString(name), 0, 2, ...varBytes(update)]))
      received.push(data)
      if (answer().includes(until)) finish()
    })
    socket.on("close", finish)
    socket.on("error", () => {})
  })

/**
 * How many of `client`'s updates the server answered as not applied (Hocuspocus's SyncStatus
 * message, 8, with 0), counted from now.
 */
const notApplied = (client: Client) => {
  let count = 0
  client.provider.on("message", ({ message }: { readonly message: { readVarString: () => string; readVarUint: () => number } }) => {
    message.readVarString()
    if (message.readVarUint() === 8 && message.readVarUint() === 0) count++
  })
  return () => count
}

/** Whether an upgrade to `url` with `headers` is refused before the handshake, and with which status. */
const upgradeStatus = (url: string, headers: Record<string, string>) =>
  Effect.callback<number>((resume) => {
    const socket = new WebSocket(url, { headers })
    socket.on("unexpected-response", (_request, response) => {
      resume(Effect.succeed(response.statusCode ?? 0))
      socket.terminate()
    })
    socket.on("open", () => {
      resume(Effect.succeed(101))
      socket.close()
    })
    socket.on("error", () => {})
  })

for (const database of Backends.databasesMigrated(Services.migrations)) {
  const server = collabServerOn(Services.layerSql, database.name === "pglite" ? "embedded" : "postgres", { maxUpdatesPerSecond: 30 }).pipe(
    Layer.provide(database.layer)
  )

  layer(server, { timeout: 120_000, excludeTestServices: true })(`live editing on one server on ${database.name}`, (it) => {
    it.effect("two people type in one page: both see both edits, and the change request's markdown has them, both credited", () =>
      Effect.gen(function*() {
        const { alice, members, page, url } = yield* setup(["edit"])
        const bob = members.edit!
        const a = yield* connect({ url, name: page.name, token: alice.token })
        const b = yield* connect({ url, name: page.name, token: bob.token })
        yield* settled(a)
        yield* settled(b)
        const before = yield* page.markdown
        assert.strictEqual(a.text(), before)
        assert.strictEqual(b.text(), before)
        a.type(0, "Alice was here. ")
        b.type(b.text().length, "Bob too.\n")
        yield* eventually("both see both edits", () => a.text() === b.text() && a.text().includes("Alice was here.") && a.text().includes("Bob too."))
        yield* settled(a)
        yield* settled(b)
        const typed = a.text()
        const written = yield* eventuallyEffect(page.markdown, (markdown) => markdown === typed)
        assert.strictEqual(written, typed)
        const contributors = yield* alice.api.changeRequestReviews.getContributorsByChangeRequestId({ params: page.params })
        const editors = contributors.items.filter((item) => item.actionType === "edit").map((item) => item.user.id)
        assert.includeMembers(editors, [alice.user.id, bob.user.id])
      }))

    it.effect("a page another writer changed while nobody had it open is what the next editor sees", () =>
      Effect.gen(function*() {
        const { alice, page, url } = yield* setup()
        yield* Effect.scoped(Effect.gen(function*() {
          const first = yield* connect({ url, name: page.name, token: alice.token })
          yield* settled(first)
          first.type(0, "Typed live. ")
          yield* settled(first)
          const typed = first.text()
          assert.strictEqual(yield* eventuallyEffect(page.markdown, (markdown) => markdown === typed), typed)
        }))
        yield* alice.api.changeRequestContent.updateChangeRequestContent({
          params: page.params,
          payload: { changes: [{ operation: "update_page", page: page.pageId, document: { markdown: "Rewritten through the API.\n" } }] }
        })
        const rewritten = yield* page.markdown
        assert.include(rewritten, "Rewritten through the API.")
        yield* Effect.sleep("300 millis")
        const next = yield* connect({ url, name: page.name, token: alice.token })
        yield* settled(next)
        assert.strictEqual(next.text(), rewritten)
        yield* Effect.sleep("300 millis")
        assert.strictEqual(yield* page.markdown, rewritten)
      }))

    // Who may connect and from where, what a reader or a removed member may do, what the server cannot
    // read and its rate limit are the collaboration server's rules over one HTTP upgrade: on
    // PostgreSQL only. What PGlite's one connection can tell (storing and reading back the document,
    // the size limits on what is stored) runs on both.
    if (database.name === "postgres") {
      it.effect("refuses a connection without a credential, or with an unknown token, and a document name that is not one", () =>
        Effect.gen(function*() {
          const { alice, page, url } = yield* setup()
          const anonymous = yield* connect({ url, name: page.name })
          const forged = yield* connect({ url, name: page.name, token: "quire_pat_forged" })
          const misnamed = yield* connect({ url, name: "../etc/passwd", token: alice.token })
          yield* eventually("all three are refused", () => anonymous.denied.length > 0 && forged.denied.length > 0 && misnamed.denied.length > 0)
          assert.match(anonymous.denied[0]!, /^unauthenticated: /)
          assert.match(forged.denied[0]!, /^unauthenticated: /)
          assert.match(misnamed.denied[0]!, /^not-found: /)
          assert.isFalse(anonymous.provider.synced)
          assert.strictEqual(anonymous.text(), "")
        }))

      it.effect("refuses an upgrade from another site's page before the handshake; the session cookie counts only from our own origin", () =>
        Effect.gen(function*() {
          const password = "correct horse battery"
          const signedIn = yield* call("POST", "/auth/setup", { body: { setupCode: adminToken, displayName: "Ada Admin", email: adminEmail, password } })
          assert.strictEqual(signedIn.status, 200)
          const cookie = cookieOf(signedIn)
          const admin = yield* client(adminToken)
          const org = yield* admin.organizations.createOrganization({ payload: { title: "Cookie Co" } })
          const space = yield* admin.spaces.createSpace({ params: { organizationId: org.id }, payload: { title: "Docs" } })
          const page = yield* sharedPage(admin, space.id)
          const url = yield* collabUrl

          assert.strictEqual(yield* upgradeStatus(url, { origin: "http://evil.test", cookie }), 403)
          assert.strictEqual(yield* upgradeStatus(url, { origin: "null", cookie }), 403)
          assert.strictEqual(yield* upgradeStatus(url.replace("/collab", "/collab/x"), { origin: ownOrigin }), 404)

          const browser = yield* connect({ url, name: page.name, headers: { origin: ownOrigin, cookie } })
          yield* settled(browser)
          assert.strictEqual(browser.text(), yield* page.markdown)
          // Without an Origin the sender is no browser: the cookie is not taken for a credential.
          const script = yield* connect({ url, name: page.name, headers: { cookie } })
          yield* eventually("a cookie without an origin is refused", () => script.denied.length > 0)
          assert.match(script.denied[0]!, /^unauthenticated: /)
          // A script with a bearer header needs no origin.
          const bearer = yield* connect({ url, name: page.name, headers: { authorization: `Bearer ${adminToken}` } })
          yield* settled(bearer)
        }))

      it.effect("a reader sees the page live but cannot change it; someone outside the space is refused", () =>
        Effect.gen(function*() {
          const { alice, members, page, url } = yield* setup(["read"])
          const reader = members.read!
          const outsider = (yield* organizationWith()).alice
          const writer = yield* connect({ url, name: page.name, token: alice.token })
          const watcher = yield* connect({ url, name: page.name, token: reader.token })
          const stranger = yield* connect({ url, name: page.name, token: outsider.token })
          yield* settled(writer)
          yield* eventually("the reader is synced", () => watcher.provider.synced)
          yield* eventually("the outsider is refused", () => stranger.denied.length > 0)
          assert.match(stranger.denied[0]!, /^not-found: /)

          const refused = notApplied(watcher)
          watcher.type(0, "Reader's scribble. ")
          writer.type(writer.text().length, "Writer's line.\n")
          yield* eventually("the reader sees the writer's edit", () => watcher.text().includes("Writer's line."))
          // The server answers an update it did not apply, and sends on only those it applies.
          yield* eventually("the server answers the reader's edit as not applied", () => refused() > 0)
          assert.notInclude(writer.text(), "Reader's scribble.")
          assert.isTrue(watcher.provider.hasUnsyncedChanges, "the server acknowledged a reader's edit")
          const fresh = yield* connect({ url, name: page.name, token: alice.token })
          yield* settled(fresh)
          assert.notInclude(fresh.text(), "Reader's scribble.")
          assert.include(fresh.text(), "Writer's line.")
        }))

      it.effect("a member removed from the organization is disconnected, with the reason", () =>
        Effect.gen(function*() {
          const { alice, members, organizationId, page, url } = yield* setup(["edit"])
          const bob = members.edit!
          const b = yield* connect({ url, name: page.name, token: bob.token })
          yield* settled(b)
          yield* alice.api.members.removeMemberFromOrganizationById({ params: { organizationId, userId: bob.user.id } })
          yield* eventually("Bob is disconnected", () => b.closed.some((reason) => reason.startsWith("forbidden: ")))
          assert.include(b.closed.find((reason) => reason.startsWith("forbidden: ")), "access to this change request was removed")
          b.type(0, "Too late. ")
          const a = yield* connect({ url, name: page.name, token: alice.token })
          yield* settled(a)
          yield* Effect.sleep("300 millis")
          assert.notInclude(a.text(), "Too late.")
        }))
    }

    it.effect("a person who connected before the last edits were written back opens the page with them", () =>
      Effect.gen(function*() {
        // Someone connects (the page is read then) while the last person's edits are being
        // written back; the document loads once those are written and the document unloaded.
        // The page read at connection is older than the agreement stored with the write back:
        // it must not pass for a write from elsewhere that would make the document anew.
        const { alice, page } = yield* setup()
        const actor: Actor.ActorShape = { userId: alice.user.id, instanceAdmin: false }
        const live = yield* LiveDocuments
        const documents = yield* CollabDocuments.make(CollabServer.defaults, false).pipe(Effect.provide(PlainTextCodecForTests))
        const opened = yield* live.open(page.params.changeRequestId, page.pageId).pipe(Effect.provideService(Actor.Actor, actor))
        assert.strictEqual(opened.markdown, "Hello.\n")

        const first = yield* documents.load(opened, actor)
        const doc = new Y.Doc()
        Y.applyUpdate(doc, first.state)
        const before = Y.encodeStateVector(doc)
        doc.getText("markdown").insert(0, "Kept. ")
        const connection = { actor, opened, window: { start: 0, count: 0 }, updates: 0, arrived: undefined }
        yield* documents.store(page.name, connection, Y.encodeStateAsUpdate(doc, before), doc)
        assert.isTrue(yield* documents.writeMarkdown(page.name, doc))
        assert.strictEqual(yield* page.markdown, "Kept. Hello.\n")
        yield* documents.unload(page.name)

        const second = yield* documents.load(opened, actor)
        const reloaded = new Y.Doc()
        Y.applyUpdate(reloaded, second.state)
        assert.strictEqual(reloaded.getText("markdown").toString(), "Kept. Hello.\n")
        assert.strictEqual(yield* page.markdown, "Kept. Hello.\n")
      }))

    it.effect("an update over the size limit, and a page grown over its limit, are refused with their reasons and not stored", () =>
      Effect.gen(function*() {
        const { alice, page, url } = yield* setup()
        const big = yield* connect({ url, name: page.name, token: alice.token })
        yield* settled(big)
        big.type(0, "x".repeat(20 * 1024))
        yield* eventually("the large update is refused", () => big.closed.some((reason) => reason.startsWith("update-too-large: ")))
        assert.include(big.closed.find((reason) => reason.startsWith("update-too-large: ")), "at most 16 KiB")

        const grower = yield* connect({ url, name: page.name, token: alice.token })
        yield* settled(grower)
        assert.notInclude(grower.text(), "xxxx")
        for (let i = 0; i < 20 && !grower.closed.some((reason) => reason.startsWith("document-too-large: ")); i++) {
          grower.type(0, `${i}`.padEnd(15 * 1024, "y"))
          yield* eventually("the chunk is acknowledged or refused", () => !grower.provider.hasUnsyncedChanges || grower.closed.length > 0)
        }
        assert.isTrue(grower.closed.some((reason) => reason.startsWith("document-too-large: ")))
        const stored = yield* connect({ url, name: page.name, token: alice.token })
        yield* settled(stored)
        assert.isBelow(Y.encodeStateAsUpdate(stored.doc).length, 256 * 1024)
      }))

    if (database.name === "postgres") {
      it.effect("an update the server cannot read is refused, and the document still opens", () =>
        Effect.gen(function*() {
          const { alice, page, url } = yield* setup()
          const answer = yield* sendRawUpdate(url, page.name, alice.token, Uint8Array.from([1, 5, 200, 1, 2]), "invalid-update: ")
          assert.include(answer, "invalid-update: ")
          const next = yield* connect({ url, name: page.name, token: alice.token })
          yield* settled(next)
          assert.strictEqual(next.text(), yield* page.markdown)
        }))

      it.effect("a client sending more updates a second than allowed is closed with the reason; what was acknowledged before stays", () =>
        Effect.gen(function*() {
          const { alice, page, url } = yield* setup()
          const typist = yield* connect({ url, name: page.name, token: alice.token })
          yield* settled(typist)
          typist.type(0, "Kept. ")
          yield* settled(typist)
          for (let i = 0; i < 300; i++) typist.type(0, "z")
          yield* eventually("the typist is rate-limited", () => typist.closed.some((reason) => reason.startsWith("rate-limited: ")))
          assert.include(typist.closed.find((reason) => reason.startsWith("rate-limited: ")), "more than 30 edits a second")
          const fresh = yield* connect({ url, name: page.name, token: alice.token })
          yield* settled(fresh)
          assert.include(fresh.text(), "Kept. ")
          // 30 a second, counted by when they reached the server, however long each store takes:
          // of the 300 sent at once, the first 30 are kept (60 if the flood straddled a second).
          assert.isAtMost(fresh.text().split("z").length - 1, 60)
        }))

      it.effect("an editor reopened after a refusal that passes, typing before its sync is answered, is asked to sync again, and then everything it typed is stored", () =>
        Effect.gen(function*() {
          const { alice, page, url } = yield* setup()
          const typist = yield* connect({ url, name: page.name, token: alice.token })
          yield* settled(typist)
          for (let i = 0; i < 100; i++) typist.type(0, "z")
          yield* eventually("the typist is rate-limited", () => typist.closed.some((reason) => reason.startsWith("rate-limited: ")))
          // Reopened as the app does (after a pause, on the same socket) and typed in at once: the
          // update goes out before the answer to the server's sync, which carries the undelivered ones.
          const reopen = Effect.gen(function*() {
            yield* Effect.sleep("1100 millis")
            yield* Effect.promise(() => typist.provider.sendToken())
            typist.provider.startSync()
          })
          yield* reopen
          typist.type(0, "After. ")
          yield* eventually("the typist is asked to sync again", () => typist.closed.some((reason) => reason.startsWith("resync: ")), 30_000)
          assert.isFalse(typist.closed.some((reason) => reason.startsWith("invalid-update")), typist.closed.join("; "))
          // Reopened again, and left to sync: everything typed is on the server.
          yield* reopen
          yield* settled(typist)
          const fresh = yield* connect({ url, name: page.name, token: alice.token })
          yield* settled(fresh)
          assert.include(fresh.text(), "After. ")
          assert.strictEqual(fresh.text(), typist.text())
        }))
    }
  })
}

/** Every stored update takes 100 ms more, as on a server too busy to keep up with what it is sent. */
const slowStores = Layer.effect(LiveDocuments, Effect.map(Effect.service(LiveDocuments), (live) =>
  LiveDocuments.of({ ...live, storeUpdate: (name, update, author) => Effect.delay(live.storeUpdate(name, update, author), "100 millis") })))

const slowServer = collabServerOn(Layer.merge(Services.layerMemory, slowStores.pipe(Layer.provide(Services.layerMemory))), "memory", { maxUpdatesPerSecond: 30 })

layer(slowServer, { timeout: 120_000, excludeTestServices: true })("live editing on a server slow to store", (it) => {
  it.effect("a flood of updates is refused by when it arrived, not by how fast the server stores it", () =>
    Effect.gen(function*() {
      const { alice, page, url } = yield* setup()
      const typist = yield* connect({ url, name: page.name, token: alice.token })
      yield* settled(typist)
      // 300 at once, stored ten a second: counted as stored, no second would ever hold more than 30.
      for (let i = 0; i < 300; i++) typist.type(0, "z")
      yield* eventually("the typist is rate-limited", () => typist.closed.some((reason) => reason.startsWith("rate-limited: ")), 10_000)
      const fresh = yield* connect({ url, name: page.name, token: alice.token })
      yield* settled(fresh)
      const stored = fresh.text().split("z").length - 1
      assert.isAtLeast(stored, 1)
      assert.isAtMost(stored, 30)
    }))
})
