import { describe, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import { writeFileSync } from "node:fs"
import { deflateSync } from "node:zlib"
import { assert } from "vitest"
import { documentHash, type PageNode, type ReusableContentNode, type Revision } from "@quire/content"
import { Errors } from "@quire/kernel"
import { makeFonts } from "../src/Fonts.ts"
import * as Pdf from "../src/Pdf.ts"
import { embeddedFonts, pdfText } from "@quire/testkit/PdfText"

/** A valid PNG of `width` by `height` solid pixels. */
const png = (width: number, height: number): Uint8Array => {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
    return c >>> 0
  })
  const crc = (bytes: Buffer) => {
    let c = 0xffffffff
    for (const b of bytes) c = (crcTable[(c ^ b) & 0xff] ?? 0) ^ (c >>> 8)
    return (c ^ 0xffffffff) >>> 0
  }
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4)
    length.writeUInt32BE(data.length)
    const body = Buffer.concat([Buffer.from(type, "latin1"), data])
    const sum = Buffer.alloc(4)
    sum.writeUInt32BE(crc(body))
    return Buffer.concat([length, body, sum])
  }
  const header = Buffer.alloc(13)
  header.writeUInt32BE(width, 0)
  header.writeUInt32BE(height, 4)
  header[8] = 8
  header[9] = 2
  const rows = Buffer.concat(Array.from({ length: height }, () => Buffer.concat([Buffer.from([0]), Buffer.alloc(width * 3, 0x60)])))
  return new Uint8Array(Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(rows)),
    chunk("IEND", Buffer.alloc(0))
  ]))
}

const document = `# Getting started

Some **bold**, _italic_ and \`code\` text with a [link](https://example.com) and a [relative one](other.md).

## Lists

- one
- two
  1. nested first
  2. nested second
- three

> A quoted remark
> over two lines.

\`\`\`ts
const answer = 42
console.log(answer)
\`\`\`

![A banner](/files/banner)

![A vector](/files/vector)

| a | b |
|---|---|
| 1 | 2 |

---

The end.
`

const images = new Map([["/files/banner", png(40, 20)], ["/files/vector", new TextEncoder().encode("<svg/>")]])
const image = (url: string) => Effect.succeed(Option.fromNullishOr(images.get(url)))
/** The fonts of the renderer these tests stand for, parsed once for all of them. */
const fonts = makeFonts()

const text = (bytes: Uint8Array) => Buffer.from(bytes).toString("latin1")

describe("Pdf.render", () => {
  it.effect("renders a PDF with the title and every page's title", () =>
    Effect.gen(function*() {
      const bytes = yield* Pdf.render({
        title: "Handbook",
        subtitle: "Change request #3: Fix typos",
        pages: [
          { title: "Getting started", markdown: document, depth: 0 },
          { title: "Child page", markdown: "Just text.", depth: 1 }
        ],
        image,
        fonts,
        compress: false
      })
      if (process.env["PDF_OUT"]) writeFileSync(process.env["PDF_OUT"], bytes)
      assert.strictEqual(text(bytes.slice(0, 5)), "%PDF-")
      const content = text(bytes)
      const drawn = (yield* pdfText(bytes)).join("\n")
      assert.strictEqual(drawn.split("\n").filter((line) => line === "Getting started").length, 1)
      for (const title of ["Handbook", "Getting started", "Child page", "nested second", "const answer = 42", "A quoted remark"]) {
        assert.include(drawn, title)
      }
      assert.include(content, "/URI (https://example.com)")
      assert.notInclude(content, "/URI (other.md)")
      assert.include(content, "/Subtype /Image")
      assert.include(drawn, "[A vector]")
    }))

  it.effect("embeds Unicode fonts, so Cyrillic, Greek, Japanese, Chinese, Korean and emoji render and read back as text", () =>
    Effect.gen(function*() {
      const bytes = yield* Pdf.render({
        title: "Документация",
        pages: [{
          title: "Ελληνικά",
          markdown: "Привет, **мир**. _Καλημέρα κόσμε._ 日本語の文書です。中文文档，简体汉语。한국어 문서. Done 🎉 ✅\n\n```\nconst π = \"ü\" // 注釈\n```",
          depth: 0
        }],
        image,
        fonts
      })
      assert.deepStrictEqual(embeddedFonts(bytes), [
        "NotoEmoji-Regular",
        "NotoSans-Bold",
        "NotoSans-Italic",
        "NotoSans-Regular",
        "NotoSansJP-Regular",
        "NotoSansKR-Regular",
        "NotoSansMono-Regular",
        "NotoSansSC-Regular"
      ])
      // No standard (unembedded) font is left.
      assert.notInclude(text(bytes), "/Helvetica")
      const [cover, page] = yield* pdfText(bytes)
      assert.strictEqual(cover, "Документация")
      for (const expected of ["Ελληνικά", "Привет, мир.", "Καλημέρα κόσμε.", "日本語の文書です。中文文档，简体汉语。한국어 문서.", "🎉", "✅", "const π = \"ü\" // 注釈"]) {
        assert.include(page, expected)
      }
    }))

  it.effect("gives the same bytes for the same content", () =>
    Effect.gen(function*() {
      const input = { title: "T", pages: [{ title: "P", markdown: document, depth: 0 }], image, fonts }
      const [a, b] = [yield* Pdf.render(input), yield* Pdf.render(input)]
      assert.strictEqual(text(a.slice(0, 5)), "%PDF-")
      assert.deepStrictEqual(a, b)
    }))
})

describe("Pdf.renderRevision", () => {
  it.effect("shows the reusable contents a page includes in place of the include tags", () =>
    Effect.gen(function*() {
      const warning = "Back up your data before upgrading.\n"
      const page = "Read this first.\n\n{% include \"../.gitbook/includes/upgrade-warning.md\" %}\n\nThen upgrade.\n"
      const at = "2026-01-01T00:00:00.000Z"
      const node: ReusableContentNode = { id: "rc-1", title: "Upgrade warning", document: documentHash(warning), git: { oid: "1", path: ".gitbook/includes/upgrade-warning.md" } }
      const pageNode: PageNode = { id: "p-1", type: "document", title: "Upgrading", slug: "upgrading", document: documentHash(page), git: { oid: "2", path: "guides/upgrading.md" }, createdAt: at, updatedAt: at, pages: [] }
      const revision: Revision = {
        id: "r-1",
        spaceId: "s-1",
        parents: [],
        type: "edits",
        pages: [pageNode],
        files: [],
        reusableContents: [node],
        variables: {},
        git: null,
        createdAt: new Date(at)
      }
      const bytes = yield* Pdf.renderRevision({
        title: "Handbook",
        revision,
        pageIn: (rev) => Effect.succeed({ revision: rev, page: pageNode, path: "upgrading", markdown: page }),
        reusableContentIn: (rev, id) =>
          id === "rc-1" ? Effect.succeed({ revision: rev, node, markdown: warning }) : Effect.fail(new Errors.NotFound({ resource: "ReusableContent", id })),
        blob: () => Effect.succeedNone
      }, fonts)
      const drawn = (yield* pdfText(bytes)).join("\n")
      assert.include(drawn, "Back up your data before upgrading.")
      assert.include(drawn, "Then upgrade.")
      assert.notInclude(drawn, "include")
    }))
})
