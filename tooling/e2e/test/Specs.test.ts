/**
 * `quire specs` and `quire translations` against a real server (memory backend): jobs queued,
 * waited for with `--wait`, their failures told with the job's own error and exit status 1.
 */
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import * as nodePath from "node:path"
import { OpenAPISpec, OpenAPISpecVersion, Schemas, Translation } from "@quire/api"
import { memory, organizationWith, spaceWith } from "@quire/server/test/Harness"
import { decodeJson, folder, lines, quireAs, rowWith } from "./Quire.ts"

const petstore = (version: string) =>
  JSON.stringify({
    openapi: "3.0.3",
    info: { title: "Petstore", version },
    paths: { "/pets": { get: { operationId: "listPets", responses: { "200": { description: "The pets" } } } } }
  })

layer(memory.layer, { timeout: 120_000, excludeTestServices: true })("quire specs and translations on a memory server", (it) => {
  it.effect("specs add --file --wait, update --wait, versions, list, get and rm; a broken spec fails with its errors", () =>
    Effect.gen(function*() {
      const { alice, members, organizationId } = yield* organizationWith(["read"])
      const as = quireAs(alice.token)
      const dir = yield* folder({ "v1.json": petstore("1.0.0"), "v2.json": petstore("2.0.0"), "broken.yaml": "openapi: [3.0\n  : {" })

      const added = yield* as("specs", "add", organizationId, "petstore", "--file", nodePath.join(dir, "v1.json"), "--wait")
      assert.strictEqual(added.status, 0, added.stderr)
      assert.match(added.stdout, /^slug:\s+petstore$/m)
      assert.match(added.stdout, /^state:\s+complete$/m)
      assert.match(added.stdout, /^last version:\s+\S+$/m)
      // Not a terminal: no progress lines.
      assert.strictEqual(added.stderr, "")

      const updated = yield* as("specs", "update", organizationId, "petstore", "--file", nodePath.join(dir, "v2.json"), "--wait", "--json").pipe(
        Effect.flatMap(decodeJson(OpenAPISpec))
      )
      assert.strictEqual(updated.processingState, "complete")
      assert.isUndefined(updated.lastProcessErrorCode)
      const queued = yield* as("specs", "add", organizationId, "queued", "--file", nodePath.join(dir, "v1.json"), "--json").pipe(
        Effect.flatMap(decodeJson(OpenAPISpec))
      )
      assert.strictEqual(queued.slug, "queued")

      const versions = yield* as("specs", "versions", organizationId, "petstore")
      assert.strictEqual(versions.status, 0, versions.stderr)
      assert.match(lines(versions.stdout)[0]!, /^ID\s+CREATED\s+URL$/)
      const versionsJson = yield* as("specs", "versions", organizationId, "petstore", "--json").pipe(
        Effect.flatMap(decodeJson(Schemas.ListOf(OpenAPISpecVersion)))
      )
      assert.strictEqual(versionsJson.items.length, 2)
      assert.include(versions.stdout, versionsJson.items[0]!.id)

      const table = yield* as("specs", "list", organizationId)
      assert.match(lines(table.stdout)[0]!, /^SLUG\s+STATE\s+VISIBILITY\s+UPDATED\s+SOURCE$/)
      assert.match(rowWith(table.stdout, "petstore"), /^petstore\s+complete\s+private\s+/)
      const listed = yield* as("specs", "list", organizationId, "--json").pipe(Effect.flatMap(decodeJson(Schemas.ListOf(OpenAPISpec))))
      assert.sameMembers(listed.items.map((spec) => spec.slug), ["petstore", "queued"])

      const broken = yield* as("specs", "add", organizationId, "broken", "--file", nodePath.join(dir, "broken.yaml"), "--wait")
      assert.strictEqual(broken.status, 1)
      assert.match(broken.stderr, /^quire: Processing of spec broken failed: PARSE_ERROR/)
      const shown = yield* as("specs", "get", organizationId, "broken")
      assert.match(shown.stdout, /^state:\s+failed \(PARSE_ERROR\)$/m)

      const noSource = yield* as("specs", "add", organizationId, "none")
      assert.strictEqual(noSource.status, 1)
      assert.include(noSource.stderr, "--url URL or --file FILE")
      const reader = quireAs(members.read!.token)
      const refused = yield* reader("specs", "add", organizationId, "mine", "--file", nodePath.join(dir, "v1.json"))
      assert.strictEqual(refused.status, 1)
      assert.match(refused.stderr, /^quire: .+$/)

      const removed = yield* as("specs", "rm", organizationId, "petstore")
      assert.strictEqual(removed.status, 0, removed.stderr)
      assert.strictEqual((yield* as("specs", "get", organizationId, "petstore")).status, 1)
    }))

  it.effect("translations create, status, list, run --wait and rm; a failed run exits 1 with its own error", () =>
    Effect.gen(function*() {
      const { alice, members, organizationId, space } = yield* spaceWith(["read"])
      const as = quireAs(alice.token)

      // The test server has no translation provider: every run fails, and says why.
      const created = yield* as("translations", "create", organizationId, space.id, "en", "fr")
      assert.strictEqual(created.status, 0, created.stderr)
      assert.match(created.stdout, /^language:\s+fr$/m)
      assert.include(created.stdout, "queued")
      const json = yield* as("translations", "create", organizationId, space.id, "en", "de", "--json").pipe(
        Effect.flatMap(decodeJson(Translation))
      )
      assert.strictEqual(json.language, "de")

      const waited = yield* as("translations", "run", organizationId, json.id, "--wait", "--timeout", "60")
      assert.strictEqual(waited.status, 1)
      assert.match(waited.stderr, /^quire: The translation run of \S+ failed: No translation provider is configured/)

      const status = yield* as("translations", "status", organizationId, json.id)
      assert.strictEqual(status.status, 0, status.stderr)
      assert.match(status.stdout, /^status:\s+failed$/m)
      assert.match(status.stdout, /^failure:\s+No translation provider/m)
      const statusJson = yield* as("translations", "status", organizationId, json.id, "--json").pipe(Effect.flatMap(decodeJson(Translation)))
      // The JSON is GitBook's: a run that failed is completed, with why in `failure`.
      assert.strictEqual(statusJson.status, "completed")
      assert.include(String((statusJson as { failure?: string }).failure), "No translation provider")

      const table = yield* as("translations", "list", organizationId)
      assert.match(lines(table.stdout)[0]!, /^ID\s+SOURCE\s+LANGUAGE\s+STATUS\s+RESULT\s+RUNS$/)
      assert.match(rowWith(table.stdout, json.id), new RegExp(`${space.id} \\(en\\)\\s+de\\s+`))
      const listed = yield* as("translations", "list", organizationId, "--json").pipe(
        Effect.flatMap(decodeJson(Schemas.ListOf(Translation)))
      )
      assert.sameMembers(listed.items.map((t) => t.language), ["fr", "de"])

      const badLanguage = yield* as("translations", "create", organizationId, space.id, "en", "klingon")
      assert.strictEqual(badLanguage.status, 2)
      const reader = quireAs(members.read!.token)
      const refused = yield* reader("translations", "run", organizationId, json.id)
      assert.strictEqual(refused.status, 1)

      const removed = yield* as("translations", "rm", organizationId, json.id)
      assert.strictEqual(removed.status, 0, removed.stderr)
      assert.strictEqual((yield* as("translations", "status", organizationId, json.id)).status, 1)
    }))
})
