/**
 * Ask's retrieval on GitBook's public docs (AskRetrieval.ts): the answering page is among the
 * sources passed to the model for at least 9 questions in 10. Skipped only when the repository's
 * mirror is not on this machine. With `QUIRE_ASK_RETRIEVAL_REPORT` set, writes the figure there
 * as JSON (`pnpm bench --ask-retrieval`). `QUIRE_ASK_RETRIEVAL_QUESTIONS` asks only the first
 * that many questions, over their answering pages and the first 40 others (the bench's smoke).
 */
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { writeFileSync } from "node:fs"
import http from "node:http"
import type { AddressInfo } from "node:net"
import { documentationPages, mirrorPresent, questions, reportOf, sourceTitles } from "./AskRetrieval.ts"
import { backends, organizationWith, withSettings } from "./Harness.ts"
import { get, write } from "./SiteFixtures.ts"

const limit = Number(process.env["QUIRE_ASK_RETRIEVAL_QUESTIONS"] ?? "")
const asked = limit > 0 ? questions.slice(0, limit) : questions
/** Every page, or with fewer questions asked, their answering pages among the first 40 others. */
const smokePages = <P extends { readonly title: string }>(pages: ReadonlyArray<P>): ReadonlyArray<P> =>
  asked === questions ? pages : pages.filter((page, i) => i < 40 || asked.some(([, expected]) => expected === page.title))

/** The fake provider: keeps each prompt and answers citing nothing. */
const prompts: Array<string> = []
const provider = http.createServer((request, response) => {
  let body = ""
  request.on("data", (chunk: Buffer) => (body += chunk.toString()))
  request.on("end", () => {
    const parsed = JSON.parse(body) as { messages: Array<{ role: string; content: string }> }
    prompts.push(parsed.messages.find((m) => m.role === "system")?.content ?? "")
    response.writeHead(200, { "content-type": "application/json" })
    response.end(JSON.stringify({ choices: [{ message: { role: "assistant", content: "Noted." } }] }))
  })
})
await new Promise<void>((resolve) => provider.listen(0, "127.0.0.1", resolve))
const providerUrl = `http://127.0.0.1:${(provider.address() as AddressInfo).port}`

for (const backend of backends) {
  // Twenty questions from one address in a row: Ask's budgets (docs/sites.md, "Limits") are off here.
  layer(withSettings(backend.layer, { QUIRE_AI_URL: providerUrl, QUIRE_ASK_LIMIT: 0, QUIRE_ASK_SITE_LIMIT: 0 }), { timeout: 600_000 })(
    `Ask's retrieval on GitBook's public docs (${backend.name})`,
    (it) => {
      it.effect.skipIf(!mirrorPresent())("passes the answering page to the model for at least 9 questions in 10", () =>
        Effect.gen(function*() {
          const { alice, organizationId } = yield* organizationWith()
          const api = alice.api
          const space = yield* api.spaces.createSpace({ params: { organizationId }, payload: { title: "GitBook Documentation" } })
          const pages = smokePages(documentationPages())
          // One change request per 40 pages: each merge indexes its pages for the search.
          for (let at = 0; at < pages.length; at += 40) {
            yield* write(api, space.id, pages.slice(at, at + 40).map((page) => ({ operation: "insert_page" as const, ...page })))
          }
          const site = yield* api.sites.createSite({ params: { organizationId }, payload: { title: "GitBook", visibility: "public" } })
          const siteParams = { organizationId, siteId: site.id }
          yield* api.siteSpaces.addSpaceToSite({ params: siteParams, payload: { spaceId: space.id } })
          yield* api.sites.updateSiteCustomizationById({ params: siteParams, payload: { ai: { mode: "assistant" } } as never })
          yield* api.sites.publishSite({ params: siteParams })

          const results: Array<{ question: string; expected: string; passed: ReadonlyArray<string> }> = []
          for (const [question, expected] of asked) {
            const before = prompts.length
            const got = yield* get(`/~sites/${site.id}/~ask?q=${encodeURIComponent(question)}`, { accept: "application/json" })
            assert.strictEqual(got.status, 200, got.text)
            results.push({ question, expected, passed: prompts.length > before ? sourceTitles(prompts.at(-1)!) : [] })
          }
          const report = reportOf(results)
          const out = process.env["QUIRE_ASK_RETRIEVAL_REPORT"]
          if (out !== undefined && out !== "") writeFileSync(out, JSON.stringify({ backend: backend.name, ...report }, null, 2))
          assert.isAtLeast(report.rate, 0.9, JSON.stringify(report.misses, null, 2))
        }), 600_000)
    }
  )
}
