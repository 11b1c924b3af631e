/** The CommentsRepo contract suite, run against memory, a real PostgreSQL and PGlite. */
import { layer } from "@effect/vitest"
import { Layer } from "effect"
import { Migrations, Testing } from "@quire/db"
import { CommentsRepo } from "../src/CommentsRepo.ts"
import { migrations } from "../src/index.ts"
import * as SqlCommentsRepo from "../src/SqlCommentsRepo.ts"
import { commentsRepoContract } from "./contract/CommentsRepoContract.ts"

const migrated = Layer.effectDiscard(Migrations.run(migrations))

const backends: ReadonlyArray<{ readonly name: string; readonly layer: Layer.Layer<CommentsRepo> }> = [
  { name: "memory", layer: CommentsRepo.layerMemory },
  ...Testing.backends.map((backend) => ({
    name: backend.name,
    layer: SqlCommentsRepo.layer.pipe(Layer.provide(migrated), Layer.provide(backend.layer))
  }))
]

for (const backend of backends) {
  // A fresh database takes a few seconds to start.
  layer(backend.layer, { timeout: "60 seconds" })(backend.name, (it) => {
    commentsRepoContract(it)
  })
}
