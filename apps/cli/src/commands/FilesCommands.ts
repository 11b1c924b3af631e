/**
 * `quire files`: the files of a space (or of a change request, `--cr`), and uploads, which go
 * through a change request like every write of content: files of up to 1 MB in one `insert_files`
 * batch, larger ones (up to the server's upload limit) each through the upload route
 * (`uploadFileInChangeRequest`), as their raw bytes.
 */
import { Effect, FileSystem, Layer, Option, Path } from "effect"
import { Argument, Command } from "effect/cli"
import { HttpClientRequest, type HttpClientResponse } from "effect/http"
import type { RevisionFile } from "@quire/api"
import * as Content from "../Content.ts"
import { CliFailure } from "../Failure.ts"
import * as Output from "../Output.ts"
import * as Pages from "../Pages.ts"
import { QuireClient, QuireHttp } from "../QuireClient.ts"

const spaceId = Argument.String("space-id").pipe(Argument.withDescription("The space's id"))

/** What the server accepts inline in one batch (bytes of one file, files of one batch); larger files go through the upload route. */
export const maxFileBytes = 1024 * 1024
export const maxBatchFiles = 20

const columns: ReadonlyArray<Output.Column<RevisionFile>> = [
  { header: "name", value: (file) => file.name },
  { header: "id", value: (file) => file.id },
  { header: "type", value: (file) => file.contentType },
  { header: "size", value: (file) => Output.bytes(file.size) }
]

/** Reads `paths` (each at most `maxFileBytes`) as `insert_files` entries (base64). */
export const readFiles = Effect.fnUntraced(function*(paths: ReadonlyArray<string>) {
  const fs = yield* FileSystem.FileSystem
  const path = yield* Path.Path
  return yield* Effect.forEach(paths, (file) =>
    Effect.gen(function*() {
      const bytes = yield* fs.readFile(file)
      const name = path.basename(file)
      return { name, contentType: Content.contentTypeOf(name), base64: Buffer.from(bytes).toString("base64") }
    }))
})

/** What the upload route answers. */
interface Uploaded {
  readonly file: RevisionFile
  readonly changeRequest: { readonly id: string; readonly number: number; readonly revision: string }
}

/** Sends `file`'s bytes to change request `changeRequestId` through the upload route; the server's refusal (its limit, the quota) as the failure. */
export const upload = Effect.fnUntraced(function*(spaceId: string, changeRequestId: string, file: string) {
  const { baseUrl, httpClient } = yield* QuireHttp
  const fs = yield* FileSystem.FileSystem
  const path = yield* Path.Path
  const name = path.basename(file)
  const bytes = yield* fs.readFile(file)
  const request = HttpClientRequest.post(
    `${baseUrl}/v1/spaces/${encodeURIComponent(spaceId)}/change-requests/${encodeURIComponent(changeRequestId)}/files`,
    { urlParams: { name } }
  ).pipe(HttpClientRequest.bodyUint8Array(bytes, Content.contentTypeOf(name)))
  const response: HttpClientResponse.HttpClientResponse = yield* httpClient.execute(request).pipe(
    Effect.mapError((error) => new CliFailure({ message: `Cannot reach the server at ${baseUrl}: ${error.message}` }))
  )
  const body: unknown = yield* Effect.orElseSucceed(response.json, () => undefined)
  if (response.status !== 201) {
    const message = (body as { readonly error?: { readonly message?: unknown } } | undefined)?.error?.message
    return yield* new CliFailure({ message: `${file}: ${typeof message === "string" ? message : `the server answered ${response.status}`}` })
  }
  return body as Uploaded
})

const list = Command.make(
  "list",
  { spaceId, changeRequest: Content.changeRequestFlag, ...Pages.flags },
  Effect.fn("quire.files.list")(function*({ changeRequest, limit, pageSize, spaceId }) {
    const client = yield* QuireClient
    const files = yield* Pages.collect(
      (query) =>
        Option.isNone(changeRequest)
          ? client.spaceContent.listFiles({ params: { spaceId }, query })
          : client.changeRequestContent.listFilesInChangeRequestById({
            params: { spaceId, changeRequestId: changeRequest.value },
            query
          }),
      { limit, pageSize }
    )
    yield* Output.printList(files, columns, `No files in ${Content.where(changeRequest)}.`)
  })
).pipe(
  Command.provide(QuireClient.layer),
  Command.withDescription("The files of a space (or of a change request with --cr): name, id, type and size; --json adds each file's download URL"),
  Command.withAlias("ls")
)

const added = (number: number, files: ReadonlyArray<RevisionFile>) =>
  `Added ${files.length} file${files.length === 1 ? "" : "s"} to change request #${number}; link them as /files/<id>:\n` +
  Output.table(columns, files)

const add = Command.make(
  "add",
  {
    spaceId,
    files: Argument.File("file", { mustExist: true }).pipe(
      Argument.withDescription(`Files to upload (at most ${maxBatchFiles}, each up to the server's upload limit, 100 MB unless its administrator set another)`),
      Argument.variadic({ min: 1, max: maxBatchFiles })
    ),
    ...Content.writeFlags
  },
  Effect.fn("quire.files.add")(function*({ changeRequest, files, spaceId, subject }) {
    const fs = yield* FileSystem.FileSystem
    const path = yield* Path.Path
    const sizes = yield* Effect.forEach(files, (file) => Effect.map(fs.stat(file), (info) => Number(info.size)))
    const small = files.filter((_, i) => sizes[i]! <= maxFileBytes)
    const large = files.filter((_, i) => sizes[i]! > maxFileBytes)
    const names = files.map((file) => path.basename(file)).join(", ")
    const title = Option.getOrElse(subject, () => `Add ${names}`)
    if (large.length === 0) {
      const answer = yield* Content.writeThrough(spaceId, changeRequest, title, [{ operation: "insert_files", files: yield* readFiles(small) }])
      return yield* Output.print(answer, (answer) => added(answer.number, answer.files ?? []))
    }
    // Larger files each go as their bytes, into the change request named or a new one; the small ones after, in one batch.
    const target = yield* Content.changeRequestFor(spaceId, changeRequest, title)
    const uploaded = yield* Effect.forEach(large, (file) => upload(spaceId, target, file))
    const batch = small.length === 0
      ? undefined
      : yield* Content.write(spaceId, target, [{ operation: "insert_files", files: yield* readFiles(small) }])
    const stored = [...uploaded.map((u) => u.file), ...(batch?.files ?? [])]
    const client = yield* QuireClient
    const cr = batch ?? (yield* client.changeRequests.getChangeRequestById({ params: { spaceId, changeRequestId: target } }))
    yield* Output.print({ ...cr, files: stored }, (answer) => added(answer.number, answer.files))
  })
).pipe(
  Command.provide(Layer.merge(QuireClient.layer, QuireHttp.layer)),
  Command.withDescription("Upload files to a space through a change request (--cr, else a new one); prints their ids and URLs"),
  Command.withExamples([{ command: "quire files add SPACE_ID diagram.png logo.svg --cr 3" }])
)

/** `quire files ...` */
export const files = Command.make("files").pipe(
  Command.withDescription("The files of a space: list, add (upload through a change request)"),
  Command.withSubcommands([list, add])
)
