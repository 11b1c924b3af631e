/** A site's `@font-face` rules from its customization's font definitions: one per weight, only safe URLs. */
import { assert, describe, it } from "@effect/vitest"
import { fontFaceRules, themeCss } from "../src/render/Theme.ts"

const definition = (fontFamily: string, faces: ReadonlyArray<{ weight: number; url: string; format?: string }>) => ({
  id: "f1",
  custom: true,
  fontFamily,
  fontFaces: faces.map((f) => ({ weight: f.weight, sources: [{ url: f.url, ...(f.format === undefined ? {} : { format: f.format }) }] }))
})

describe("font faces", () => {
  it("declares each weight of a custom font, and the stylesheet names the family", () => {
    const font = definition("Acme Sans", [
      { weight: 400, url: "https://docs.example.com/~fonts/f1/400.woff2", format: "woff2" },
      { weight: 700, url: "/~fonts/f1/700.woff" }
    ])
    const rules = fontFaceRules({ font })
    assert.strictEqual(
      rules,
      `@font-face{font-family:"Acme Sans";font-style:normal;font-weight:400;font-display:swap;src:url("https://docs.example.com/~fonts/f1/400.woff2") format("woff2")}` +
        `@font-face{font-family:"Acme Sans";font-style:normal;font-weight:700;font-display:swap;src:url("/~fonts/f1/700.woff")}`
    )
    const css = themeCss({ font, headingFont: font })
    assert.include(css, rules)
    assert.strictEqual(css.split("@font-face").length - 1, 2)
    assert.include(css, `--font: "Acme Sans"`)
  })

  it("leaves out what could escape the rule: quotes, parentheses, other schemes, odd families and weights", () => {
    const font = definition("Evil\"}body{x:y", [
      { weight: 400, url: "https://x.example/a\");}body{background:red" },
      { weight: 500, url: "javascript:alert(1)" },
      { weight: 600, url: "data:font/woff2;base64,AAAA" },
      { weight: 2000, url: "https://x.example/ok.woff2" },
      { weight: 700, url: "https://x.example/ok.woff2", format: "truetype\"" }
    ])
    assert.strictEqual(fontFaceRules({ font }), `@font-face{font-family:"Evilbodyxy";font-style:normal;font-weight:700;font-display:swap;src:url("https://x.example/ok.woff2")}`)
    assert.strictEqual(fontFaceRules({ font: "Inter" }), "")
    assert.strictEqual(fontFaceRules({}), "")
  })
})
