/** ViewedPagesRepo's contract suite on memory, a real PostgreSQL and PGlite. */
import { Backends } from "@quire/testkit"
import { migrations } from "../src/index.ts"
import * as SqlViewedPagesRepo from "../src/SqlViewedPagesRepo.ts"
import { ViewedPagesRepo } from "../src/ViewedPagesRepo.ts"
import { viewedPagesRepoContract } from "./contract/ViewedPagesRepoContract.ts"

const backends = Backends.ports({ memory: ViewedPagesRepo.layerMemory, sql: SqlViewedPagesRepo.layer, migrations: [migrations] })

Backends.each(backends, (it) => {
  viewedPagesRepoContract(it)
})
