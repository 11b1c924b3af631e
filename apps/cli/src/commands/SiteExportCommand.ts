/**
 * `quire sites export ORG_ID SITE_ID --out DIR`: the published site as static files in DIR (the
 * server's `exportSite` zip, unpacked as it downloads), ready for any static host or a browser's
 * `file://`. A site read with a share link or visitor authentication exports only what its public
 * audience sees, and the command says so.
 */
import { Effect, FileSystem, Path, Stream } from "effect"
import { Command, Flag } from "effect/cli"
import { HttpClient } from "effect/http"
import { Unzip, UnzipInflate } from "fflate"
import { CliFailure } from "../Failure.ts"
import * as Output from "../Output.ts"
import { QuireClient } from "../QuireClient.ts"
import { siteArgs } from "./SiteStructureCommands.ts"

/** Whether a name of the archive stays inside the directory it is unpacked to. */
export const safeName = (name: string): boolean =>
  name !== "" && !name.startsWith("/") && !name.includes("\\") && !/^[a-z]:/i.test(name) && name.split("/").every((part) => part !== ".." && part !== ".")

const concat = (parts: ReadonlyArray<Uint8Array>): Uint8Array => {
  const out = new Uint8Array(parts.reduce((n, part) => n + part.byteLength, 0))
  let at = 0
  for (const part of parts) {
    out.set(part, at)
    at += part.byteLength
  }
  return out
}

/** Unpacks the zip `bytes` into `out` as it arrives: each file written once it is whole. Answers the names written. */
export const unpack = Effect.fnUntraced(function*<E>(bytes: Stream.Stream<Uint8Array, E>, out: string) {
  const fs = yield* FileSystem.FileSystem
  const path = yield* Path.Path
  const whole: Array<{ readonly name: string; readonly bytes: Uint8Array }> = []
  const refused: Array<string> = []
  let broken: Error | undefined
  const unzip = new Unzip((file) => {
    if (file.name.endsWith("/")) return
    if (!safeName(file.name)) {
      refused.push(file.name)
      return
    }
    const parts: Array<Uint8Array> = []
    file.ondata = (error, data, final) => {
      if (error !== null) broken = error
      else {
        parts.push(data)
        if (final) whole.push({ name: file.name, bytes: concat(parts) })
      }
    }
    file.start()
  })
  unzip.register(UnzipInflate)
  const written: Array<string> = []
  const flush = Effect.gen(function*() {
    if (broken !== undefined) return yield* new CliFailure({ message: `The export could not be unpacked: ${broken.message}` })
    for (const file of whole.splice(0, whole.length)) {
      const target = path.join(out, ...file.name.split("/"))
      yield* fs.makeDirectory(path.dirname(target), { recursive: true })
      yield* fs.writeFile(target, file.bytes)
      written.push(file.name)
    }
  })
  yield* fs.makeDirectory(out, { recursive: true })
  yield* Stream.runForEach(bytes, (chunk) => Effect.suspend(() => {
    unzip.push(chunk, false)
    return flush
  }))
  unzip.push(new Uint8Array(0), true)
  yield* flush
  if (refused.length > 0) return yield* new CliFailure({ message: `The export names files outside ${out}, left out: ${refused.join(", ")}` })
  return written
})

export const exportSite = Command.make(
  "export",
  {
    ...siteArgs,
    out: Flag.Directory("out").pipe(Flag.withDescription("The directory to write the site's files to (made when missing; files of the same names are replaced)"))
  },
  Effect.fn("quire.sites.export")(function*({ organizationId, out, siteId }) {
    const client = yield* QuireClient
    const link = yield* client.siteExport.exportSite({ params: { organizationId, siteId } })
    const http = yield* HttpClient.HttpClient
    const response = yield* http.get(link.url).pipe(
      Effect.mapError((error) => new CliFailure({ message: `Cannot download the export: ${error.message}` }))
    )
    if (response.status !== 200) return yield* new CliFailure({ message: `Cannot download the export: the server answered ${response.status}` })
    const written = yield* unpack(response.stream.pipe(Stream.mapError((error) => new CliFailure({ message: `The download of the export broke off: ${error.message}` }))), out)
    const pages = written.filter((name) => name.endsWith(".html")).length
    const incomplete = written.includes("EXPORT-INCOMPLETE.txt")
    const lines = [
      `Exported site ${siteId} to ${out}: ${written.length} files, ${pages} pages. Open ${out}/index.html, or serve ${out} from any static host.`,
      ...(link.notice === null ? [] : [`Note: ${link.notice}`]),
      ...(incomplete ? [`The export is incomplete: see ${out}/EXPORT-INCOMPLETE.txt.`] : [])
    ]
    yield* Output.done(lines.join("\n"), { ...link, out, files: written.length, pages, incomplete })
  })
).pipe(
  Command.provide(QuireClient.layer),
  Command.withDescription("Write the published site as static files (pages, markdown, sitemap, llms.txt, assets, offline search) to a directory (site editors)"),
  Command.withExamples([{ command: "quire sites export ORG_ID SITE_ID --out ./site" }])
)
