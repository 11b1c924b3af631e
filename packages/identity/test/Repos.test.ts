/**
 * The identity ports' contract suites, run against memory, a real PostgreSQL and PGlite. Each
 * backend is one fresh store shared by the suites, whose tests use disjoint ids.
 */
import { migrations as auditMigrations } from "@quire/audit"
import { Backends } from "@quire/testkit"
import { IdentityLayers, migrations } from "../src/index.ts"
import { agentInstructionsRepoContract } from "./contract/AgentInstructionsRepoContract.ts"
import { membersRepoContract } from "./contract/MembersRepoContract.ts"
import { notificationSettingsRepoContract } from "./contract/NotificationSettingsRepoContract.ts"
import { oidcProvidersRepoContract } from "./contract/OidcProvidersRepoContract.ts"
import { organizationsRepoContract } from "./contract/OrganizationsRepoContract.ts"
import { samlProvidersRepoContract } from "./contract/SamlProvidersRepoContract.ts"
import { samlSignInRepoContract } from "./contract/SamlSignInRepoContract.ts"
import { signInRepoContract } from "./contract/SignInRepoContract.ts"
import { teamsRepoContract } from "./contract/TeamsRepoContract.ts"
import { usersRepoContract } from "./contract/UsersRepoContract.ts"

const backends = Backends.ports({ memory: IdentityLayers.layerReposMemory, sql: IdentityLayers.layerReposSql, migrations: [auditMigrations, migrations] })

Backends.each(backends, (it) => {
  usersRepoContract(it)
  organizationsRepoContract(it)
  membersRepoContract(it)
  teamsRepoContract(it)
  samlProvidersRepoContract(it)
  oidcProvidersRepoContract(it)
  samlSignInRepoContract(it)
  signInRepoContract(it)
  notificationSettingsRepoContract(it)
  agentInstructionsRepoContract(it)
})
