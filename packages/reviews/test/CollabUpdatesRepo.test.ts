/** CollabUpdatesRepo's contract suite on memory, a real PostgreSQL and PGlite. */
import { assert, it } from "@effect/vitest"
import { Database } from "@quire/db"
import { Backends } from "@quire/testkit"
import { migrations } from "../src/index.ts"
import { CollabUpdatesRepo, maxStoredBytes } from "../src/CollabUpdatesRepo.ts"
import * as SqlCollabUpdatesRepo from "../src/SqlCollabUpdatesRepo.ts"
import { collabUpdatesRepoContract } from "./contract/CollabUpdatesRepoContract.ts"

const backends = Backends.ports({ memory: CollabUpdatesRepo.layerMemory, sql: SqlCollabUpdatesRepo.layer, migrations: [migrations] })

Backends.each(backends, (it) => {
  collabUpdatesRepoContract(it)
})

it("a stored state or update is at most half of what the database client reads in one message", () => {
  assert.isAtMost(maxStoredBytes * 2, Database.clientMaxMessageBytes)
})
