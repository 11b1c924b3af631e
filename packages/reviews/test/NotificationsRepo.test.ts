/** NotificationsRepo's contract suite on memory, a real PostgreSQL and PGlite. */
import { Backends } from "@quire/testkit"
import { migrations } from "../src/index.ts"
import { NotificationsRepo } from "../src/NotificationsRepo.ts"
import * as SqlNotificationsRepo from "../src/SqlNotificationsRepo.ts"
import { notificationsRepoContract } from "./contract/NotificationsRepoContract.ts"

const backends = Backends.ports({ memory: NotificationsRepo.layerMemory, sql: SqlNotificationsRepo.layer, migrations: [migrations] })

Backends.each(backends, (it) => {
  notificationsRepoContract(it)
})
