/**
 * The reviews ports' contract suites, run against memory, a real PostgreSQL and PGlite. Each
 * backend is one fresh store shared by the suites, whose tests use disjoint ids.
 */
import { Layer } from "effect"
import { Backends } from "@quire/testkit"
import { ChangeRequestsRepo } from "../src/ChangeRequestsRepo.ts"
import { CommentsRepo } from "../src/CommentsRepo.ts"
import { migrations } from "../src/index.ts"
import * as SqlChangeRequestsRepo from "../src/SqlChangeRequestsRepo.ts"
import * as SqlCommentsRepo from "../src/SqlCommentsRepo.ts"
import { SpaceCountersRepo } from "../src/SpaceCountersRepo.ts"
import * as SqlSpaceCountersRepo from "../src/SqlSpaceCountersRepo.ts"
import { changeRequestsRepoContract } from "./contract/ChangeRequestsRepoContract.ts"
import { commentsRepoContract } from "./contract/CommentsRepoContract.ts"
import { spaceCountersRepoContract } from "./contract/SpaceCountersRepoContract.ts"

const backends = Backends.ports({
  memory: Layer.mergeAll(ChangeRequestsRepo.layerMemory, CommentsRepo.layerMemory, SpaceCountersRepo.layerMemory),
  sql: Layer.mergeAll(SqlChangeRequestsRepo.layer, SqlCommentsRepo.layer, SqlSpaceCountersRepo.layer),
  migrations: [migrations]
})

Backends.each(backends, (it) => {
  changeRequestsRepoContract(it)
  commentsRepoContract(it)
  spaceCountersRepoContract(it)
})
