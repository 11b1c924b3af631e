/** The translations operations through the real router and the typed client, on every backend. */
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { backends, type Client, errorCode, errorMessage, newUser, publicUrl, raw, spaceWith } from "./Harness.ts"

const instructions = (text: string) => ({
  object: "document" as const,
  data: { schemaVersion: 1 },
  nodes: [{ object: "block", type: "paragraph", data: {}, nodes: [{ object: "text", leaves: [{ object: "leaf", text, marks: [] }] }] }]
})

const statuses = ["pending", "running", "completed"]

/** The translation once its run finished (completed or failed), polled through the API. */
export const settled = Effect.fnUntraced(function*(api: Client, organizationId: string, translationId: string) {
  for (let i = 0; i < 300; i++) {
    const t = yield* api.translations.getTranslation({ params: { organizationId, translationId } })
    if (t.status === "completed") return t
    yield* Effect.sleep("100 millis")
  }
  return assert.fail(`translation ${translationId} did not settle`)
})

for (const backend of backends) {
  layer(backend.layer, { timeout: 180_000, excludeTestServices: true })(`translations API on ${backend.name}`, (it) => {
    it.effect("creates, lists, gets, updates and deletes translations", () =>
      Effect.gen(function*() {
        const { alice, organizationId, space } = yield* spaceWith()
        const api = alice.api
        const created = yield* api.translations.createTranslation({
          params: { organizationId },
          payload: { source: { space: space.id, language: "en" }, language: "fr", instructions: instructions("Use a formal tone.") }
        })
        assert.strictEqual(created.object, "translation")
        assert.include(statuses, created.status)
        assert.deepStrictEqual(created.source, { space: space.id, language: "en" })
        assert.strictEqual(created.language, "fr")
        assert.deepStrictEqual(created.instructions, instructions("Use a formal tone."))
        assert.deepStrictEqual(created.permissions, { view: true, edit: true })
        assert.strictEqual(created.urls.location, `${publicUrl}/v1/orgs/${organizationId}/translations/${created.id}`)
        assert.strictEqual(created.stats.runs >= 0, true)
        assert.deepStrictEqual(Object.keys(created.stats).toSorted(), ["latestPages", "latestRunDuration", "latestWords", "runs", "totalDuration", "totalPages", "totalWords"])
        assert.isTrue(Date.parse(created.createdAt) > 0)

        // The result space is a new space of the organization, in the target language.
        const spaces = yield* api.spaces.listSpacesInOrganizationById({ params: { organizationId }, query: {} })
        const result = spaces.items.find((s) => s.id !== space.id)
        assert.isDefined(result)
        assert.strictEqual(result!.title, "Docs (fr)")

        const bare = yield* raw("POST", `/v1/orgs/${organizationId}/translations`, {
          token: alice.token,
          body: JSON.stringify({ source: { space: space.id, language: "en" }, language: "de" })
        })
        assert.strictEqual(bare.status, 201)
        assert.deepStrictEqual((bare.body as { instructions: unknown }).instructions, { object: "document", data: {}, nodes: [] })

        const params = { organizationId, translationId: created.id }
        const got = yield* api.translations.getTranslation({ params })
        assert.strictEqual(got.id, created.id)
        assert.strictEqual(got.language, "fr")

        const listed = yield* api.translations.listTranslations({ params: { organizationId }, query: {} })
        assert.strictEqual(listed.count, 2)
        assert.deepStrictEqual(listed.items.map((t) => t.language), ["fr", "de"])
        const firstPage = yield* api.translations.listTranslations({ params: { organizationId }, query: { limit: 1 } })
        assert.strictEqual(firstPage.count, 1)
        assert.isDefined(firstPage.next)
        const secondPage = yield* api.translations.listTranslations({ params: { organizationId }, query: { limit: 1, page: firstPage.next!.page } })
        assert.deepStrictEqual(secondPage.items.map((t) => t.language), ["de"])
        assert.isUndefined(secondPage.next)

        const updated = yield* api.translations.updateTranslation({ params, payload: { instructions: instructions("Keep product names in English.") } })
        assert.deepStrictEqual(updated.instructions, instructions("Keep product names in English."))
        assert.deepStrictEqual((yield* api.translations.getTranslation({ params })).instructions, instructions("Keep product names in English."))

        const deleted = yield* raw("DELETE", `/v1/orgs/${organizationId}/translations/${created.id}`, { token: alice.token })
        assert.strictEqual(deleted.status, 204)
        const again = yield* raw("DELETE", `/v1/orgs/${organizationId}/translations/${created.id}`, { token: alice.token })
        assert.strictEqual(again.status, 204)
        const gone = yield* Effect.flip(api.translations.getTranslation({ params }))
        assert.strictEqual(errorCode(gone), 404)
        assert.strictEqual((yield* api.translations.listTranslations({ params: { organizationId }, query: {} })).count, 1)
        // The result space stays.
        assert.isDefined((yield* api.spaces.listSpacesInOrganizationById({ params: { organizationId }, query: {} })).items.find((s) => s.id === result!.id))
      }))

    it.effect("with no provider configured, a run fails with a clear reason and writes nothing", () =>
      Effect.gen(function*() {
        const { alice, organizationId, space } = yield* spaceWith()
        const created = yield* alice.api.translations.createTranslation({
          params: { organizationId },
          payload: { source: { space: space.id, language: "en" }, language: "es" }
        })
        const done = yield* settled(alice.api, organizationId, created.id)
        assert.strictEqual(done.status, "completed")
        assert.include(done.failure ?? "", "No translation provider is configured")
        assert.include(done.failure ?? "", "QUIRE_TRANSLATE_URL")
        assert.isUndefined(done.result)
        assert.strictEqual(done.stats.runs, 1)
        assert.strictEqual(done.stats.latestPages, 0)
        assert.strictEqual(done.stats.totalWords, 0)
        // The screen asks beforehand, and names the setting instead of letting runs fail unexplained.
        const provider = yield* alice.api.translations.getTranslationsProvider({ params: { organizationId } })
        assert.deepStrictEqual(provider, { object: "translations-provider", configured: false, setting: "QUIRE_TRANSLATE_URL", message: done.failure! })
      }))

    it.effect("tells members, and only them, whether a provider is configured", () =>
      Effect.gen(function*() {
        const { organizationId, members } = yield* spaceWith(["read"])
        const seen = yield* members.read!.api.translations.getTranslationsProvider({ params: { organizationId } })
        assert.strictEqual(seen.configured, false)
        assert.strictEqual(seen.setting, "QUIRE_TRANSLATE_URL")
        const outsider = yield* newUser("Mallory")
        assert.strictEqual(errorCode(yield* Effect.flip(outsider.api.translations.getTranslationsProvider({ params: { organizationId } }))), 404)
        assert.strictEqual((yield* raw("GET", `/v1/orgs/${organizationId}/translations-provider`, {})).status, 401)
      }))

    it.effect("refuses invalid input with a 400 naming the field", () =>
      Effect.gen(function*() {
        const { alice, organizationId, space } = yield* spaceWith()
        const other = yield* spaceWith()
        const path = `/v1/orgs/${organizationId}/translations`
        const post = (body: unknown) => raw("POST", path, { token: alice.token, body: JSON.stringify(body) })
        const cases: ReadonlyArray<readonly [unknown, string]> = [
          [{ source: { space: space.id, language: "en" }, language: "klingon" }, "language"],
          [{ source: { space: space.id, language: "en" } }, "language"],
          [{ language: "fr" }, "source"],
          [{ source: { space: space.id, language: "xx" }, language: "fr" }, "language"],
          [{ source: { space: other.space.id, language: "en" }, language: "fr" }, "source.space"],
          [{ source: { space: "nope", language: "en" }, language: "fr" }, "source.space"],
          [{ source: { space: space.id, language: "en" }, language: "en" }, "language"],
          [{ source: { space: space.id, language: "en" }, language: "fr", instructions: { object: "block", data: {}, nodes: [] } }, "instructions"],
          [{ source: { space: space.id, language: "en" }, language: "fr", instructions: { object: "document", data: {}, nodes: [{ object: "text" }] } }, "instructions.nodes[0]"],
          [{
            source: { space: space.id, language: "en" },
            language: "fr",
            instructions: { object: "document", data: {}, nodes: [{ object: "block", type: "paragraph", nodes: [{ object: "leaf" }] }] }
          }, "instructions.nodes[0].nodes[0]"]
        ]
        for (const [body, field] of cases) {
          const answer = yield* post(body)
          assert.strictEqual(answer.status, 400, JSON.stringify(body))
          assert.include(errorMessage(answer.body), field, JSON.stringify(body))
        }
        const created = yield* alice.api.translations.createTranslation({
          params: { organizationId },
          payload: { source: { space: space.id, language: "en" }, language: "fr" }
        })
        const put = (body: unknown) => raw("PUT", `${path}/${created.id}`, { token: alice.token, body: JSON.stringify(body) })
        const missing = yield* put({})
        assert.strictEqual(missing.status, 400)
        assert.include(errorMessage(missing.body), "instructions")
        const badVersion = yield* put({ instructions: { object: "document", data: { schemaVersion: "one" }, nodes: [] } })
        assert.strictEqual(badVersion.status, 400)
        assert.include(errorMessage(badVersion.body), "instructions.data.schemaVersion")
        // Instructions are bounded: they go into every request to the provider.
        const long = yield* put({ instructions: instructions("x".repeat(4001)) })
        assert.strictEqual(long.status, 400)
        assert.include(errorMessage(long.body), "instructions")
        assert.include(errorMessage(long.body), "4000 characters")
        const longCreate = yield* post({ source: { space: space.id, language: "en" }, language: "de", instructions: instructions("y".repeat(4001)) })
        assert.strictEqual(longCreate.status, 400)
        assert.include(errorMessage(longCreate.body), "4000 characters")
        assert.strictEqual((yield* put({ instructions: instructions("z".repeat(4000)) })).status, 200)
        assert.strictEqual((yield* raw("POST", path, { token: alice.token, body: "{" })).status, 400)
      }))

    it.effect("lets members read, only admins change, and hides translations from outsiders", () =>
      Effect.gen(function*() {
        const { alice, organizationId, space, members } = yield* spaceWith(["edit", "read"])
        const created = yield* alice.api.translations.createTranslation({
          params: { organizationId },
          payload: { source: { space: space.id, language: "en" }, language: "ja" }
        })
        const params = { organizationId, translationId: created.id }
        for (const member of [members.edit!, members.read!]) {
          const seen = yield* member.api.translations.getTranslation({ params })
          assert.deepStrictEqual(seen.permissions, { view: true, edit: false })
          assert.strictEqual((yield* member.api.translations.listTranslations({ params: { organizationId }, query: {} })).count, 1)
          const create = yield* Effect.flip(member.api.translations.createTranslation({
            params: { organizationId },
            payload: { source: { space: space.id, language: "en" }, language: "ko" }
          }))
          assert.strictEqual(errorCode(create), 403)
          assert.strictEqual(errorCode(yield* Effect.flip(member.api.translations.updateTranslation({ params, payload: { instructions: instructions("x") } }))), 403)
          assert.strictEqual(errorCode(yield* Effect.flip(member.api.translations.deleteTranslation({ params }))), 403)
          assert.strictEqual(errorCode(yield* Effect.flip(member.api.translations.runTranslation({ params }))), 403)
        }
        const outsider = yield* newUser("Mallory")
        assert.strictEqual(errorCode(yield* Effect.flip(outsider.api.translations.getTranslation({ params }))), 404)
        assert.strictEqual(errorCode(yield* Effect.flip(outsider.api.translations.listTranslations({ params: { organizationId }, query: {} }))), 404)
        assert.strictEqual(errorCode(yield* Effect.flip(outsider.api.translations.updateTranslation({ params, payload: { instructions: instructions("x") } }))), 404)
        assert.strictEqual(errorCode(yield* Effect.flip(outsider.api.translations.runTranslation({ params }))), 404)
        const create = yield* Effect.flip(outsider.api.translations.createTranslation({
          params: { organizationId },
          payload: { source: { space: space.id, language: "en" }, language: "ko" }
        }))
        assert.strictEqual(errorCode(create), 404)
        assert.strictEqual((yield* raw("DELETE", `/v1/orgs/${organizationId}/translations/${created.id}`, { token: outsider.token })).status, 204)
        assert.strictEqual((yield* alice.api.translations.getTranslation({ params })).id, created.id)
        // Another organization's id does not reach this translation.
        const elsewhere = yield* spaceWith()
        const crossed = yield* Effect.flip(elsewhere.alice.api.translations.getTranslation({ params: { organizationId: elsewhere.organizationId, translationId: created.id } }))
        assert.strictEqual(errorCode(crossed), 404)
        assert.strictEqual(errorCode(yield* Effect.flip(alice.api.translations.getTranslation({ params: { organizationId, translationId: "unknown" } }))), 404)
      }))
  })
}
