/**
 * @quire/testkit: what the tests of every package share. A devDependency only; production code
 * never imports it.
 */
export { as, asInstanceAdmin } from "./Actors.ts"
export { allIds, allPages, assertNone, at, some } from "./Assertions.ts"
export * as Backends from "./Backends.ts"
export { errorMessage, errorTag, filesOfFolder, memberRoles } from "./Fixtures.ts"
export * as LocalServer from "./LocalServer.ts"
export * as OpenApiSources from "./OpenApiSources.ts"
export * as Workloads from "./Workloads.ts"
