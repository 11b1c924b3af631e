/**
 * Who connects and with which role, and their access checked again: a connection is who
 * CollabCallers says its request is; readers are read-only, a presence document is read-only to
 * everyone who may read the change request. Access (the request authenticated again, then the
 * role) is checked again on the server's timer, before every so many of a connection's updates
 * (Persistence), and when its change request changes under it (a write heard, a write back refused).
 */
import type { Extension, Hocuspocus } from "@hocuspocus/server"
import { Effect, Option } from "effect"
import { Actor } from "@quire/kernel"
import { type LiveCheck, LiveDocuments, presenceOf } from "@quire/reviews"
import type { Users } from "@quire/identity"
import { CollabCallers, type CollabRequest, type UpgradeHeaders } from "../CollabCallers.ts"
import { type CollabDocuments, type ConnectionState, refusal, Refused } from "../CollabDocuments.ts"
import { personOf } from "../CollabPresence.ts"
import type { LiveContext, Run } from "./Hooks.ts"

/** What a connection carries in Hocuspocus's context: the upgrade's headers (the socket's), then what authentication adds. */
export interface AuthenticatedContext extends LiveContext {
  readonly headers: UpgradeHeaders
  /** What the connection was authenticated with, asked again at each check of its access. */
  readonly request?: CollabRequest
}

/**
 * The reasons a connection is closed with when what it edits changed under it (a code before the
 * colon for the editor to match, then words): the page deleted from the change request, the
 * change request merged or archived, the person's role lowered to reading. Nothing typed after
 * is stored, so nothing is acknowledged as if it were.
 */
export const closedBecause = {
  pageDeleted: "page-deleted: this page was deleted from the change request; what you typed in it is not kept there",
  merged: "merged: this change request was merged; what you typed after that is not in it",
  archived: "archived: this change request was archived; what you type now is not saved",
  readOnly: "read-only: you may now only read this change request; what you type now is not saved"
} as const

/**
 * What becomes of a connection after its access was checked again: the reason to close it with,
 * or none to keep it (read-only when `readOnly`). A presence connection stays while its person may
 * read the change request; a page's writable connection that may no longer write is closed in
 * words, since Hocuspocus would answer its person's every keystroke "not synced" without one.
 */
export const afterCheck = (check: LiveCheck, presence: boolean, writable: boolean): { readonly close: string } | { readonly readOnly: boolean } => {
  if (check.access === "none") return { close: check.because === "page-deleted" ? closedBecause.pageDeleted : refusal.revoked }
  if (presence) return { readOnly: true }
  if (check.access === "edit") return { readOnly: false }
  if (!writable) return { readOnly: true }
  return { close: check.because === "merged" ? closedBecause.merged : check.because === "archived" ? closedBecause.archived : closedBecause.readOnly }
}

export interface AuthenticationOptions {
  readonly documents: CollabDocuments
  readonly run: Run<Users>
}

export interface Authentication {
  readonly extension: Extension<AuthenticatedContext>
  /** Checks again the access of a page's writable connection: the reason to close it with, or none. */
  readonly recheckWriter: (connection: AuthenticatedContext) => Effect.Effect<string | undefined>
  /**
   * Closes the connections whose person lost access or whose page is gone, and those who typed
   * and may now only read (merged, archived, role lowered), each with its reason; makes read-only
   * or writable the others as their access now says. Only the change request `changeRequestId`'s
   * documents when given (a write or a change of status heard), else every document (the timer).
   */
  readonly recheckAll: (hocuspocus: Hocuspocus<AuthenticatedContext>, changeRequestId?: string) => Effect.Effect<void>
}

