/** The behaviour every ChangeRequestsRepo adapter must have. */
import { assert, describe, type Vitest } from "@effect/vitest"
import { Effect } from "effect"
import { Pagination } from "@quire/kernel"
import { assertNone, at, some } from "@quire/testkit"
import { ChangeRequestsRepo, type NewChangeRequest } from "../../src/ChangeRequestsRepo.ts"
import type { ChangeRequestLink } from "../../src/domain/ChangeRequest.ts"

const make = (id: string, spaceId: string, overrides: Partial<NewChangeRequest> = {}): NewChangeRequest => ({
  id,
  spaceId,
  status: "draft",
  subject: `Subject ${id}`,
  createdBy: "user-a",
  createdAt: at(1),
  updatedAt: at(1),
  revision: `${spaceId}-r1`,
  revisionInitial: `${spaceId}-r1`,
  revisionMergedAncestor: `${spaceId}-r1`,
  revisionMerged: null,
  agentTaskId: null,
  contributors: [],
  ...overrides
})

const ids = (page: Pagination.Page<{ readonly id: string }>) => page.items.map((cr) => cr.id)

export const changeRequestsRepoContract = (it: Vitest.MethodsNonLive<ChangeRequestsRepo>) =>
  describe("ChangeRequestsRepo", () => {
    it.effect("numbers change requests per space from 1, and finds them by id and number", () =>
      Effect.gen(function*() {
        const repo = yield* ChangeRequestsRepo
        const first = yield* repo.insert(make("cr-n-1", "cr-n-space", { agentTaskId: "task-1", contributors: ["user-b"] }))
        const second = yield* repo.insert(make("cr-n-2", "cr-n-space"))
        const other = yield* repo.insert(make("cr-n-3", "cr-n-other"))
        assert.deepStrictEqual([first.number, second.number, other.number], [1, 2, 1])
        assert.deepStrictEqual(some(yield* repo.find("cr-n-1")), { ...make("cr-n-1", "cr-n-space", { agentTaskId: "task-1", contributors: ["user-b"] }), number: 1, description: null, links: [], comments: 0, conflicts: null, conflictsFound: null, mergedBy: null, mergedAt: null })
        assert.strictEqual(some(yield* repo.findByNumber("cr-n-space", 2)).id, "cr-n-2")
        assertNone(yield* repo.findByNumber("cr-n-space", 3))
        assertNone(yield* repo.find("cr-n-missing"))
      }))

    it.effect("stores a description and links, replaces them, and clears the description", () =>
      Effect.gen(function*() {
        const repo = yield* ChangeRequestsRepo
        yield* repo.insert(make("cr-d-1", "cr-d-space"))
        const description = "Why: the *export* page was wrong.\n\n- one\n- two ünïcode \u{1F600}\n"
        const links: ReadonlyArray<ChangeRequestLink> = [{ id: "l1", url: "https://tracker.example/1", title: "Issue 1" }, { id: "l2", url: "https://tracker.example/2" }]
        const patched = some(yield* repo.update("cr-d-1", { description, links, updatedAt: at(2) }))
        assert.strictEqual(patched.description, description)
        assert.deepStrictEqual(patched.links, links)
        const read = some(yield* repo.find("cr-d-1"))
        assert.strictEqual(read.description, description)
        assert.deepStrictEqual(read.links, links)
        assert.deepStrictEqual(read.updatedAt, at(2))
        // A patch of other fields leaves them as they were.
        assert.strictEqual(some(yield* repo.update("cr-d-1", { subject: "Renamed" })).description, description)
        const cleared = some(yield* repo.update("cr-d-1", { description: null, links: [links[1]!] }))
        assert.isNull(cleared.description)
        assert.deepStrictEqual(some(yield* repo.find("cr-d-1")).links, [links[1]!])
        assert.isNull(some(yield* repo.find("cr-d-1")).description)
      }))

    it.effect("counts open comments on the change request, never below zero", () =>
      Effect.gen(function*() {
        const repo = yield* ChangeRequestsRepo
        yield* repo.insert(make("cr-cc-1", "cr-cc-space"))
        yield* repo.addToComments("cr-cc-1", 2)
        yield* repo.addToComments("cr-cc-1", -1)
        assert.strictEqual(some(yield* repo.find("cr-cc-1")).comments, 1)
        yield* repo.addToComments("cr-cc-1", -5)
        assert.strictEqual(some(yield* repo.find("cr-cc-1")).comments, 0)
      }))

    it.effect("gives concurrent inserts distinct numbers", () =>
      Effect.gen(function*() {
        const repo = yield* ChangeRequestsRepo
        const created = yield* Effect.forEach(
          Array.from({ length: 8 }, (_, i) => make(`cr-c-${i}`, "cr-c-space")),
          (cr) => repo.insert(cr),
          { concurrency: "unbounded" }
        )
        assert.deepStrictEqual(created.map((cr) => cr.number).toSorted((a, b) => a - b), [1, 2, 3, 4, 5, 6, 7, 8])
      }))

    it.effect("lists newest first with status, creator and contributor filters, keyset-paginated", () =>
      Effect.gen(function*() {
        const repo = yield* ChangeRequestsRepo
        yield* repo.insert(make("cr-l-1", "cr-l-space", { status: "open" }))
        yield* repo.insert(make("cr-l-2", "cr-l-space", { status: "open", createdBy: "user-b" }))
        yield* repo.insert(make("cr-l-3", "cr-l-space"))
        yield* repo.insert(make("cr-l-4", "cr-l-space", { status: "open" }))
        yield* repo.addContributor("cr-l-1", "user-c")
        yield* repo.addContributor("cr-l-1", "user-c")
        yield* repo.addContributor("cr-l-1", "user-d")
        const first = yield* repo.list({ spaceId: "cr-l-space", statuses: ["open"] }, undefined, 2)
        assert.deepStrictEqual(ids(first), ["cr-l-4", "cr-l-2"])
        const rest = yield* repo.list({ spaceId: "cr-l-space", statuses: ["open"] }, yield* Pagination.decodeCursor(first.next!), 2)
        assert.deepStrictEqual(ids(rest), ["cr-l-1"])
        assert.isUndefined(rest.next)
        assert.deepStrictEqual(ids(yield* repo.list({ spaceId: "cr-l-space" }, undefined, 10)), ["cr-l-4", "cr-l-3", "cr-l-2", "cr-l-1"])
        assert.deepStrictEqual(ids(yield* repo.list({ spaceId: "cr-l-space", creator: "user-b" }, undefined, 10)), ["cr-l-2"])
        assert.deepStrictEqual(ids(yield* repo.list({ spaceId: "cr-l-space", contributor: "user-c" }, undefined, 10)), ["cr-l-1"])
        assert.deepStrictEqual(ids(yield* repo.list({ spaceId: "cr-l-space", statuses: ["open", "draft"] }, undefined, 10)), ["cr-l-4", "cr-l-3", "cr-l-2", "cr-l-1"])
        assert.deepStrictEqual(ids(yield* repo.list({ spaceId: "cr-l-space", statuses: [] }, undefined, 10)), [])
        assert.deepStrictEqual(ids(yield* repo.list({ spaceId: "cr-l-space", ids: ["cr-l-3", "cr-l-1", "cr-x"] }, undefined, 10)), ["cr-l-3", "cr-l-1"])
        assert.deepStrictEqual(ids(yield* repo.list({ spaceId: "cr-l-space", ids: [] }, undefined, 10)), [])
        assert.deepStrictEqual(some(yield* repo.find("cr-l-1")).contributors, ["user-c", "user-d"])
      }))

    it.effect("lists several spaces' change requests most recent first (ties by id), filtered, keyset-paginated", () =>
      Effect.gen(function*() {
        const repo = yield* ChangeRequestsRepo
        yield* repo.insert(make("cr-o-1", "cr-o-a", { status: "open", createdAt: at(1), updatedAt: at(9) }))
        yield* repo.insert(make("cr-o-2", "cr-o-b", { status: "open", createdAt: at(2), updatedAt: at(5), createdBy: "user-b" }))
        yield* repo.insert(make("cr-o-3", "cr-o-a", { status: "open", createdAt: at(3), updatedAt: at(5) }))
        yield* repo.insert(make("cr-o-4", "cr-o-c", { status: "open", createdAt: at(4), updatedAt: at(10) }))
        yield* repo.insert(make("cr-o-5", "cr-o-a", { createdAt: at(5), updatedAt: at(11) }))
        yield* repo.addContributor("cr-o-3", "user-c")
        const query = { spaceIds: ["cr-o-a", "cr-o-b"], statuses: ["open"], orderBy: "updatedAt" } as const
        const first = yield* repo.listInSpaces(query, undefined, 2)
        assert.deepStrictEqual(ids(first), ["cr-o-1", "cr-o-3"])
        const rest = yield* repo.listInSpaces(query, yield* Pagination.decodeCursor(first.next!), 2)
        assert.deepStrictEqual(ids(rest), ["cr-o-2"])
        assert.isUndefined(rest.next)
        assert.deepStrictEqual(ids(yield* repo.listInSpaces({ ...query, orderBy: "createdAt" }, undefined, 10)), ["cr-o-3", "cr-o-2", "cr-o-1"])
        assert.deepStrictEqual(ids(yield* repo.listInSpaces({ ...query, statuses: ["draft"] }, undefined, 10)), ["cr-o-5"])
        assert.deepStrictEqual(ids(yield* repo.listInSpaces({ ...query, statuses: ["draft", "open"] }, undefined, 10)), ["cr-o-5", "cr-o-1", "cr-o-3", "cr-o-2"])
        assert.deepStrictEqual(ids(yield* repo.listInSpaces({ ...query, statuses: [] }, undefined, 10)), [])
        assert.deepStrictEqual(ids(yield* repo.listInSpaces({ ...query, creator: "user-b" }, undefined, 10)), ["cr-o-2"])
        assert.deepStrictEqual(ids(yield* repo.listInSpaces({ ...query, contributor: "user-c" }, undefined, 10)), ["cr-o-3"])
        assert.deepStrictEqual(ids(yield* repo.listInSpaces({ ...query, ids: ["cr-o-2", "cr-o-4"] }, undefined, 10)), ["cr-o-2"])
        assert.deepStrictEqual(ids(yield* repo.listInSpaces({ ...query, ids: [] }, undefined, 10)), [])
        assert.deepStrictEqual(ids(yield* repo.listInSpaces({ ...query, spaceIds: [] }, undefined, 10)), [])
      }))

    it.effect("moves status and revision only from the expected value", () =>
      Effect.gen(function*() {
        const repo = yield* ChangeRequestsRepo
        yield* repo.insert(make("cr-s-1", "cr-s-space"))
        const opened = some(yield* repo.setStatus("cr-s-1", "draft", "open", at(5)))
        assert.deepStrictEqual([opened.status, opened.updatedAt], ["open", at(5)])
        assertNone(yield* repo.setStatus("cr-s-1", "draft", "archived", at(6)))
        assert.isTrue(yield* repo.setRevision("cr-s-1", "cr-s-space-r1", "cr-s-space-r2", at(7)))
        assert.isFalse(yield* repo.setRevision("cr-s-1", "cr-s-space-r1", "cr-s-space-r3", at(8)))
        assert.deepStrictEqual([opened.mergedBy, opened.mergedAt], [null, null])
        const patched = some(yield* repo.update("cr-s-1", { subject: "New", revisionMerged: "m1", mergedBy: "user-m", mergedAt: at(9), updatedAt: at(9) }))
        assert.deepStrictEqual(
          [patched.subject, patched.revision, patched.revisionMerged, patched.status, patched.updatedAt, patched.mergedBy, patched.mergedAt],
          ["New", "cr-s-space-r2", "m1", "open", at(9), "user-m", at(9)]
        )
        assert.deepStrictEqual([some(yield* repo.find("cr-s-1")).mergedBy, some(yield* repo.find("cr-s-1")).mergedAt], ["user-m", at(9)])
        assertNone(yield* repo.update("cr-s-missing", { subject: "x" }))
        assert.strictEqual(some(yield* repo.findMergedInto("cr-s-space", "m1")).id, "cr-s-1")
        assertNone(yield* repo.findMergedInto("cr-s-other", "m1"))
        assertNone(yield* repo.findMergedInto("cr-s-space", "m2"))
      }))

    it.effect("stores the conflicts of a change request, with the revisions they were found between, and clears them", () =>
      Effect.gen(function*() {
        const repo = yield* ChangeRequestsRepo
        yield* repo.insert(make("cr-x-1", "cr-x-space"))
        const conflicts = [
          { id: "c1", pageId: "p1", path: "intro", kind: "content" as const, hunk: 0, hunks: [{ base: "a\n", ours: "b\n", theirs: "c\n" }] },
          { id: "c2", pageId: "p2", path: "guide", kind: "metadata" as const, field: "title", ours: "\"Main\"", theirs: "\"Mine\"" }
        ]
        const stored = some(yield* repo.setConflicts("cr-x-1", { conflicts, main: "main-r2", head: "cr-x-space-r1" }))
        assert.deepStrictEqual([stored.conflicts, stored.conflictsFound], [conflicts, { main: "main-r2", head: "cr-x-space-r1" }])
        const found = some(yield* repo.find("cr-x-1"))
        assert.deepStrictEqual([found.conflicts, found.conflictsFound], [conflicts, { main: "main-r2", head: "cr-x-space-r1" }])
        const cleared = some(yield* repo.setConflicts("cr-x-1", null))
        assert.deepStrictEqual([cleared.conflicts, cleared.conflictsFound], [null, null])
        assert.isNull(some(yield* repo.find("cr-x-1")).conflictsFound)
        assertNone(yield* repo.setConflicts("cr-x-missing", null))
      }))
  })
