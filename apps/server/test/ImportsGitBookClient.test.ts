/** GitBook's own client (`@gitbook/api`) pointed at Quire's imports operations. */
import { assert, layer } from "@effect/vitest"
import { GitBookAPI } from "@gitbook/api"
import { Effect } from "effect"
import { adminToken, backends, baseUrl } from "./Harness.ts"

interface ImportRun {
  readonly object: string
  readonly id: string
  readonly status: string
  readonly pages?: ReadonlyArray<{ readonly id: string; readonly type: string; readonly status: string }>
  readonly urls: { readonly location: string }
}
type Reply<A> = Promise<{ data: A; status: number }>

/** The part of GitBook's client this test uses (its published typings cannot be followed under NodeNext). */
interface GitBookClient {
  readonly orgs: {
    createOrganization(body: { title: string }): Reply<{ id: string }>
    createSpace(organizationId: string, body: { title: string }): Reply<{ id: string }>
  }
  readonly org: {
    startImportRun(organizationId: string, body: { source: { type: "file"; files: Array<string> }; target: { space: string } }): Reply<ImportRun>
    listImportRuns(organizationId: string, query?: { space?: string; status?: string; limit?: number }): Reply<{ items: Array<ImportRun> }>
    getImportRun(organizationId: string, importRunId: string): Reply<ImportRun>
    cancelImportRun(organizationId: string, importRunId: string): Reply<ImportRun>
  }
}

for (const backend of backends) {
  layer(backend.layer, { timeout: 120_000, excludeTestServices: true })(`@gitbook/api imports on ${backend.name}`, (it) => {
    it.effect("starts, lists, gets and cancels an import run", () =>
      Effect.gen(function*() {
        const endpoint = yield* baseUrl
        const gitbook = new GitBookAPI({ endpoint, authToken: adminToken }) as unknown as GitBookClient
        const result = yield* Effect.promise(async () => {
          const { data: org } = await gitbook.orgs.createOrganization({ title: "Compat Imports" })
          const { data: space } = await gitbook.orgs.createSpace(org.id, { title: "Handbook" })
          const uploaded = await fetch(`${endpoint}/v1/org/${org.id}/imports/files?name=guide.md`, {
            method: "POST",
            headers: { authorization: `Bearer ${adminToken}`, "content-type": "text/markdown" },
            body: "# Guide\n\nHello.\n"
          }).then((r) => r.json() as Promise<{ key: string }>)
          const started = await gitbook.org.startImportRun(org.id, { source: { type: "file", files: [uploaded.key] }, target: { space: space.id } })
          let got = (await gitbook.org.getImportRun(org.id, started.data.id)).data
          for (let i = 0; i < 300 && (got.status === "pending" || got.status === "in-progress"); i++) {
            await new Promise((resolve) => setTimeout(resolve, 100))
            got = (await gitbook.org.getImportRun(org.id, started.data.id)).data
          }
          const { data: listed } = await gitbook.org.listImportRuns(org.id, { space: space.id, limit: 10 })
          const cancel = await gitbook.org.cancelImportRun(org.id, started.data.id).then(() => "cancelled", (error: Error) => error.message)
          return { started, got, listed, cancel }
        })
        assert.strictEqual(result.started.status, 201)
        assert.strictEqual(result.started.data.object, "import-run")
        assert.strictEqual(result.got.status, "completed")
        assert.strictEqual(result.got.pages?.length, 1)
        assert.deepStrictEqual(result.listed.items.map((r) => r.id), [result.started.data.id])
        assert.include(result.got.urls.location, `/imports/${result.started.data.id}`)
        assert.notStrictEqual(result.cancel, "cancelled")
      }))
  })
}
