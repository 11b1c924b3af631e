/**
 * The entry point of a parse worker thread (see `ParsePool.ts`): digests the pieces of each task
 * it is sent and answers with the digests, or with the error. It says `{ ready: true }` first,
 * once its code is loaded.
 */
import { parentPort } from "node:worker_threads"
import { type DigestTask, digestChunk } from "./ParseDigests.ts"

const port = parentPort
if (port !== null) {
  port.on("message", (message: { readonly id: number; readonly task: DigestTask }) => {
    try {
      const digests = message.task.chunks.map((_, index) => digestChunk(message.task, index))
      port.postMessage({ id: message.id, digests })
    } catch (error) {
      port.postMessage({ id: message.id, error: error instanceof Error ? error.stack ?? error.message : String(error) })
    }
  })
  // Its code is loaded: the pool starts the budget of its tasks from here.
  port.postMessage({ ready: true })
}
