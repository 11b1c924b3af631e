/**
 * A site's customization (issue 18, accepted-then-500): what GitBook's schema refuses is a 400
 * naming the field and changes nothing; a value stored before the check that does not decode is
 * read as the default for that field, so the API and the published site keep answering.
 */
import { assert, layer } from "@effect/vitest"
import { Effect, Option } from "effect"
import { SqlClient } from "effect/sql"
import { backends, raw } from "./Harness.ts"
import { get, publishedSite } from "./SiteFixtures.ts"

const depth = 5000
/** `{"styling":{"codeTheme":{"a":{"a":…}}}}`, 5,000 levels deep, as text (too deep to build and stringify here). */
const deepCodeTheme = `{"styling":{"codeTheme":${'{"a":'.repeat(depth)}{}${"}".repeat(depth)}}}`

const customFont = {
  id: "brand",
  custom: true,
  fontFamily: "Brand Sans",
  fontFaces: [{ weight: 400, sources: [{ url: "https://fonts.example.com/brand.woff2", format: "woff2" }] }]
}

for (const backend of backends) {
  layer(backend.layer, { timeout: 300_000, excludeTestServices: true })(`site customization on ${backend.name}`, (it) => {
    it.effect("a value GitBook's schema refuses is a 400 naming the field; the site keeps its customization and keeps answering", () =>
      Effect.gen(function*() {
        const s = yield* publishedSite("public", { styling: { primaryColor: { light: "#123456", dark: "#654321" } } })
        const path = `/v1/orgs/${s.organizationId}/sites/${s.siteId}/customization`
        const refused: ReadonlyArray<readonly [string, string]> = [
          [JSON.stringify({ styling: { font: {} } }), "styling.font"],
          [JSON.stringify({ styling: { font: null } }), "styling.font"],
          [JSON.stringify({ styling: { font: 12 } }), "styling.font"],
          [JSON.stringify({ styling: { font: "Comic Sans" } }), "styling.font"],
          [JSON.stringify({ styling: { headingFont: { fontFamily: "X" } } }), "styling.headingFont"],
          [JSON.stringify({ styling: { monospaceFont: [] } }), "styling.monospaceFont"],
          [deepCodeTheme, "styling.codeTheme"],
          [JSON.stringify({ styling: { codeTheme: { default: { light: "nope", dark: "nord" }, openapi: { light: "nord", dark: "nord" } } } }), "styling.codeTheme"],
          [JSON.stringify({ pageActions: { items: [{ a: { a: {} } }] } }), "pageActions"],
          [JSON.stringify({ header: { links: [{ title: "T", to: { kind: "url", url: { a: 1 } }, links: [] }] } }), "header.links"]
        ]
        for (const [body, field] of refused) {
          const answer = yield* raw("PUT", path, { token: s.token, body })
          assert.strictEqual(answer.status, 400, body.slice(0, 100))
          const message = (answer.body as { error: { code: number; message: string } }).error.message
          assert.include(message, field, body.slice(0, 100))
          const read = yield* raw("GET", path, { token: s.token })
          assert.strictEqual(read.status, 200)
          // What was stored, under GitBook's defaults for every setting it requires.
          const styling = (read.body as { styling?: { primaryColor?: unknown; font?: unknown } }).styling
          assert.deepStrictEqual(styling?.primaryColor, { light: "#123456", dark: "#654321" })
          assert.strictEqual(styling?.font, "Inter")
          const page = yield* get(`/~sites/${s.siteId}/`)
          assert.strictEqual(page.status, 200)
          assert.include(page.text, "#123456")
        }
        // What the spec allows is kept and shown: a custom font, code themes by name.
        const accepted = yield* raw("PUT", path, {
          token: s.token,
          body: JSON.stringify({
            styling: {
              font: customFont,
              headingFont: null,
              monospaceFont: "JetBrainsMono",
              codeTheme: { default: { light: "github-light", dark: "github-dark" }, openapi: { light: "nord", dark: "nord" } }
            }
          })
        })
        assert.strictEqual(accepted.status, 200, JSON.stringify(accepted.body))
        const page = yield* get(`/~sites/${s.siteId}/`)
        assert.strictEqual(page.status, 200)
        assert.include(page.text, `"Brand Sans"`)
      }))

    it.effect("a stored customization that no longer decodes is read with defaults for the bad fields, never a 500", () =>
      Effect.gen(function*() {
        const sql = yield* Effect.serviceOption(SqlClient.SqlClient)
        // Only a database can hold what an older version stored; the memory store holds decoded values.
        if (backend.name === "memory") return
        const s = yield* publishedSite("public")
        yield* Option.getOrThrow(sql)`
          UPDATE sites_sites SET customization = ${
          JSON.stringify({
            title: "Stored Title",
            styling: { font: {}, monospaceFont: 7, codeTheme: { a: { a: { a: {} } } }, primaryColor: { light: "#abcdef", dark: "#fedcba" } },
            pageActions: "everything",
            themes: null
          })
        }::jsonb WHERE id = ${s.siteId}`
        const read = yield* raw("GET", `/v1/orgs/${s.organizationId}/sites/${s.siteId}/customization`, { token: s.token })
        assert.strictEqual(read.status, 200, JSON.stringify(read.body))
        const body = read.body as Record<string, unknown>
        assert.strictEqual(body["title"], "Stored Title")
        // The fields that no longer decode read as GitBook's defaults, beside what still does.
        const styling = body["styling"] as { primaryColor?: unknown; font?: unknown; monospaceFont?: unknown }
        assert.deepStrictEqual(styling.primaryColor, { light: "#abcdef", dark: "#fedcba" })
        assert.deepStrictEqual([styling.font, styling.monospaceFont], ["Inter", "IBMPlexMono"])
        assert.deepStrictEqual(body["pageActions"], { items: ["markdown", "mcp"] })
        assert.deepStrictEqual(body["themes"], { default: "system", toggeable: true })
        for (const url of [`/~sites/${s.siteId}/`, `/~sites/${s.siteId}/install`, `/~sites/${s.siteId}/llms.txt`]) {
          const page = yield* get(url)
          assert.strictEqual(page.status, 200, url)
        }
        const home = yield* get(`/~sites/${s.siteId}/`)
        assert.include(home.text, "Stored Title")
        assert.include(home.text, "#abcdef")
        const site = yield* raw("GET", `/v1/orgs/${s.organizationId}/sites/${s.siteId}`, { token: s.token })
        assert.strictEqual(site.status, 200)
      }))
  })
}
