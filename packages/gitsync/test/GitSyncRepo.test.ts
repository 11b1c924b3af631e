/** GitSyncRepo's contract suite, run against memory, a real PostgreSQL and PGlite. */
import { Backends } from "@quire/testkit"
import { GitSyncRepo } from "../src/GitSyncRepo.ts"
import { migrations } from "../src/migrations/index.ts"
import * as SqlGitSyncRepo from "../src/SqlGitSyncRepo.ts"
import { gitSyncRepoContract } from "./contract/GitSyncRepoContract.ts"

const backends = Backends.ports({ memory: GitSyncRepo.layerMemory, sql: SqlGitSyncRepo.layer, migrations: [migrations] })

Backends.each(backends, (it) => {
  gitSyncRepoContract(it)
})
