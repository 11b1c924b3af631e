/** A space's main content as a zip of GitBook markdown (getSpaceMarkdownArchive), through the typed client. */
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { crc32, inflateRawSync } from "node:zlib"
import { backends, download, errorCode, newUser, spaceWith } from "./Harness.ts"

/** The files of a zip archive, read from its central directory; each file's CRC is checked. */
const unzip = (archive: Uint8Array): Map<string, string> => {
  const bytes = Buffer.from(archive)
  const end = bytes.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]))
  assert.isAtLeast(end, 0, "the archive has an end of central directory")
  const count = bytes.readUInt16LE(end + 10)
  let at = bytes.readUInt32LE(end + 16)
  const files = new Map<string, string>()
  for (let i = 0; i < count; i++) {
    assert.strictEqual(bytes.readUInt32LE(at), 0x02014b50)
    const method = bytes.readUInt16LE(at + 10)
    const crc = bytes.readUInt32LE(at + 16)
    const size = bytes.readUInt32LE(at + 20)
    const nameLength = bytes.readUInt16LE(at + 28)
    const extra = bytes.readUInt16LE(at + 30) + bytes.readUInt16LE(at + 32)
    const offset = bytes.readUInt32LE(at + 42)
    const name = bytes.toString("utf8", at + 46, at + 46 + nameLength)
    const local = offset + 30 + bytes.readUInt16LE(offset + 26) + bytes.readUInt16LE(offset + 28)
    const stored = bytes.subarray(local, local + size)
    const data = method === 8 ? inflateRawSync(stored) : stored
    assert.strictEqual(crc32(data), crc, `${name}'s CRC`)
    files.set(name, data.toString("utf8"))
    at += 46 + nameLength + extra
  }
  return files
}

for (const backend of backends) {
  layer(backend.layer, { timeout: 120_000, excludeTestServices: true })(`space markdown archive on ${backend.name}`, (it) => {
    it.effect("holds GitBook's layout of main: README, SUMMARY, a file per page with its frontmatter, nested pages in folders, assets", () =>
      Effect.gen(function*() {
        const { alice, space, members } = yield* spaceWith(["read"])
        const spaceId = space.id
        const cr = yield* alice.api.changeRequests.createChangeRequest({ params: { spaceId }, payload: { subject: "Guide" } })
        const params = { spaceId, changeRequestId: cr.id }
        const stored = yield* alice.api.changeRequestContent.updateChangeRequestContent({
          params,
          payload: { changes: [{ operation: "insert_files", files: [{ name: "diagram.png", contentType: "image/png", base64: Buffer.from("not really a png").toString("base64") }] }] }
        })
        const fileId = stored.files![0]!.id
        yield* alice.api.changeRequestContent.updateChangeRequestContent({
          params,
          payload: {
            changes: [
              { operation: "insert_page", title: "Welcome", document: { markdown: "Start here. Привет 🌍\n" } },
              { operation: "insert_page", ref: "guide", title: "Guide", description: "How to use it", document: { markdown: `See the picture.\n\n![Diagram](/files/${fileId})\n` } },
              { operation: "insert_page", into: "guide", title: "Install", document: { markdown: "Run `npm install`.\n" } }
            ]
          }
        })
        yield* alice.api.changeRequests.mergeChangeRequest({ params })

        const link = yield* members.read!.api.spacePdf.getSpaceMarkdownArchive({ params: { spaceId } })
        const served = yield* download(link.url)
        assert.strictEqual(served.status, 200)
        // A download, as every upload that is not shown inline is.
        assert.strictEqual(served.headers.get("content-type"), "application/octet-stream")
        assert.match(served.headers.get("content-disposition") ?? "", /^attachment;.*Docs\.zip/)
        const files = unzip(served.bytes)
        assert.deepStrictEqual([...files.keys()].toSorted(), [".gitbook/assets/diagram.png", "README.md", "SUMMARY.md", "guide/README.md", "guide/install.md"])
        assert.include(files.get("README.md"), "Start here. Привет 🌍")
        assert.include(files.get("SUMMARY.md"), "* [Welcome](README.md)")
        assert.include(files.get("SUMMARY.md"), "* [Guide](guide/README.md)")
        assert.include(files.get("SUMMARY.md"), "  * [Install](guide/install.md)")
        assert.include(files.get("guide/README.md"), "description: How to use it")
        // The file is referenced where the archive holds it, relative to the page.
        assert.include(files.get("guide/README.md"), "](../.gitbook/assets/diagram.png)")
        assert.strictEqual(files.get(".gitbook/assets/diagram.png"), "not really a png")

        // The same content gives the same archive.
        const again = yield* download((yield* alice.api.spacePdf.getSpaceMarkdownArchive({ params: { spaceId } })).url)
        assert.deepStrictEqual(again.bytes, served.bytes)
      }))

    it.effect("an empty space is an archive of its readme alone; an outsider learns nothing (404)", () =>
      Effect.gen(function*() {
        const { alice, space } = yield* spaceWith()
        const files = unzip((yield* download((yield* alice.api.spacePdf.getSpaceMarkdownArchive({ params: { spaceId: space.id } })).url)).bytes)
        assert.isAtMost(files.size, 2)
        const outsider = yield* newUser("Mallory")
        assert.strictEqual(errorCode(yield* Effect.flip(outsider.api.spacePdf.getSpaceMarkdownArchive({ params: { spaceId: space.id } }))), 404)
        assert.strictEqual(errorCode(yield* Effect.flip(alice.api.spacePdf.getSpaceMarkdownArchive({ params: { spaceId: "nope" } }))), 404)
      }))
  })
}