/** The authentication extension over reviews' LiveDocuments and the server's CollabCallers, with its checks of access. */
export const authentication = Effect.fnUntraced(function*(options: AuthenticationOptions) {
  const { documents, run } = options
  const live = yield* LiveDocuments
  const callers = yield* CollabCallers

  /**
   * The connection's access now, authenticating its request again (none without one), to its
   * page too: a page deleted from the change request is `page-deleted` for everyone.
   */
  const recheck = (connection: AuthenticatedContext) =>
    Effect.gen(function*() {
      const gone: LiveCheck = { access: "none", because: "gone" }
      const held = connection.collab ?? connection.presence
      if (connection.request === undefined || held === undefined) return gone
      const actor = yield* callers.actorOf(connection.request)
      if (Option.isNone(actor)) return gone
      held.actor = actor.value
      const [changeRequestId, pageId] = "opened" in held ? [held.opened.key.changeRequestId, held.opened.key.pageId] : [held.changeRequestId, undefined]
      return yield* live.check(changeRequestId, pageId).pipe(Effect.provideService(Actor.Actor, actor.value))
    })

  const recheckAll = (hocuspocus: Hocuspocus<AuthenticatedContext>, changeRequestId?: string) =>
    Effect.suspend(() => Effect.forEach(Array.from(hocuspocus.documents.values()), (document) =>
      changeRequestId !== undefined && !document.name.startsWith(`${changeRequestId}/`) ? Effect.void : Effect.forEach(document.getConnections(), (connection) =>
        Effect.map(recheck(connection.context), (check) => {
          const after = afterCheck(check, connection.context.presence !== undefined, !connection.readOnly)
          if ("close" in after) connection.close({ code: 4000, reason: after.close })
          else connection.readOnly = after.readOnly
        }), { discard: true }), { discard: true }))

  const recheckWriter = (connection: AuthenticatedContext) =>
    Effect.map(recheck(connection), (check) => {
      const after = afterCheck(check, false, true)
      return "close" in after ? after.close : undefined
    })

  const extension: Extension<AuthenticatedContext> = {
    onAuthenticate: (data) =>
      run(Effect.gen(function*() {
        const presenceName = presenceOf(data.documentName)
        const ids = Option.isSome(presenceName) ? undefined : yield* live.parseName(data.documentName).pipe(Effect.mapError(() => new Refused(refusal.badName)))
        const request: CollabRequest = { headers: data.context.headers, token: data.token }
        const actor = yield* callers.actorOf(request)
        if (Option.isNone(actor)) return yield* Effect.fail(new Refused(refusal.unauthenticated))
        const awareness = { start: 0, count: 0 }
        const person = yield* personOf(actor.value)
        if (ids === undefined) {
          // Anyone who may read the change request sees who is in it; no one writes to its presence.
          const changeRequestId = Option.getOrThrow(presenceName)
          const access = yield* live.access(changeRequestId).pipe(Effect.provideService(Actor.Actor, actor.value))
          if (Option.isNone(access)) return yield* Effect.fail(new Refused(refusal.notFound))
          data.connectionConfig.readOnly = true
          return { request, presence: { actor: actor.value, changeRequestId }, awareness, person }
        }
        const opened = yield* live.open(ids.changeRequestId, ids.pageId).pipe(
          Effect.provideService(Actor.Actor, actor.value),
          Effect.mapError(() => new Refused(refusal.notFound))
        )
        // A page too large to edit live is open read-only to everyone (CollabDocuments' `load`).
        data.connectionConfig.readOnly = opened.access !== "edit" || documents.readOnlyReason(data.documentName) !== undefined
        // With Redis, what another server acknowledged may be in PostgreSQL only (it died before
        // relaying it): this connection syncs with the open document once it holds that too.
        const open = data.instance.documents.get(data.documentName)
        if (open !== undefined) yield* documents.catchUp(data.documentName, open, opened.access === "edit" ? actor : Option.none())
        const collab: ConnectionState = { actor: actor.value, opened, window: { start: 0, count: 0 }, updates: 0, arrived: undefined }
        return { request, collab, awareness, person }
      }))
  }

  const made: Authentication = { extension, recheckWriter, recheckAll }
  return made
})
