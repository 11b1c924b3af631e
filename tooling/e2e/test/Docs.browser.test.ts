/**
 * The API reference at `/docs` as a developer opens it in headless Chromium (Debian's `chromium`,
 * driven by playwright-core; `/` is the browser app's now): the page loads nothing from outside the server (no
 * font, no script, no request the CSP has to refuse), lists the operations with their summaries and
 * offers the bearer token for its test requests; Scalar's check of the document (cast and given its
 * navigation by the server, docs/http.md) warns of nothing. A screenshot lands in `test-output/screenshots/`.
 * Without /usr/bin/chromium the file fails, never skips.
 */
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { baseUrl, memory } from "@quire/server/test/Harness"
import { join } from "node:path"
import { screenshotsWanted } from "@quire/testkit/Chromium"
import { screenshots, useChromium } from "./Chromium.ts"

const chromium = useChromium()

/** URLs a page may load that are not requests to a server: inline data, blobs, the page itself. */
const local = (url: string, base: string) =>
  url.startsWith(`${base}/`) || url === base || /^(data|blob|about):/.test(url)

layer(memory.layer, { timeout: 240_000, excludeTestServices: true })("the API reference in Chromium", (it) => {
  it.effect("/docs loads nothing from elsewhere and offers the bearer token", () =>
    Effect.gen(function*() {
      const base = yield* baseUrl
      yield* Effect.promise(async () => {
        const context = await chromium.browser().newContext({ viewport: { width: 1400, height: 900 } })
        try {
          // Scalar's bundle is 3 MB of script, and a server on the sources makes the document (about 10 s
          // alone) on the first visit: on a 2-core machine running the other suites, past a minute.
          context.setDefaultTimeout(150_000)
          const requests: Array<string> = []
          const problems: Array<string> = []
          context.on("request", (request) => requests.push(request.url()))
          context.on("requestfailed", (request) => problems.push(`failed: ${request.url()} (${request.failure()?.errorText})`))
          context.on("console", (message) => {
            if (message.type() === "error" && !message.location().url.endsWith("/favicon.ico")) problems.push(`console: ${message.text()}`)
            // The document comes cast as Scalar's store casts it, so Scalar's check of it (which it runs either way) warns of nothing.
            if (message.text().includes("document validation errors")) problems.push(`console: ${message.text()}`)
          })
          context.on("weberror", (error) => problems.push(`pageerror: ${error.error().message}`))
          const page = await context.newPage()

          const response = await page.goto(`${base}/docs`, { waitUntil: "domcontentloaded" })
          assert.strictEqual(response?.status(), 200)
          assert.strictEqual(new URL(page.url()).pathname, "/docs")
          assert.strictEqual(await page.title(), "Quire API")

          // Scalar renders the document: operations by their summaries, grouped by tag, and the
          // bearer scheme selected for test requests with its description and a token field.
          await page.getByText("Check the server is up").first().waitFor()
          await page.getByText("Bearer Token").first().waitFor()
          await page.waitForLoadState("networkidle")
          const body = await page.locator("body").innerText()
          assert.notInclude(body, "No authentication selected")
          assert.include(body, "An API token")
          // No developer toolbar: its Share and Generate SDKs send the document to Scalar's services.
          assert.notInclude(body, "Generate SDKs")
          if (screenshotsWanted()) await page.screenshot({ path: join(screenshots, "docs.png") })
          await page.getByText("Spaces", { exact: true }).first().click()
          await page.getByText("Create a space").first().waitFor()
          // The samples of writes carry no empty Idempotency-Key header; the introduction describes the header once.
          const samples = await page.locator("body").innerText()
          assert.match(samples, /curl/)
          assert.notMatch(samples, /Idempotency-Key: *['"\n]/)
          assert.include(samples, "Idempotency-Key")

          const outside = requests.filter((url) => !local(url, base))
          assert.deepStrictEqual(outside, [], "requests outside the server")
          assert.deepStrictEqual(problems, [])
          assert.isTrue(requests.some((url) => url === `${base}/docs`), "the page itself was loaded")
        } finally {
          await context.close()
        }
      })
    }), { timeout: 240_000 })
})
