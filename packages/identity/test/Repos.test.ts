/**
 * The identity ports' contract suites, run against memory, a real PostgreSQL and PGlite. Each
 * backend is one fresh store shared by the suites, whose tests use disjoint ids.
 */
import { layer } from "@effect/vitest"
import { Layer } from "effect"
import { Migrations, Testing } from "@quire/db"
import { Identity, migrations } from "../src/index.ts"
import type { Repos } from "./contract/Fixtures.ts"
import { membersRepoContract } from "./contract/MembersRepoContract.ts"
import { organizationsRepoContract } from "./contract/OrganizationsRepoContract.ts"
import { samlProvidersRepoContract } from "./contract/SamlProvidersRepoContract.ts"
import { teamsRepoContract } from "./contract/TeamsRepoContract.ts"
import { usersRepoContract } from "./contract/UsersRepoContract.ts"

const migrated = Layer.effectDiscard(Migrations.run(migrations))

const backends: ReadonlyArray<{ readonly name: string; readonly layer: Layer.Layer<Repos> }> = [
  { name: "memory", layer: Identity.layerReposMemory },
  ...Testing.backends.map((backend) => ({
    name: backend.name,
    layer: Identity.layerReposSql.pipe(Layer.provide(migrated), Layer.provide(backend.layer))
  }))
]

for (const backend of backends) {
  // A fresh database takes a few seconds to start.
  layer(backend.layer, { timeout: "60 seconds" })(backend.name, (it) => {
    usersRepoContract(it)
    organizationsRepoContract(it)
    membersRepoContract(it)
    teamsRepoContract(it)
    samlProvidersRepoContract(it)
  })
}
