/** Layers that assemble the content package: its ports, adapters and use cases. */
import { AuditLayers } from "@quire/audit"
import { Layer } from "effect"
import { PassageVectors } from "./ask/PassageVectors.ts"
import * as SqlPassageVectors from "./ask/SqlPassageVectors.ts"
import { Collections } from "./Collections.ts"
import { CollectionsRepo } from "./CollectionsRepo.ts"
import { ContentAccess } from "./ContentAccess.ts"
import { ContentLinks } from "./ContentLinks.ts"
import { ContentPermissions } from "./ContentPermissions.ts"
import { Imports } from "./Imports.ts"
import { ImportRunsRepo } from "./ImportRunsRepo.ts"
import { PermissionsRepo } from "./PermissionsRepo.ts"
import { Freshness } from "./freshness/Freshness.ts"
import { EndPositions } from "./Placement.ts"
import { PublishedContent } from "./PublishedContent.ts"
import { RevisionsRepo } from "./RevisionsRepo.ts"
import { RevisionWriter } from "./RevisionWriter.ts"
import { Search } from "./Search.ts"
import { SearchIndex } from "./SearchIndex.ts"
import { Spaces } from "./Spaces.ts"
import { SpacesRepo } from "./SpacesRepo.ts"
import * as SqlCollectionsRepo from "./SqlCollectionsRepo.ts"
import * as SqlImportRunsRepo from "./SqlImportRunsRepo.ts"
import * as SqlPermissionsRepo from "./SqlPermissionsRepo.ts"
import * as SqlRevisionsRepo from "./SqlRevisionsRepo.ts"
import * as SqlSearchIndex from "./SqlSearchIndex.ts"
import * as SqlSpacesRepo from "./SqlSpacesRepo.ts"
import * as SqlStorageUsageRepo from "./SqlStorageUsageRepo.ts"
import { StorageUsageRepo } from "./StorageUsageRepo.ts"

/** The content ports in memory. */
export const layerReposMemory = Layer.mergeAll(
  SpacesRepo.layerMemory,
  CollectionsRepo.layerMemory,
  RevisionsRepo.layerMemory,
  SearchIndex.layerMemory,
  StorageUsageRepo.layerMemory,
  PermissionsRepo.layerMemory,
  AuditLayers.layerMemory,
  ImportRunsRepo.layerMemory,
  PassageVectors.layerMemory
)

/** The content ports on Postgres (needs only a SqlClient). */
export const layerReposSql = Layer.mergeAll(SqlSpacesRepo.layer, SqlCollectionsRepo.layer, SqlRevisionsRepo.layer, SqlSearchIndex.layer, SqlStorageUsageRepo.layer, SqlPermissionsRepo.layer, AuditLayers.layerSql, SqlImportRunsRepo.layer, SqlPassageVectors.layer)

/** The SQL revisions adapter without its revision cache: every read goes to the tables (what a restarted server reads). */
export const layerRevisionsRepoSqlUncached = SqlRevisionsRepo.layerWith({ cachedPages: 0 })

/** The use cases (with ContentAccess, the RevisionWriter and PublishedContent), over whichever ports and Memberships are provided. */
export const layerServices = Layer.mergeAll(
  Spaces.layer,
  Collections.layer,
  Search.layer,
  ContentLinks.layer,
  RevisionWriter.layer,
  ContentPermissions.layer,
  PublishedContent.layer
).pipe(
  Layer.provideMerge(ContentAccess.layer),
  // One counter for the server's spaces and collections, which are siblings of each other.
  Layer.provide(EndPositions.layer)
)

/** Import runs (needs SpaceContent, the repos, a BlobStore and a JobQueue); bounds from `QUIRE_IMPORT_MAX_*`. */
export const layerImports = Imports.layer

/** Pages' freshness per space and organization (needs SpaceContent, Spaces and ContentLinks). */
export const layerFreshness = Freshness.layer
