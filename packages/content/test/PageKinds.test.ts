/** The kind of page an insert makes: documents by default, groups at the top level, link pages to a URL or a page. */
import { assert, describe, it } from "@effect/vitest"
import { insertedPageKind } from "@quire/content"

const pages = new Map([["intro", "pg_intro"], ["pg_intro", "pg_intro"]])
const pageOf = (ref: string) => pages.get(ref)

const reason = (input: Parameters<typeof insertedPageKind>[0]) => {
  const out = insertedPageKind(input, pageOf)
  return out.ok ? "" : out.reason
}

describe("insertedPageKind", () => {
  it("makes a document by default, with or without markdown", () => {
    assert.deepStrictEqual(insertedPageKind({}, pageOf), { ok: true, type: "document" })
    assert.deepStrictEqual(insertedPageKind({ type: "document", markdown: "Hello\n" }, pageOf), { ok: true, type: "document" })
  })

  it("makes a group at the top level only, without a document", () => {
    assert.deepStrictEqual(insertedPageKind({ type: "group", markdown: "" }, pageOf), { ok: true, type: "group" })
    assert.deepStrictEqual(insertedPageKind({ type: "group", into: null }, pageOf), { ok: true, type: "group" })
    const nested = insertedPageKind({ type: "group", into: "pg_intro" }, pageOf)
    assert.isFalse(nested.ok)
    assert.match(!nested.ok ? nested.reason : "", /^into: /)
    const withBody = insertedPageKind({ type: "group", markdown: "Body\n" }, pageOf)
    assert.match(!withBody.ok ? withBody.reason : "", /^document: a group has no document/)
  })

  it("makes a link to a URL or to a page by id or batch ref", () => {
    assert.deepStrictEqual(insertedPageKind({ type: "link", href: "https://example.com/a" }, pageOf), { ok: true, type: "link", target: { kind: "url", url: "https://example.com/a" } })
    assert.deepStrictEqual(insertedPageKind({ type: "link", href: "intro" }, pageOf), { ok: true, type: "link", target: { kind: "page", page: "pg_intro" } })
    assert.deepStrictEqual(insertedPageKind({ type: "link", href: "pg_intro", into: "pg_intro" }, pageOf), { ok: true, type: "link", target: { kind: "page", page: "pg_intro" } })
  })

  it("refuses a link without href, to nothing, or with a document, naming the field", () => {
    assert.match(reason({ type: "link" }), /^href: a link page needs an href/)
    assert.match(reason({ type: "link", href: "  " }), /^href: /)
    assert.match(reason({ type: "link", href: "nowhere" }), /^href: "nowhere" is neither a URL/)
    assert.match(reason({ type: "link", href: "https://exa mple.com" }), /^href: .* is not a valid URL/)
    assert.match(reason({ type: "link", href: "https://example.com", markdown: "x" }), /^document: /)
    assert.match(reason({ href: "https://example.com" }), /^href: only a link page has one \(type is document\)/)
    assert.match(reason({ type: "group", href: "https://example.com" }), /^href: /)
  })
})
