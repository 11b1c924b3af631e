/**
 * The content ports' contract suites, run against memory, a real PostgreSQL and PGlite. Each
 * backend is one fresh store shared by the suites, whose tests use disjoint ids. The database
 * client reads at most `contractMaxMessageBytes` (2 MiB) a message, so that a tree just over it is
 * too large for one row; RevisionParts.test.ts checks every bounded row stays far under the real limit.
 */
import { Backends } from "@quire/testkit"
import { ContentLayers, migrations } from "../src/index.ts"
import { collectionsRepoContract } from "./contract/CollectionsRepoContract.ts"
import { importRunsRepoContract } from "./contract/ImportRunsRepoContract.ts"
import { contractMaxMessageBytes } from "./contract/LargeTree.ts"
import { passageVectorsContract } from "./contract/PassageVectorsContract.ts"
import { permissionsRepoContract } from "./contract/PermissionsRepoContract.ts"
import { reusableContentsContract } from "./contract/ReusableContentsContract.ts"
import { revisionsRepoContract } from "./contract/RevisionsRepoContract.ts"
import { searchIndexContract } from "./contract/SearchIndexContract.ts"
import { spacesRepoContract } from "./contract/SpacesRepoContract.ts"
import { storageUsageRepoContract } from "./contract/StorageUsageRepoContract.ts"

const backends = Backends.ports({
  memory: ContentLayers.layerReposMemory,
  sql: ContentLayers.layerReposSql,
  migrations: [migrations],
  client: { maxMessageBytes: contractMaxMessageBytes }
})

Backends.each(backends, (it, backend) => {
  spacesRepoContract(it)
  collectionsRepoContract(it)
  revisionsRepoContract(it)
  reusableContentsContract(it)
  searchIndexContract(it)
  storageUsageRepoContract(it)
  permissionsRepoContract(it)
  importRunsRepoContract(it, backend !== "memory")
  passageVectorsContract(it)
})
