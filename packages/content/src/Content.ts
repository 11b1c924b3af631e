/** Layers that assemble the content package: its ports, adapters and use cases. */
import { Layer } from "effect"
import { Collections } from "./Collections.ts"
import { CollectionsRepo } from "./CollectionsRepo.ts"
import { ContentAccess } from "./ContentAccess.ts"
import { RevisionsRepo } from "./RevisionsRepo.ts"
import { Spaces } from "./Spaces.ts"
import { SpacesRepo } from "./SpacesRepo.ts"
import * as SqlCollectionsRepo from "./SqlCollectionsRepo.ts"
import * as SqlRevisionsRepo from "./SqlRevisionsRepo.ts"
import * as SqlSpacesRepo from "./SqlSpacesRepo.ts"

/** The content ports in memory. */
export const layerReposMemory = Layer.mergeAll(SpacesRepo.layerMemory, CollectionsRepo.layerMemory, RevisionsRepo.layerMemory)

/** The content ports on Postgres (needs only a SqlClient). */
export const layerReposSql = Layer.mergeAll(SqlSpacesRepo.layer, SqlCollectionsRepo.layer, SqlRevisionsRepo.layer)

/** The use cases (and ContentAccess), over whichever ports and Memberships are provided. */
export const layerServices = Layer.mergeAll(Spaces.layer, Collections.layer).pipe(Layer.provideMerge(ContentAccess.layer))
