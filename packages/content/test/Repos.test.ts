/**
 * The content ports' contract suites, run against memory, a real PostgreSQL and PGlite. Each
 * backend is one fresh store shared by the suites, whose tests use disjoint ids.
 */
import { layer } from "@effect/vitest"
import { Layer } from "effect"
import { Migrations, Testing } from "@quire/db"
import { Content, migrations } from "../src/index.ts"
import { collectionsRepoContract } from "./contract/CollectionsRepoContract.ts"
import type { Repos } from "./contract/Fixtures.ts"
import { searchIndexContract } from "./contract/SearchIndexContract.ts"
import { spacesRepoContract } from "./contract/SpacesRepoContract.ts"

const migrated = Layer.effectDiscard(Migrations.run(migrations))

const backends: ReadonlyArray<{ readonly name: string; readonly layer: Layer.Layer<Repos> }> = [
  { name: "memory", layer: Content.layerReposMemory },
  ...Testing.backends.map((backend) => ({
    name: backend.name,
    layer: Content.layerReposSql.pipe(Layer.provide(migrated), Layer.provide(backend.layer))
  }))
]

for (const backend of backends) {
  // A fresh database takes a few seconds to start.
  layer(backend.layer, { timeout: "60 seconds" })(backend.name, (it) => {
    spacesRepoContract(it)
    collectionsRepoContract(it)
    searchIndexContract(it)
  })
}
