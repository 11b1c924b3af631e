/**
 * @quire/specs: domain package of OpenAPI specifications: versions, processing, publishing. It
 * declares its service interfaces here, with memory and Postgres adapters beside them, and knows
 * nothing of HTTP.
 */
export * from "./domain/Spec.ts"
export { migrations } from "./migrations/index.ts"
export * as Processing from "./Processing.ts"
export * as SourceCredentials from "./SourceCredentials.ts"
export { type SpecAccess, type SpecPermissions, Specs, type SpecsShape, type VersionRef } from "./Specs.ts"
export { type LatestDocument, resolveDocument, SpecDocuments, type SpecDocumentsShape } from "./SpecDocuments.ts"
export * as SpecsLayers from "./SpecsLayers.ts"
export { SpecsRepo } from "./SpecsRepo.ts"
export * as ComputedPages from "./ComputedPages.ts"
