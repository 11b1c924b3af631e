/**
 * GitBook's translation glossary (issue 61): GitBook's client calls every operation; members read
 * it, admins change it, outsiders learn nothing; bad batches are 400s naming the field and change
 * nothing; and a translation run translates a glossary term as the glossary says, against a fake
 * OpenAI-compatible provider on loopback that upper-cases what it is sent.
 */
import { assert, layer } from "@effect/vitest"
import { GitBookAPI } from "@gitbook/api"
import { Effect } from "effect"
import * as http from "node:http"
import type { AddressInfo } from "node:net"
import { baseUrl, type Client, errorCode, errorMessage, memoryAndPostgres, newUser, raw, spaceWith, withSettings } from "./Harness.ts"

type Reply<A> = Promise<{ data: A; status: number }>
interface Entry {
  readonly object: string
  readonly id: string
  readonly translations: Record<string, string>
  readonly createdAt: string
  readonly urls: { readonly location: string }
}
type Operation =
  | { type: "insert"; translations: Record<string, string> }
  | { type: "update"; id: string; translations: Record<string, string> }
  | { type: "delete"; id: string }

/** The part of GitBook's client this test uses (its published typings cannot be followed under NodeNext). */
interface GitBookClient {
  readonly orgs: {
    listGlossaryEntries(organizationId: string, query?: { orderBy?: string; limit?: number }): Reply<{ items: Array<Entry>; next?: { page: string } }>
    updateGlossaryEntries(organizationId: string, body: { operations: Array<Operation> }): Reply<unknown>
    getGlossaryEntry(organizationId: string, entryId: string): Reply<Entry>
  }
}

const sent: Array<string> = []
const provider = http.createServer((request, response) => {
  let body = ""
  request.on("data", (chunk: Buffer) => (body += chunk.toString()))
  request.on("end", () => {
    const parsed = JSON.parse(body) as { messages: Array<{ content: string }> }
    const segments = JSON.parse(parsed.messages[1]!.content) as Array<string>
    sent.push(parsed.messages[0]!.content, ...segments)
    response.writeHead(200, { "content-type": "application/json" })
    response.end(JSON.stringify({ choices: [{ message: { role: "assistant", content: JSON.stringify(segments.map((s) => s.toUpperCase())) } }] }))
  })
})
await new Promise<void>((resolve) => provider.listen(0, "127.0.0.1", resolve))
const settings = {
  QUIRE_TRANSLATE_URL: `http://127.0.0.1:${(provider.address() as AddressInfo).port}/v1`,
  QUIRE_TRANSLATE_MODEL: "fake-model",
  QUIRE_TRANSLATE_DEBOUNCE_MS: 100
}

const glossaryPath = (organizationId: string) => `/v1/orgs/${organizationId}/translations-glossary`

const settled = Effect.fnUntraced(function*(api: Client, organizationId: string, translationId: string) {
  for (let i = 0; i < 300; i++) {
    const t = yield* api.translations.getTranslation({ params: { organizationId, translationId } })
    if (t.stats.runs > 0 && t.status === "completed") return t
    yield* Effect.sleep("100 millis")
  }
  return assert.fail("the translation did not finish")
})

