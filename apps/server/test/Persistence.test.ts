/** The embedded database keeps what the API wrote across a server restart. */
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { adminToken, client, embeddedServerOn } from "./Harness.ts"

const serverOn = embeddedServerOn

describe("embedded storage", () => {
  it.live("keeps organizations and members across a restart", () =>
    Effect.gen(function*() {
      const dataDir = mkdtempSync(join(tmpdir(), "quire-restart-"))
      yield* Effect.addFinalizer(() => Effect.sync(() => rmSync(dataDir, { recursive: true, force: true })))
      const created = yield* Effect.scoped(Effect.gen(function*() {
        const api = yield* client(adminToken)
        const org = yield* api.organizations.createOrganization({ payload: { title: "Survives Restarts" } })
        yield* api.teams.createOrganizationTeam({ params: { organizationId: org.id }, payload: { title: "Writers" } })
        return org
      }).pipe(Effect.provide(serverOn(dataDir))))
      const after = yield* Effect.scoped(Effect.gen(function*() {
        const api = yield* client(adminToken)
        const org = yield* api.organizations.getOrganizationById({ params: { organizationId: created.id } })
        const teams = yield* api.teams.listTeamsInOrganizationById({ params: { organizationId: created.id }, query: {} })
        return { org, teams }
      }).pipe(Effect.provide(serverOn(dataDir))))
      assert.strictEqual(after.org.title, "Survives Restarts")
      assert.deepStrictEqual(after.teams.items.map((t) => t.title), ["Writers"])
    }).pipe(Effect.scoped), { timeout: 60_000 })
})
