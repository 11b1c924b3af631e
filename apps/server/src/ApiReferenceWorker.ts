/**
 * Makes the API reference's document (`ApiReferenceDocument.make`) off the server's thread. As a
 * worker thread (`ApiDocs`, when no built document lies beside the server) it posts the JSON text,
 * or `{ error }`; as a program (tooling/build/build.mjs runs dist/api-reference-worker.mjs) it
 * writes the text to the file named by its argument.
 */
import { writeFile } from "node:fs/promises"
import { parentPort } from "node:worker_threads"
import { make } from "./ApiReferenceDocument.ts"

const port = parentPort
if (port !== null) {
  make().then(
    (text) => port.postMessage({ text }),
    (error: unknown) => port.postMessage({ error: error instanceof Error ? error.stack ?? error.message : String(error) })
  )
} else {
  const file = process.argv[2]
  if (file === undefined) throw new Error("usage: api-reference-worker.mjs <file to write the document to>")
  await writeFile(file, await make())
}
