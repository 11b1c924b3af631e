/** OrganizationConversationsRepo's contract suite on memory, a real PostgreSQL and PGlite. */
import { Backends } from "@quire/testkit"
import { OrganizationConversationsRepo } from "../src/agent/OrganizationConversationsRepo.ts"
import * as SqlOrganizationConversationsRepo from "../src/agent/SqlOrganizationConversationsRepo.ts"
import { migrations } from "../src/index.ts"
import { organizationConversationsRepoContract } from "./contract/OrganizationConversationsRepoContract.ts"

const backends = Backends.ports({ memory: OrganizationConversationsRepo.layerMemory, sql: SqlOrganizationConversationsRepo.layer, migrations: [migrations] })

Backends.each(backends, (it) => {
  organizationConversationsRepoContract(it)
})
