/** Change requests to the API's JSON shape (GitBook's ChangeRequest). */
import { Effect } from "effect"
import type { ChangeRequest as ChangeRequestResponse } from "@quire/api"
import { markdownDocument } from "@quire/content"
import { Users } from "@quire/identity"
import type { ChangeRequest, MergeConflict, MergeOutcome } from "@quire/reviews"
import * as Presenters from "./Presenters.ts"
import type { PublicUrl } from "./PublicUrl.ts"

type Urls = PublicUrl["Service"]

export const conflict = (c: MergeConflict) => ({
  id: c.id,
  ...(c.pageId === undefined ? {} : { pageId: c.pageId }),
  ...(c.fileId === undefined ? {} : { fileId: c.fileId }),
  path: c.path,
  kind: c.kind,
  ...(c.field === undefined ? {} : { field: c.field }),
  ...(c.ours === undefined ? {} : { ours: c.ours }),
  ...(c.theirs === undefined ? {} : { theirs: c.theirs }),
  ...(c.hunks === undefined ? {} : { hunks: c.hunks }),
  ...(c.context === undefined ? {} : { context: c.context })
})

export const changeRequest = (
  urls: Urls,
  cr: ChangeRequest,
  createdBy: ChangeRequestResponse["createdBy"],
  outdated: boolean,
  mergedBy?: ChangeRequestResponse["createdBy"]
): ChangeRequestResponse => ({
  object: "change-request",
  id: cr.id,
  number: cr.number,
  status: cr.status,
  subject: cr.subject,
  ...(cr.description === null ? {} : { description: markdownDocument(cr.description) }),
  ...(cr.links.length === 0 ? {} : { links: cr.links.map((link) => ({ id: link.id, ref: { kind: "url" as const, url: link.url }, ...(link.title === undefined ? {} : { title: link.title }) })) }),
  createdBy,
  createdAt: cr.createdAt.toISOString(),
  updatedAt: cr.updatedAt.toISOString(),
  ...(mergedBy === undefined ? {} : { mergedBy }),
  ...(cr.mergedAt === null ? {} : { mergedAt: cr.mergedAt.toISOString() }),
  space: cr.spaceId,
  revision: cr.revision,
  revisionInitial: cr.revisionInitial,
  revisionMergedAncestor: cr.revisionMergedAncestor,
  ...(cr.revisionMerged === null ? {} : { revisionMerged: cr.revisionMerged }),
  comments: cr.comments,
  outdated,
  ...(cr.conflicts === null || cr.conflicts.length === 0 ? {} : { conflicts: cr.conflicts.map(conflict) }),
  urls: {
    app: urls.app(`/s/${cr.spaceId}/~/changes/${cr.number}`),
    location: urls.api(`/spaces/${cr.spaceId}/change-requests/${cr.id}`)
  }
})

/** Presents change requests, looking each creator (and who merged it) up once per answer. */
export const presenter = Effect.gen(function*() {
  const users = yield* Users
  const cache = new Map<string, ChangeRequestResponse["createdBy"]>()
  const creator = Effect.fnUntraced(function*(urls: Urls, userId: string) {
    const known = cache.get(userId)
    if (known !== undefined) return known
    const user = yield* users.get(userId).pipe(
      Effect.map((u) => Presenters.user(urls, u, { showEmail: false })),
      // A deleted account still created the change request.
      Effect.catchTag("NotFound", () =>
        Effect.succeed({ object: "user" as const, id: userId, displayName: "", urls: { location: urls.api(`/users/${userId}`) } }))
    )
    cache.set(userId, user)
    return user
  })
  return Effect.fnUntraced(function*(urls: Urls, cr: ChangeRequest, outdated: boolean) {
    const mergedBy = cr.mergedBy === null ? undefined : yield* creator(urls, cr.mergedBy)
    return changeRequest(urls, cr, yield* creator(urls, cr.createdBy), outdated, mergedBy)
  })
})

/** The answer of a merge or an update (GitBook's `{revision, result}`, with the conflicts when there are some). */
export const mergeResult = <R extends "merge" | "update">(result: R) => (outcome: MergeOutcome) =>
  outcome.result === "conflicts"
    ? { revision: outcome.revision, result: "conflicts" as const, conflicts: outcome.conflicts.map(conflict) }
    : { revision: outcome.revision, result }
