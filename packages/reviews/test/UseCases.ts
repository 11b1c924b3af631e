/**
 * What the reviews use-case suites share: the use cases over the memory adapters with content's
 * use cases and test memberships, and helpers that seed spaces, change requests and main content.
 */
import { assert } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { Ids, Transactor } from "@quire/kernel"
import { as, memberRoles } from "@quire/testkit"
import { OutboundFetch } from "@quire/outbound"
import { BlobStore, ContentLayers, MainObservers, Memberships, ParsePool, SpaceContent, Spaces } from "@quire/content"
import { ChangeRequests, type ChangeInput } from "../src/ChangeRequests.ts"
import { Merges } from "../src/Merges.ts"
import * as ReviewsLayers from "../src/ReviewsLayers.ts"
import { SpaceCountersRepo } from "../src/SpaceCountersRepo.ts"
import { StoredLiveMarkdown } from "../src/StoredLiveMarkdown.ts"

export const org = "org-1"
export const otherOrg = "org-2"

/** Who has which role in the organization; `outsider` is in none, `otto` only in the other one. */
export const roles = memberRoles({
  [org]: { alice: "admin", rita: "review", erin: "edit", carl: "comment", rhea: "read", guest: null },
  [otherOrg]: { otto: "admin" }
})

/** The reviews use cases over the memory adapters; files by URL may be fetched from 127.0.0.1 only. */
export const layer = ReviewsLayers.layerServices.pipe(
  Layer.provideMerge(SpaceContent.layer.pipe(Layer.provideMerge(ContentLayers.layerServices))),
  Layer.provideMerge(ReviewsLayers.layerSpaceDependents),
  Layer.provideMerge(Layer.mergeAll(ContentLayers.layerReposMemory, ReviewsLayers.layerReposMemory, Transactor.Transactor.layerMemory)),
  Layer.provide([Memberships.layerTest(roles), MainObservers.layerNone, StoredLiveMarkdown.layerNone, Ids.Ids.layerTest, BlobStore.layerMemory, OutboundFetch.layer({ allow: ["127.0.0.1"] }), ParsePool.layerMainThread])
)

export const insert = (markdown: string, title: string): ChangeInput => ({ operation: "insert_page", title, markdown })

export const text = (intro: string, body: string, end: string) => `${intro}\n\n${body}\n\n${end}`

/** A new space of the organization, created by alice (the admin). */
export const newSpace = (title = "Docs") =>
  Effect.gen(function*() {
    const spaces = yield* Spaces
    return (yield* spaces.create(org, { title }).pipe(as("alice"))).space
  })

/** A draft change request of the space, opened by `user` (alice by default). */
export const newChangeRequest = (spaceId: string, subject: string, user = "alice") =>
  Effect.gen(function*() {
    const changeRequests = yield* ChangeRequests
    return (yield* changeRequests.create(spaceId, { subject }).pipe(as(user))).changeRequest
  })

/** The space's counters: change requests, open, drafts, and open comments on the space's own content. */
export const counters = (spaceId: string) =>
  Effect.gen(function*() {
    const repo = yield* SpaceCountersRepo
    const c = (yield* repo.forSpaces([spaceId])).get(spaceId)!
    return [c.changeRequests, c.changeRequestsOpen, c.changeRequestsDraft, c.comments]
  })

/** Merges `changes` into the space's main content through a change request of their own. */
export const mergeIntoMain = (spaceId: string, changes: ReadonlyArray<ChangeInput>) =>
  Effect.gen(function*() {
    const cr = yield* newChangeRequest(spaceId, "Seed")
    yield* Effect.flatMap(Effect.service(ChangeRequests), (s) => s.updateContent(spaceId, cr.id, changes)).pipe(as("alice"))
    const merged = yield* Effect.flatMap(Effect.service(Merges), (m) => m.merge(spaceId, cr.id)).pipe(as("alice"))
    assert.strictEqual(merged.result, "merge")
    return merged
  })

/** A space whose main content holds one page with `text("intro", "body", "end")`, and that page's id. */
export const spaceWithPage = (title = "Docs") =>
  Effect.gen(function*() {
    const space = yield* newSpace(title)
    yield* mergeIntoMain(space.id, [insert(text("intro", "body", "end"), "Page")])
    const main = yield* Effect.flatMap(Effect.service(SpaceContent), (c) => c.revision(space.id)).pipe(as("alice"))
    return { space, pageId: main.revision.pages[0]!.id }
  })

/** The markdown of a page of main, and of a change request. */
export const mainMarkdown = (spaceId: string, pageId: string) =>
  Effect.map(Effect.flatMap(Effect.service(SpaceContent), (c) => c.page(spaceId, pageId)), (p) => p.markdown).pipe(as("alice"))
export const crMarkdown = (spaceId: string, ref: string, pageId: string) =>
  Effect.map(Effect.flatMap(Effect.service(ChangeRequests), (c) => c.page(spaceId, ref, pageId)), (p) => p.markdown).pipe(as("alice"))
