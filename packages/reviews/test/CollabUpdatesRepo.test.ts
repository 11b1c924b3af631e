/** CollabUpdatesRepo's contract suite on memory, a real PostgreSQL and PGlite. */
import { Backends } from "@quire/testkit"
import { migrations } from "../src/index.ts"
import { CollabUpdatesRepo } from "../src/CollabUpdatesRepo.ts"
import * as SqlCollabUpdatesRepo from "../src/SqlCollabUpdatesRepo.ts"
import { collabUpdatesRepoContract } from "./contract/CollabUpdatesRepoContract.ts"

const backends = Backends.ports({ memory: CollabUpdatesRepo.layerMemory, sql: SqlCollabUpdatesRepo.layer, migrations: [migrations] })

Backends.each(backends, (it) => {
  collabUpdatesRepoContract(it)
})
