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
 */
import { HocuspocusProviderWebsocket, MessageType } from "@hocuspocus/provider"

/** y-protocols' sync message that carries an update (after step 1 and step 2). */
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

/** Whether `message` (the provider's framing: the document's name, the message type, its body) is a document's update. */
export const isDocumentUpdate = (message: unknown): boolean => {
  if (!(message instanceof Uint8Array)) return false
  const nameLength = varUint(message, 0)
  if (nameLength === undefined) return false
  const type = varUint(message, nameLength.next + nameLength.value)
  if (type === undefined || type.value !== MessageType.Sync) return false
  return varUint(message, type.next)?.value === syncUpdate
}

/** The app's socket to `/collab`: a document's update made while it is not open waits for the next sync rather than in a queue. */
export class CollabSocket extends HocuspocusProviderWebsocket {
  override send(message: unknown) {
    if (this.webSocket?.readyState !== WebSocket.OPEN && isDocumentUpdate(message)) return
    super.send(message)
  }
}
