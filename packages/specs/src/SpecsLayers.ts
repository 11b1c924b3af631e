/** Layers that assemble the specs package: its port, adapters and use cases. */
import { Specs } from "./Specs.ts"
import { SpecsRepo } from "./SpecsRepo.ts"
import * as SqlSpecsRepo from "./SqlSpecsRepo.ts"

/** The specs port in memory. */
export const layerReposMemory = SpecsRepo.layerMemory

/** The specs port on Postgres (needs only a SqlClient). */
export const layerReposSql = SqlSpecsRepo.layer

/** The use cases; need SpecsRepo, content's ContentAccess and OutboundFetch, Ids, SpecSecrets (the instance's sealing key) and a JobQueue. */
export const layerServices = Specs.layer
