/** ImportedLayoutRepo's contract suite, run against memory, a real PostgreSQL and PGlite. */
import { Backends } from "@quire/testkit"
import { ImportedLayoutRepo } from "../src/ImportedLayoutRepo.ts"
import { migrations } from "../src/migrations/index.ts"
import * as SqlImportedLayoutRepo from "../src/SqlImportedLayoutRepo.ts"
import { importedLayoutRepoContract } from "./contract/ImportedLayoutRepoContract.ts"

const backends = Backends.ports({ memory: ImportedLayoutRepo.layerMemory, sql: SqlImportedLayoutRepo.layer, migrations: [migrations] })

Backends.each(backends, (it) => {
  importedLayoutRepoContract(it)
})
