/**
 * `pnpm bench --http --variants`' framework floor still runs and answers as the baseline does (a
 * server a bench compares against must not rot out of the smoke's sight): both on one seeded
 * PostgreSQL database, the same two operations, the same bodies, and 401 without a token. Run with
 * `npx tsx --test test/FloorServer.test.ts`.
 */
import { strict as assert } from "node:assert"
import { test } from "node:test"
import { Effect } from "effect"
import { Database } from "@quire/db"
import * as Scratch from "../src/Scratch.ts"
import * as Seed from "../src/Seed.ts"
import * as Servers from "../src/Servers.ts"

const adminUrl = process.env.QUIRE_BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres"

const get = (baseUrl: string, path: string, token?: string) =>
  Effect.promise(async () => {
    const response = await fetch(`${baseUrl}${path}`, token === undefined ? {} : { headers: { authorization: `Bearer ${token}` } })
    return { status: response.status, body: await response.json() as Record<string, unknown> }
  })

/** A body with the server's own address taken out (each listens on its own port). */
const portless = (body: unknown) => JSON.parse(JSON.stringify(body).replace(/127\.0\.0\.1:\d+/g, "127.0.0.1"))

test("the framework floor answers the baseline's two operations with the baseline's bodies", { timeout: 300_000 }, async () => {
  await Effect.runPromise(Effect.scoped(Effect.gen(function*() {
    const backend = { kind: "postgres" as const, url: yield* Scratch.postgresDatabase(adminUrl) }
    const seeded = yield* Seed.seed(Database.layerUrl(backend.url))
    const common = { backend, adminToken: Seed.adminToken, adminEmail: Seed.adminEmail }
    const floor = yield* Servers.start("floor", { ...common, server: "floor" })
    const baseline = yield* Servers.start("baseline", { ...common, server: "baseline" })
    for (const path of ["/v1/user", `/v1/orgs/${seeded.organizationId}`]) {
      const [fromFloor, fromBaseline] = [yield* get(floor.baseUrl, path, Seed.adminToken), yield* get(baseline.baseUrl, path, Seed.adminToken)]
      assert.strictEqual(fromFloor.status, 200, `${path}: ${JSON.stringify(fromFloor.body)}`)
      assert.deepStrictEqual(portless(fromFloor.body), portless(fromBaseline.body), path)
    }
    const refused = yield* get(floor.baseUrl, "/v1/user", "not-a-token")
    assert.strictEqual(refused.status, 401)
    assert.strictEqual((refused.body.error as { code: number }).code, 401)
  })))
})
