/** The embedded database keeps what the API wrote across a server restart. */
import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { NodeHttpServer } from "@effect/platform-node"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Database } from "@quire/db"
import { Users } from "@quire/identity"
import * as Http from "../src/Http.ts"
import { PublicUrl } from "../src/PublicUrl.ts"
import { Services, Storage } from "@quire/platform"
import { adminEmail, adminToken, client } from "./Harness.ts"

const serverOn = (dataDir: string) =>
  Layer.effectDiscard(Effect.flatMap(Effect.service(Users), (users) => users.bootstrapAdmin(adminEmail, adminToken))).pipe(
    Layer.provideMerge(Http.serve),
    Layer.provideMerge(Services.layerSql),
    Layer.provide([Database.layerEmbedded({ dataDir }), PublicUrl.layer("http://quire.test"), Storage.layer("embedded")]),
    Layer.provideMerge(NodeHttpServer.layerTest),
    Layer.orDie
  )

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
