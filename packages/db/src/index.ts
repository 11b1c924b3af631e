export * as Database from "./Database.ts"
export * as Migrations from "./Migrations.ts"
export * as SqlTransactor from "./SqlTransactor.ts"
export * as InstanceDump from "./InstanceDump.ts"
