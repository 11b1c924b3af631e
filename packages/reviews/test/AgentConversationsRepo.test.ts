/** AgentConversationsRepo's contract suite on memory, a real PostgreSQL and PGlite. */
import { Backends } from "@quire/testkit"
import { AgentConversationsRepo } from "../src/agent/AgentConversationsRepo.ts"
import * as SqlAgentConversationsRepo from "../src/agent/SqlAgentConversationsRepo.ts"
import { migrations } from "../src/index.ts"
import { agentConversationsRepoContract } from "./contract/AgentConversationsRepoContract.ts"

const backends = Backends.ports({ memory: AgentConversationsRepo.layerMemory, sql: SqlAgentConversationsRepo.layer, migrations: [migrations] })

Backends.each(backends, (it) => {
  agentConversationsRepoContract(it)
})