for (const backend of memoryAndPostgres) {
  layer(withSettings(backend.layer, settings), { timeout: 240_000, excludeTestServices: true })(`translation glossary on ${backend.name}`, (it) => {
    it.effect("GitBook's client inserts, lists (ordered by a language), reads, updates and deletes entries", () =>
      Effect.gen(function*() {
        const { alice, organizationId } = yield* spaceWith()
        const gitbook = new GitBookAPI({ endpoint: yield* baseUrl, authToken: alice.token }) as unknown as GitBookClient
        const r = yield* Effect.promise(async () => {
          const { orgs } = gitbook
          const inserted = await orgs.updateGlossaryEntries(organizationId, {
            operations: [
              { type: "insert", translations: { en: "Workspace", fr: "Espace de travail" } },
              { type: "insert", translations: { en: "Admin", fr: "Administrateur", de: "Verwalter" } }
            ]
          })
          const listed = (await orgs.listGlossaryEntries(organizationId)).data
          const byEnglish = (await orgs.listGlossaryEntries(organizationId, { orderBy: "en" })).data
          const first = (await orgs.listGlossaryEntries(organizationId, { limit: 1 })).data
          const workspace = listed.items.find((e) => e.translations["en"] === "Workspace")!
          const got = (await orgs.getGlossaryEntry(organizationId, workspace.id)).data
          await orgs.updateGlossaryEntries(organizationId, {
            operations: [{ type: "update", id: workspace.id, translations: { en: "Workspace", fr: "Espace" } }]
          })
          const updated = (await orgs.getGlossaryEntry(organizationId, workspace.id)).data
          const admin = listed.items.find((e) => e.translations["en"] === "Admin")!
          await orgs.updateGlossaryEntries(organizationId, { operations: [{ type: "delete", id: admin.id }] })
          const after = (await orgs.listGlossaryEntries(organizationId)).data
          return { inserted, listed, byEnglish, first, got, updated, after, workspace }
        })
        assert.strictEqual(r.inserted.status, 204)
        assert.strictEqual(r.listed.items.length, 2)
        assert.deepStrictEqual(r.byEnglish.items.map((e) => e.translations["en"]), ["Admin", "Workspace"])
        assert.strictEqual(r.first.items.length, 1)
        assert.isDefined(r.first.next)
        assert.strictEqual(r.got.object, "glossary-entry")
        assert.deepStrictEqual(r.got.translations, { en: "Workspace", fr: "Espace de travail" })
        assert.match(r.got.urls.location, new RegExp(`/v1/orgs/${organizationId}/translations-glossary/${r.workspace.id}$`))
        assert.deepStrictEqual(r.updated.translations, { en: "Workspace", fr: "Espace" })
        assert.deepStrictEqual(r.after.items.map((e) => e.id), [r.workspace.id])
      }))

    it.effect("members read, only admins change; an outsider gets 404 and changes nothing", () =>
      Effect.gen(function*() {
        const { alice, organizationId, members } = yield* spaceWith(["read", "edit"])
        yield* alice.api.translationsGlossary.updateGlossaryEntries({
          params: { organizationId },
          payload: { operations: [{ type: "insert", translations: { en: "Space", es: "Espacio" } }] }
        })
        const reader = members.read!.api
        const listed = yield* reader.translationsGlossary.listGlossaryEntries({ params: { organizationId }, query: {} })
        assert.strictEqual(listed.items.length, 1)
        const entryId = listed.items[0]!.id
        const insert = { operations: [{ type: "insert" as const, translations: { en: "Page", es: "Página" } }] }
        const byEditor = yield* members.edit!.api.translationsGlossary.updateGlossaryEntries({ params: { organizationId }, payload: insert }).pipe(Effect.flip)
        assert.strictEqual(errorCode(byEditor), 403)
        const outsider = yield* newUser("Mallory")
        for (const attempt of [
          outsider.api.translationsGlossary.listGlossaryEntries({ params: { organizationId }, query: {} }),
          outsider.api.translationsGlossary.getGlossaryEntry({ params: { organizationId, glossaryEntryId: entryId } }),
          outsider.api.translationsGlossary.updateGlossaryEntries({ params: { organizationId }, payload: { operations: [{ type: "delete", id: entryId }] } })
        ]) {
          assert.strictEqual(errorCode(yield* Effect.flip(attempt)), 404)
        }
        // Another organization's entry is not found under the outsider's own organization either.
        const own = yield* outsider.api.organizations.createOrganization({ payload: { title: "Elsewhere" } })
        const cross = yield* outsider.api.translationsGlossary.getGlossaryEntry({ params: { organizationId: own.id, glossaryEntryId: entryId } }).pipe(Effect.flip)
        assert.strictEqual(errorCode(cross), 404)
        const crossDelete = yield* outsider.api.translationsGlossary.updateGlossaryEntries({
          params: { organizationId: own.id },
          payload: { operations: [{ type: "delete", id: entryId }] }
        }).pipe(Effect.flip)
        assert.strictEqual(errorCode(crossDelete), 400)
        const still = yield* alice.api.translationsGlossary.listGlossaryEntries({ params: { organizationId }, query: {} })
        assert.deepStrictEqual(still.items.map((e) => e.translations), [{ en: "Space", es: "Espacio" }])
      }))

    it.effect("a bad batch is a 400 naming the field, and none of it applies", () =>
      Effect.gen(function*() {
        const { alice, organizationId } = yield* spaceWith()
        const put = (body: unknown) => raw("PUT", glossaryPath(organizationId), { token: alice.token, body: JSON.stringify(body) })
        const cases: Array<[unknown, string]> = [
          [{ operations: [{ type: "insert", translations: { en: "Ok" } }, { type: "insert", translations: { klingon: "Qapla" } }] }, "operations[1].translations.klingon"],
          [{ operations: [{ type: "insert", translations: {} }] }, "operations[0].translations"],
          [{ operations: [{ type: "insert", translations: { en: "two\nlines" } }] }, "operations"],
          [{ operations: [{ type: "insert", translations: { en: "x".repeat(256) } }] }, "operations"],
          [{ operations: [{ type: "insert", translations: { en: "Ok" } }, { type: "update", id: "nope", translations: { en: "x" } }] }, "operations[1].id"],
          [{ operations: [{ type: "rename", id: "x" }] }, "operations"],
          [{}, "operations"]
        ]
        for (const [body, field] of cases) {
          const answer = yield* put(body)
          assert.strictEqual(answer.status, 400, JSON.stringify(body))
          assert.include(errorMessage(answer.body), field, JSON.stringify(answer.body))
        }
        const listed = yield* alice.api.translationsGlossary.listGlossaryEntries({ params: { organizationId }, query: {} })
        assert.strictEqual(listed.items.length, 0)
        const badOrder = yield* raw("GET", `${glossaryPath(organizationId)}?orderBy=xx`, { token: alice.token })
        assert.strictEqual(badOrder.status, 400)
        assert.include(errorMessage(badOrder.body), "orderBy")
      }))

    it.effect("a translation run translates a glossary term as the glossary says", () =>
      Effect.gen(function*() {
        const { alice, organizationId, space } = yield* spaceWith()
        const api = alice.api
        yield* api.translationsGlossary.updateGlossaryEntries({
          params: { organizationId },
          payload: { operations: [{ type: "insert", translations: { en: "Workspace", fr: "Espace de travail" } }] }
        })
        const cr = yield* api.changeRequests.createChangeRequest({ params: { spaceId: space.id }, payload: { subject: "Edit" } })
        yield* api.changeRequestContent.updateChangeRequestContent({
          params: { spaceId: space.id, changeRequestId: cr.id },
          payload: { changes: [{ operation: "insert_page", title: "Your workspace", document: { markdown: "Open the Workspace settings.\n" } }] }
        })
        yield* api.changeRequests.mergeChangeRequest({ params: { spaceId: space.id, changeRequestId: cr.id } })
        const from = sent.length
        const created = yield* api.translations.createTranslation({ params: { organizationId }, payload: { source: { space: space.id, language: "en" }, language: "fr" } })
        const done = yield* settled(api, organizationId, created.id)
        assert.strictEqual(done.status, "completed", done.failure)
        const resultSpace = done.result!.space
        const revision = yield* api.spaceContent.getCurrentRevision({ params: { spaceId: resultSpace }, query: {} })
        const page = revision.pages[0]!
        assert.strictEqual(page.title, "YOUR Espace de travail")
        const body = yield* api.spaceContent.getPageById({ params: { spaceId: resultSpace, pageId: page.id }, query: { format: "markdown" } })
        const markdown = (body as { markdown?: string }).markdown ?? ""
        assert.include(markdown, "OPEN THE Espace de travail SETTINGS.")
        // The provider never saw the term, and was told to keep its placeholder.
        const seen = sent.slice(from).join("\n")
        assert.notInclude(seen.toLowerCase(), "workspace")
        assert.include(seen, "glossary")
      }))
  })
}
