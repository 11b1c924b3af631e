/**
 * The audit log with its storage, as one value per backend: every package that records events
 * merges the same layer into its ports, so a composition builds one log (layers are shared by
 * reference) that all of them write to, inside their transactions.
 */
import { Layer } from "effect"
import { AuditLog } from "./AuditLog.ts"
import { AuditLogRepo } from "./AuditLogRepo.ts"
import * as SqlAuditLogRepo from "./SqlAuditLogRepo.ts"

/** In memory (its rows take part in the memory Transactor's transactions). */
export const layerMemory = AuditLog.layer.pipe(Layer.provideMerge(AuditLogRepo.layerMemory))

/** On Postgres (needs a SqlClient and the audit migrations applied). */
export const layerSql = AuditLog.layer.pipe(Layer.provideMerge(SqlAuditLogRepo.layer))
