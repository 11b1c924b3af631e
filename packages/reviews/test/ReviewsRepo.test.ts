/** ReviewsRepo's contract suite on memory, a real PostgreSQL and PGlite. */
import { Backends } from "@quire/testkit"
import { migrations } from "../src/index.ts"
import { ReviewsRepo } from "../src/ReviewsRepo.ts"
import * as SqlReviewsRepo from "../src/SqlReviewsRepo.ts"
import { reviewsRepoContract } from "./contract/ReviewsRepoContract.ts"

const backends = Backends.ports({ memory: ReviewsRepo.layerMemory, sql: SqlReviewsRepo.layer, migrations: [migrations] })

Backends.each(backends, (it) => {
  reviewsRepoContract(it)
})
