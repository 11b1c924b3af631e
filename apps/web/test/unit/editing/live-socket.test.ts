/**
 * The app's collaboration socket while it is down: a keystroke's update is not queued (the sync
 * when the socket opens sends everything the server lacks as one update), while the provider still
 * counts it as not yet on the server; what is not a document's update is queued as before.
 */
import { HocuspocusProvider } from "@hocuspocus/provider"
import { afterEach, describe, expect, it } from "vitest"
import * as Y from "yjs"
import { CollabSocket, isDocumentUpdate, syncMessageOf } from "../../../src/features/editing/live-socket.ts"

/** What the socket would send when it opens (HocuspocusProviderWebsocket's private queue). */
const queued = (socket: CollabSocket): Array<unknown> => (socket as unknown as { messageQueue: Array<unknown> }).messageQueue

const cleanups: Array<() => void> = []
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup()
})

const downSocket = () => {
  // Never connects: as a socket whose server is away.
  const socket = new CollabSocket({ url: "ws://127.0.0.1:9/collab", autoConnect: false })
  const document = new Y.Doc()
  const provider = new HocuspocusProvider({ websocketProvider: socket, name: "cr/page", document })
  provider.attach()
  cleanups.push(() => {
    provider.destroy()
    socket.destroy()
    document.destroy()
  })
  return { socket, document, provider }
}

describe("the collaboration socket while it is down", () => {
  it("queues no update of 150 keystrokes, and the provider counts each as not yet on the server", () => {
    const { socket, document, provider } = downSocket()
    const before = queued(socket).length
    const text = document.getText("default")
    for (let i = 0; i < 150; i++) text.insert(i, "x")
    expect(queued(socket).length).toBe(before)
    expect(provider.unsyncedChanges).toBe(150)
  })

  it("still queues what is not a document's update (who one is, for the others)", () => {
    const { socket, provider } = downSocket()
    const before = queued(socket).length
    provider.setAwarenessField("user", { name: "Ada" })
    expect(queued(socket).length).toBe(before + 1)
    expect(queued(socket).every((message) => !isDocumentUpdate(message))).toBe(true)
  })

  it("tells a document's update from the rest by its framing: name, sync message, update", () => {
    // "cr/page" (7 bytes), Sync (0), Update (2), then the update's bytes.
    const name = [7, ...new TextEncoder().encode("cr/page")]
    expect(isDocumentUpdate(new Uint8Array([...name, 0, 2, 1, 0]))).toBe(true)
    expect(isDocumentUpdate(new Uint8Array([...name, 0, 0, 1, 0]))).toBe(false)
    expect(isDocumentUpdate(new Uint8Array([...name, 1, 0]))).toBe(false)
    expect(isDocumentUpdate(new Uint8Array([200]))).toBe(false)
    expect(isDocumentUpdate("not bytes")).toBe(false)
  })
})

/** A socket that is open, the messages it sends kept (the server's side played by the test). */
const openSocket = () => {
  const socket = new CollabSocket({ url: "ws://127.0.0.1:9/collab", autoConnect: false })
  const sent: Array<Uint8Array> = []
  ;(socket as unknown as { webSocket: unknown }).webSocket = { readyState: WebSocket.OPEN, send: (message: Uint8Array) => void sent.push(message), close: () => {} }
  const document = new Y.Doc()
  const provider = new HocuspocusProvider({ websocketProvider: socket, name: "cr/page", document })
  provider.attach()
  cleanups.push(() => {
    ;(socket as unknown as { webSocket: unknown }).webSocket = null
    provider.destroy()
    socket.destroy()
    document.destroy()
  })
  return { socket, document, provider, sent, steps: () => sent.map((message) => syncMessageOf(message)?.step) }
}

/** The server's state vector for "cr/page" (the provider's framing: name, Sync, step 1, the vector), of an empty document. */
const serverSyncStep1 = () => new Uint8Array([7, ...new TextEncoder().encode("cr/page"), 0, 0, 1, 0])

describe("the collaboration socket while a document syncs", () => {
  it("sends no update between its state vector and its answer to the server's, and the answer carries what was typed", () => {
    const { document, provider, sent, steps } = openSocket()
    provider.startSync()
    expect(steps()).toContain(0)
    const text = document.getText("default")
    for (let i = 0; i < 20; i++) text.insert(i, "x")
    // A reopened connection: these build on nothing the server has seen yet.
    expect(steps().filter((step) => step === 2)).toEqual([])
    expect(provider.unsyncedChanges).toBe(21)
    provider.onMessage({ data: serverSyncStep1() } as MessageEvent)
    const answer = sent.find((message) => syncMessageOf(message)?.step === 1)
    expect(answer).toBeDefined()
    // The answer holds the 20 characters: applied to an empty document, it reads as what was typed.
    const server = new Y.Doc()
    const body = answer!.subarray(1 + 7 + 2)
    Y.applyUpdate(server, body.subarray(body[0]! < 128 ? 1 : 2))
    expect(server.getText("default").toString()).toBe("x".repeat(20))
    // One change waits: the answer, which the server acknowledges like an update.
    expect(provider.unsyncedChanges).toBe(1)
    text.insert(0, "y")
    expect(steps().filter((step) => step === 2)).toHaveLength(1)
    expect(provider.unsyncedChanges).toBe(2)
  })
})
