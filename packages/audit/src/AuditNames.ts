/**
 * Port: the names, as they are now, of what audit events refer to by id (people, teams, spaces,
 * collections, sites, organizations), for the instance's log, whose reader belongs to none of the
 * organizations it spans. The packages that own those things answer it (platform's
 * AuditNamesLive); a thing gone since is left out, and the log shows the label it kept, or its id.
 */
import { Context, type Effect } from "effect"
import type { AuditEvent } from "./domain/AuditEvent.ts"

/** A thing an event names: its kind, its id, and the organization it belongs to (teams are found within theirs). */
export interface AuditRef {
  readonly type: string
  readonly id: string
  readonly organizationId: string | null
}

/** The kinds of things the port names. */
export const namedKinds: ReadonlySet<string> = new Set(["user", "team", "space", "collection", "site", "organization"])

export interface AuditNamesShape {
  /** The current name of each ref that still exists, keyed `type:id` (`nameKey`). */
  readonly names: (refs: ReadonlyArray<AuditRef>) => Effect.Effect<ReadonlyMap<string, string>>
}

export class AuditNames extends Context.Service<AuditNames, AuditNamesShape>()("@quire/audit/AuditNames") {}

/** The key of a name in `names`' answer: `user:<id>`, `organization:<id>`. */
export const nameKey = (type: string, id: string): string => `${type}:${id}`

/** What an event names by id: its actor (a person), its target, the person or team its details grant to, and its organization. */
export const referencesOf = (event: AuditEvent): ReadonlyArray<AuditRef> => {
  const organizationId = event.organizationId
  const refs: Array<AuditRef> = []
  if (event.actor.type === "user" && event.actor.id !== "unknown") refs.push({ type: "user", id: event.actor.id, organizationId })
  if (namedKinds.has(event.target.type)) refs.push({ type: event.target.type, id: event.target.id, organizationId })
  const principalId = event.payload["principalId"]
  if (typeof principalId === "string" && principalId !== "") {
    const team = event.payload["principalType"] === "team" || event.payload["principal"] === "team"
    refs.push({ type: team ? "team" : "user", id: principalId, organizationId })
  }
  if (organizationId !== null) refs.push({ type: "organization", id: organizationId, organizationId })
  return refs
}
