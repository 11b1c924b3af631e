/**
 * @quire/platform: builds Quire's layers from configuration, for the server, the worker and the
 * CLI, so that no app imports another.
 */
export * as ContentPlatform from "./ContentPlatform.ts"
export { jobs } from "./Jobs.ts"
export * as MembershipsLive from "./MembershipsLive.ts"
export * as InstanceAudit from "./InstanceAudit.ts"
export * as Platform from "./Platform.ts"
export * as Queue from "./Queue.ts"
export * as SecretFile from "./SecretFile.ts"
export * as SiteBroadcast from "./SiteBroadcast.ts"
export * as Services from "./Services.ts"
export * as StartupFailure from "./StartupFailure.ts"
export { Storage } from "./Storage.ts"
export * as Telemetry from "./Telemetry.ts"
