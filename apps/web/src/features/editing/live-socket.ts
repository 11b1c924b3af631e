/**
 * The collaboration server's socket as the app uses it: `HocuspocusProviderWebsocket`, except that
 * a document's update made while the socket is not open is not queued. The provider queues every
 * message sent while the socket is down and sends the queue at once when it is back, one update
 * per keystroke: after a restart of the server, a minute's typing arrived as hundreds of updates in
 * one instant, over the server's limit of updates a second, and the server closed the document
 * with `rate-limited` ("You are typing faster than the server accepts") though nobody typed. Those
 * updates are not needed: when the socket opens, each document syncs again (its state vector sent,
 * the server answering with its own), and the sync's answer carries everything the server lacks as
 * one update. The provider still counts each change as not yet acknowledged, so the status says
 * what waits; the sync's acknowledgement clears the count.
 *
 * Nor is an update sent while a document's sync is under way (its state vector sent, the server's
 * own not yet answered): on a connection reopened after a refusal that passes or a dropped
 * socket, what was typed meanwhile builds on the edits the old connection never delivered, which
 * reach the server only in the answer to its state vector, so the server refused it as building on
 * what it lacks. The answer carries every change made until it is sent, and from then the provider
 * counts one change waiting: that answer, acknowledged like an update.
 */
import { HocuspocusProviderWebsocket, MessageType } from "@hocuspocus/provider"

/** y-protocols' sync messages: one's state vector, the answer carrying what the other lacks, an update. */
const syncStep1 = 0
const syncStep2 = 1
const syncUpdate = 2

/** Reads a lib0 variable-length unsigned integer at `at`: its value and the offset after it. */
const varUint = (bytes: Uint8Array, at: number): { readonly value: number; readonly next: number } | undefined => {
  let value = 0
  let shift = 0
  for (let i = at; i < bytes.length && shift < 53; i++) {
    const byte = bytes[i]!
    value += (byte & 0x7f) * 2 ** shift
    if (byte < 0x80) return { value, next: i + 1 }
    shift += 7
  }
  return undefined
}

/** The document and the sync message type of `message` (the provider's framing: the document's name, the message type, its body), if it is a sync message. */
export const syncMessageOf = (message: unknown): { readonly name: string; readonly step: number } | undefined => {
  if (!(message instanceof Uint8Array)) return undefined
  const nameLength = varUint(message, 0)
  if (nameLength === undefined || nameLength.next + nameLength.value > message.length) return undefined
  const type = varUint(message, nameLength.next + nameLength.value)
  if (type === undefined || type.value !== MessageType.Sync) return undefined
  const step = varUint(message, type.next)
  if (step === undefined) return undefined
  return { name: new TextDecoder().decode(message.subarray(nameLength.next, nameLength.next + nameLength.value)), step: step.value }
}

/** Whether `message` is a document's update. */
export const isDocumentUpdate = (message: unknown): boolean => syncMessageOf(message)?.step === syncUpdate

/**
 * The app's socket to `/collab`: a document's update made while it is not open, or while the
 * document's sync is under way, waits for the sync's answer rather than in a queue.
 */
export class CollabSocket extends HocuspocusProviderWebsocket {
  /** The documents whose state vector went out and whose answer to the server's has not. */
  private readonly syncing = new Set<string>()

  override send(message: unknown) {
    const sync = syncMessageOf(message)
    const open = this.webSocket?.readyState === WebSocket.OPEN
    if (sync?.step === syncStep1) this.syncing.add(sync.name)
    if (sync?.step === syncUpdate && (!open || this.syncing.has(sync.name))) return
    super.send(message)
    // Everything typed so far is in this answer: one change waits, the answer itself.
    if (sync?.step === syncStep2 && open && this.syncing.delete(sync.name)) {
      ;(this.configuration.providerMap.get(sync.name) as unknown as { resetUnsyncedChanges?: () => void } | undefined)?.resetUnsyncedChanges?.()
    }
  }
}
