/** The ChangeRequestsRepo contract suite, run against memory, a real PostgreSQL and PGlite. */
import { layer } from "@effect/vitest"
import { Layer } from "effect"
import { Migrations, Testing } from "@quire/db"
import { ChangeRequestsRepo } from "../src/ChangeRequestsRepo.ts"
import { migrations } from "../src/index.ts"
import * as SqlChangeRequestsRepo from "../src/SqlChangeRequestsRepo.ts"
import { changeRequestsRepoContract } from "./contract/ChangeRequestsRepoContract.ts"

const migrated = Layer.effectDiscard(Migrations.run(migrations))

const backends: ReadonlyArray<{ readonly name: string; readonly layer: Layer.Layer<ChangeRequestsRepo> }> = [
  { name: "memory", layer: ChangeRequestsRepo.layerMemory },
  ...Testing.backends.map((backend) => ({
    name: backend.name,
    layer: SqlChangeRequestsRepo.layer.pipe(Layer.provide(migrated), Layer.provide(backend.layer))
  }))
]

for (const backend of backends) {
  // A fresh database takes a few seconds to start.
  layer(backend.layer, { timeout: "60 seconds" })(backend.name, (it) => {
    changeRequestsRepoContract(it)
  })
}
