/**
 * `quire files`: the files of a space (or of a change request, `--cr`), and uploads, which go
 * through a change request (`insert_files`) like every write of content.
 */
import { Effect, FileSystem, Option, Path } from "effect"
import { Argument, Command } from "effect/cli"
import type { RevisionFile } from "@quire/api"
import * as Content from "../Content.ts"
import { CliFailure } from "../Failure.ts"
import * as Output from "../Output.ts"
import * as Pages from "../Pages.ts"
import { QuireClient } from "../QuireClient.ts"

const spaceId = Argument.String("space-id").pipe(Argument.withDescription("The space's id"))

/** What the server accepts in one upload (bytes of one file, files of one batch). */
export const maxFileBytes = 1024 * 1024
export const maxBatchFiles = 20

const columns: ReadonlyArray<Output.Column<RevisionFile>> = [
  { header: "name", value: (file) => file.name },
  { header: "id", value: (file) => file.id },
  { header: "type", value: (file) => file.contentType },
  { header: "size", value: (file) => Output.bytes(file.size) }
]

/** Reads `paths` as `insert_files` entries (base64), refusing files the server would refuse. */
export const readFiles = Effect.fnUntraced(function*(paths: ReadonlyArray<string>) {
  const fs = yield* FileSystem.FileSystem
  const path = yield* Path.Path
  return yield* Effect.forEach(paths, (file) =>
    Effect.gen(function*() {
      const bytes = yield* fs.readFile(file)
      if (bytes.byteLength > maxFileBytes) {
        return yield* new CliFailure({ message: `${file} is larger than ${maxFileBytes} bytes, the most one file may hold` })
      }
      const name = path.basename(file)
      return { name, contentType: Content.contentTypeOf(name), base64: Buffer.from(bytes).toString("base64") }
    }))
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

const add = Command.make(
  "add",
  {
    spaceId,
    files: Argument.File("file", { mustExist: true }).pipe(
      Argument.withDescription(`Files to upload (at most ${maxBatchFiles}, each at most 1 MB)`),
      Argument.variadic({ min: 1, max: maxBatchFiles })
    ),
    ...Content.writeFlags
  },
  Effect.fn("quire.files.add")(function*({ changeRequest, files, spaceId, subject }) {
    const entries = yield* readFiles(files)
    const path = yield* Path.Path
    const names = files.map((file) => path.basename(file)).join(", ")
    const answer = yield* Content.writeThrough(
      spaceId,
      changeRequest,
      Option.getOrElse(subject, () => `Add ${names}`),
      [{ operation: "insert_files", files: entries }]
    )
    yield* Output.print(answer, (answer) =>
      `Added ${entries.length} file${entries.length === 1 ? "" : "s"} to change request #${answer.number}; link them as /files/<id>:\n` +
      Output.table(columns, answer.files ?? []))
  })
).pipe(
  Command.provide(QuireClient.layer),
  Command.withDescription("Upload files to a space through a change request (--cr, else a new one); prints their ids and URLs"),
  Command.withExamples([{ command: "quire files add SPACE_ID diagram.png logo.svg --cr 3" }])
)

/** `quire files ...` */
export const files = Command.make("files").pipe(
  Command.withDescription("The files of a space: list, add (upload through a change request)"),
  Command.withSubcommands([list, add])
)
