/** A space's main content as a PDF (getSpacePDF), with Unicode fonts, through the typed client, on every backend. */
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { backends, download, errorCode, newUser, spaceWith } from "./Harness.ts"
import { embeddedFonts, pdfText } from "@quire/testkit/PdfText"

for (const backend of backends) {
  layer(backend.layer, { timeout: 120_000, excludeTestServices: true })(`space PDF on ${backend.name}`, (it) => {
    it.effect("renders main content, non-Latin text and emoji included, to a PDF at a signed URL, whole or from one page", () =>
      Effect.gen(function*() {
        const { alice, space } = yield* spaceWith(["read"])
        const spaceId = space.id
        const cr = yield* alice.api.changeRequests.createChangeRequest({ params: { spaceId }, payload: { subject: "Languages" } })
        const params = { spaceId, changeRequestId: cr.id }
        yield* alice.api.changeRequestContent.updateChangeRequestContent({
          params,
          payload: {
            changes: [
              { operation: "insert_page", ref: "intl", title: "Languages 🌍", document: { markdown: "Привет, мир. Γειά σου κόσμε." } },
              { operation: "insert_page", into: "intl", title: "日本語", document: { markdown: "こんにちは、世界。你好，世界。简体汉语。 🎉 ✅" } },
              { operation: "insert_page", title: "Plain", document: { markdown: "Only **Latin** here." } }
            ]
          }
        })
        // Not merged yet: main is empty, and its PDF is the cover alone.
        const before = yield* download((yield* alice.api.spacePdf.getSpacePDF({ params: { spaceId }, query: {} })).url)
        assert.deepStrictEqual(yield* pdfText(before.bytes), ["Docs"])

        yield* alice.api.changeRequests.mergeChangeRequest({ params })
        const whole = yield* alice.api.spacePdf.getSpacePDF({ params: { spaceId }, query: {} })
        const served = yield* download(whole.url)
        assert.strictEqual(served.status, 200)
        assert.strictEqual(served.headers.get("content-type"), "application/pdf")
        assert.include(served.headers.get("content-disposition") ?? "", "Docs.pdf")
        assert.deepStrictEqual(embeddedFonts(served.bytes), [
          "NotoEmoji-Regular",
          "NotoSans-Bold",
          "NotoSans-Regular",
          "NotoSansJP-Regular",
          "NotoSansSC-Regular"
        ])
        const pages = yield* pdfText(served.bytes)
        assert.strictEqual(pages.length, 4)
        assert.include(pages[1], "Languages 🌍")
        assert.include(pages[1], "Привет, мир. Γειά σου κόσμε.")
        assert.include(pages[2], "日本語")
        assert.include(pages[2], "こんにちは、世界。你好，世界。简体汉语。")
        assert.include(pages[2], "🎉")
        assert.include(pages[3], "Only Latin here.")

        // From one page: it and its subpages; with `only`, it alone.
        const { pages: tree } = yield* alice.api.spaceContent.listPages({ params: { spaceId }, query: {} })
        const intl = tree[0]!
        const section = yield* pdfText((yield* download((yield* alice.api.spacePdf.getSpacePDF({ params: { spaceId }, query: { page: intl.id } })).url)).bytes)
        assert.strictEqual(section.length, 3)
        const only = yield* pdfText((yield* download((yield* alice.api.spacePdf.getSpacePDF({ params: { spaceId }, query: { page: intl.id, only: true } })).url)).bytes)
        assert.strictEqual(only.length, 2)
        assert.notInclude(only.join("\n"), "こんにちは")

        const unknown = yield* Effect.flip(alice.api.spacePdf.getSpacePDF({ params: { spaceId }, query: { page: "nope" } }))
        assert.strictEqual(errorCode(unknown), 404)
      }))

    it.effect("is readable by readers and hidden from outsiders", () =>
      Effect.gen(function*() {
        const { space, members } = yield* spaceWith(["read"])
        const read = yield* members.read!.api.spacePdf.getSpacePDF({ params: { spaceId: space.id }, query: {} })
        assert.strictEqual(Buffer.from((yield* download(read.url)).bytes.slice(0, 5)).toString("latin1"), "%PDF-")
        const outsider = yield* newUser("Mallory")
        assert.strictEqual(errorCode(yield* Effect.flip(outsider.api.spacePdf.getSpacePDF({ params: { spaceId: space.id }, query: {} }))), 404)
      }))
  })
}
