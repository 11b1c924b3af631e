/** GitBook's own client (`@gitbook/api`) pointed at Quire's translations operations. */
import { assert, layer } from "@effect/vitest"
import { GitBookAPI } from "@gitbook/api"
import { Effect } from "effect"
import { adminToken, backends, baseUrl } from "./Harness.ts"

interface Translation {
  readonly object: string
  readonly id: string
  readonly status: string
  readonly language: string
  readonly source: { readonly space: string; readonly language: string }
  readonly instructions: unknown
  readonly stats: { readonly runs: number }
}
type Reply<A> = Promise<{ data: A; status: number }>

/** The part of GitBook's client this test uses (its published typings cannot be followed under NodeNext). */
interface GitBookClient {
  readonly orgs: {
    createOrganization(body: { title: string }): Reply<{ id: string }>
    createSpace(organizationId: string, body: { title: string }): Reply<{ id: string }>
    createTranslation(organizationId: string, body: { source: { space: string; language: string }; language: string; instructions?: unknown }): Reply<Translation>
    listTranslations(organizationId: string, query?: { limit?: number }): Reply<{ items: Array<Translation> }>
    getTranslation(organizationId: string, translationId: string): Reply<Translation>
    updateTranslation(organizationId: string, translationId: string, body: { instructions: unknown }): Reply<Translation>
    deleteTranslation(organizationId: string, translationId: string): Reply<unknown>
  }
}

const instructions = { object: "document", data: {}, nodes: [{ object: "block", type: "paragraph", data: {}, nodes: [{ object: "text", leaves: [{ object: "leaf", text: "Be brief.", marks: [] }] }] }] }

for (const backend of backends) {
  layer(backend.layer, { timeout: 120_000, excludeTestServices: true })(`@gitbook/api translations on ${backend.name}`, (it) => {
    it.effect("creates, lists, gets, updates and deletes a translation", () =>
      Effect.gen(function*() {
        const gitbook = new GitBookAPI({ endpoint: yield* baseUrl, authToken: adminToken }) as unknown as GitBookClient
        const result = yield* Effect.promise(async () => {
          const { orgs } = gitbook
          const { data: org } = await orgs.createOrganization({ title: "Compat Translations" })
          const { data: space } = await orgs.createSpace(org.id, { title: "Handbook" })
          const created = await orgs.createTranslation(org.id, { source: { space: space.id, language: "en" }, language: "pt-br" })
          const { data: listed } = await orgs.listTranslations(org.id, { limit: 10 })
          const { data: got } = await orgs.getTranslation(org.id, created.data.id)
          const { data: updated } = await orgs.updateTranslation(org.id, created.data.id, { instructions })
          const deleted = await orgs.deleteTranslation(org.id, created.data.id)
          const missing = await orgs.getTranslation(org.id, created.data.id).then(() => "found", (error: Error) => error.message)
          return { space, created, listed, got, updated, deleted, missing }
        })
        assert.strictEqual(result.created.status, 201)
        assert.strictEqual(result.created.data.object, "translation")
        assert.strictEqual(result.created.data.language, "pt-br")
        assert.deepStrictEqual(result.created.data.source, { space: result.space.id, language: "en" })
        assert.deepStrictEqual(result.listed.items.map((t) => t.id), [result.created.data.id])
        assert.strictEqual(result.got.id, result.created.data.id)
        assert.deepStrictEqual(result.updated.instructions, instructions)
        assert.strictEqual(result.deleted.status, 204)
        assert.notStrictEqual(result.missing, "found")
      }))
  })
}
