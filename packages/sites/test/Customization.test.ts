import { assert, describe, it } from "@effect/vitest"
import { Schema } from "effect"
import { decodeStored, SiteCustomization } from "../src/domain/Customization.ts"

const accepts = (value: unknown) => Schema.is(SiteCustomization)(value)

describe("SiteCustomization", () => {
  it("takes fonts as GitBook's spec defines them: one of its names or a custom font definition", () => {
    assert.isTrue(accepts({ styling: { font: "Inter", monospaceFont: "FiraCode", headingFont: null } }))
    const custom = { id: "f1", custom: true, fontFamily: "Brand Sans", fontFaces: [{ weight: 400, sources: [{ url: "https://x.test/a.woff2", format: "woff2" }] }] }
    assert.isTrue(accepts({ styling: { font: custom, headingFont: custom, monospaceFont: custom } }))
    for (const font of [{}, null, 3, "Comic Sans", { fontFamily: "X" }, { ...custom, fontFaces: [] }, { ...custom, fontFaces: [{ weight: 0, sources: [{ url: "u" }] }] }]) {
      assert.isFalse(accepts({ styling: { font } }), JSON.stringify(font))
    }
    assert.isFalse(accepts({ styling: { monospaceFont: "Inter" } }))
  })

  it("takes links to GitBook's kinds of content reference, each with the field its kind requires", () => {
    const link = (to: unknown) => ({ announcement: { enabled: true, message: "New", link: { title: "Read", to } } })
    for (const to of [{ kind: "url", url: "https://x.test" }, { kind: "page", page: "p1" }, { kind: "reusable-content", reusableContent: "r1" }, { kind: "openapi", spec: "petstore" }]) {
      assert.isTrue(accepts(link(to)), JSON.stringify(to))
    }
    for (const to of [{ kind: "somewhere", url: "https://x.test" }, { kind: "url" }, { kind: "page", url: "https://x.test" }, { kind: "openapi", page: "p1" }]) {
      assert.isFalse(accepts(link(to)), JSON.stringify(to))
    }
  })

  it("takes code themes by name, and nothing nested deeper than the spec", () => {
    assert.isTrue(accepts({ styling: { codeTheme: { default: { light: "github-light", dark: "github-dark" }, openapi: { light: "nord", dark: "nord" } } } }))
    let nested: unknown = {}
    for (let i = 0; i < 50; i++) nested = { a: nested }
    assert.isFalse(accepts({ styling: { codeTheme: nested } }))
    assert.isFalse(accepts({ styling: { codeTheme: { default: { light: "no-such-theme", dark: "nord" }, openapi: { light: "nord", dark: "nord" } } } }))
    assert.isFalse(accepts({ pageActions: { items: [nested] } }))
    assert.isTrue(accepts({ pageActions: { items: ["markdown", "pdf"] } }))
    assert.isFalse(accepts({ header: { links: [{ title: "T", to: { kind: "url", url: nested }, links: [] }] } }))
    assert.isTrue(accepts({ header: { links: [{ title: "T", to: { kind: "page", page: "p1", space: "s1" }, links: [] }] } }))
    // A favicon is an icon, an emoji or nothing: `{}` takes no other field.
    assert.isTrue(accepts({ favicon: {} }))
    assert.isFalse(accepts({ favicon: { emoji: [[[]]] } }))
  })
})

describe("decodeStored", () => {
  it("keeps what decodes and drops, by name, the fields that do not: a site reads with defaults for them", () => {
    const stored = {
      title: "Handbook",
      styling: { font: {}, primaryColor: { light: "#123456", dark: "#654321" }, codeTheme: { a: { a: {} } } },
      pageActions: { x: 1 },
      favicon: { emoji: "1f600" }
    }
    const { dropped, settings } = decodeStored(stored)
    assert.deepStrictEqual(settings, {
      title: "Handbook",
      styling: { primaryColor: { light: "#123456", dark: "#654321" } },
      favicon: { emoji: "1f600" }
    })
    assert.deepStrictEqual([...dropped].toSorted(), ["pageActions", "styling.codeTheme", "styling.font"])
    assert.deepStrictEqual(decodeStored({ title: "Ok" }), { settings: { title: "Ok" }, dropped: [] })
    assert.deepStrictEqual(decodeStored(null), { settings: {}, dropped: ["customization"] })
    assert.deepStrictEqual(decodeStored({ styling: 5 }), { settings: {}, dropped: ["styling"] })
  })
})
