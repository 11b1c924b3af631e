/** `quire cr review` and `quire cr reviewers` against a real server (memory backend): a review gating a merge. */
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { ChangeRequestReview } from "@quire/api"
import { memory, spaceWith } from "@quire/server/test/Harness"
import { decodeJson, quireAs, rowWith } from "./Quire.ts"

layer(memory.layer, { timeout: 120_000, excludeTestServices: true })("quire cr review", (it) => {
  it.effect("a writer asks for a review, the merge waits for the approval, the reviewer approves with a comment, the merge goes through", () =>
    Effect.gen(function*() {
      const setup = yield* spaceWith(["edit", "review", "read"])
      const spaceId = setup.space.id
      const editor = setup.members.edit!
      const reviewer = setup.members.review!
      yield* setup.alice.api.spaces.updateSpaceById({
        params: { spaceId },
        payload: { mergeRules: { type: "rules", rules: [{ rule: "require_at_least_one_approved_review" }] } }
      })
      const cr = yield* editor.api.changeRequests.createChangeRequest({ params: { spaceId }, payload: { subject: "Quickstart" } })
      yield* editor.api.changeRequestContent.updateChangeRequestContent({
        params: { spaceId, changeRequestId: cr.id },
        payload: { changes: [{ operation: "insert_page", title: "Quickstart", document: { markdown: "Run it." } }] }
      })
      const number = String(cr.number)
      const asEditor = quireAs(editor.token)
      const asReviewer = quireAs(reviewer.token)
      const asAlice = quireAs(setup.alice.token)

      const nobody = yield* asEditor("cr", "reviewers", spaceId, number)
      assert.strictEqual(nobody.status, 0, nobody.stderr)
      assert.include(nobody.stdout, "Nobody is asked to review")
      const asked = yield* asEditor("cr", "reviewers", spaceId, number, "--add", reviewer.user.id, "--add", setup.alice.user.id)
      assert.strictEqual(asked.status, 0, asked.stderr)
      assert.include(rowWith(asked.stdout, reviewer.user.id), editor.user.displayName)
      assert.include(asked.stdout, setup.alice.user.id)
      const withdrawn = yield* asEditor("cr", "reviewers", spaceId, number, "--remove", setup.alice.user.id)
      assert.strictEqual(withdrawn.status, 0, withdrawn.stderr)
      assert.notInclude(withdrawn.stdout, setup.alice.user.id)
      assert.include(withdrawn.stdout, reviewer.user.id)
      const readerAsks = yield* asEditor("cr", "reviewers", spaceId, number, "--add", setup.members.read!.user.id)
      assert.strictEqual(readerAsks.status, 1)
      assert.include(readerAsks.stderr, "users[0]")

      // cr get says who is asked and what the merge waits for.
      const waiting = yield* asAlice("cr", "get", spaceId, number)
      assert.strictEqual(waiting.status, 0, waiting.stderr)
      assert.match(waiting.stdout, /^reviews: none$/m)
      assert.match(waiting.stdout, new RegExp(`^waiting for a review:\\n  ${reviewer.user.displayName}\\s+asked by ${editor.user.displayName}`, "m"))
      assert.match(waiting.stdout, /^merge: blocked\n {2}- This change request needs an approved review of its latest revision\.$/m)

      const refused = yield* asAlice("cr", "merge", spaceId, number)
      assert.strictEqual(refused.status, 1)
      assert.include(refused.stderr, "needs an approved review of its latest revision")

      const none = yield* asReviewer("cr", "review", spaceId, number)
      assert.strictEqual(none.status, 0, none.stderr)
      assert.include(none.stdout, "No reviews of change request")
      const both = yield* asReviewer("cr", "review", spaceId, number, "--approve", "--request-changes")
      assert.strictEqual(both.status, 1)
      assert.include(both.stderr, "not both")
      const byReader = yield* quireAs(setup.members.read!.token)("cr", "review", spaceId, number, "--approve")
      assert.strictEqual(byReader.status, 1)
      assert.include(byReader.stderr, "review change requests")

      const changes = yield* asReviewer("cr", "review", spaceId, number, "--request-changes", "--comment", "Say which version.")
      assert.strictEqual(changes.status, 0, changes.stderr)
      assert.include(changes.stdout, `Requested changes on change request ${number}`)
      const approved = yield* asReviewer("cr", "review", spaceId, number, "--approve", "--comment", "LGTM", "--json").pipe(
        Effect.flatMap(decodeJson(ChangeRequestReview))
      )
      assert.strictEqual(approved.status, "approved")
      assert.strictEqual(approved.comment?.body.markdown, "LGTM")
      assert.strictEqual(approved.outdated, false)

      const listed = yield* asEditor("cr", "review", spaceId, number)
      assert.strictEqual(listed.status, 0, listed.stderr)
      assert.include(rowWith(listed.stdout, approved.id), "approved")
      assert.include(rowWith(listed.stdout, "changes-requested"), "Say which version.")
      // The reviewer's review cleared their request.
      assert.include((yield* asEditor("cr", "reviewers", spaceId, number)).stdout, "Nobody is asked to review")

      const ready = (yield* asAlice("cr", "get", spaceId, number)).stdout
      assert.match(ready, new RegExp(`^reviews:\\n  ${reviewer.user.displayName}\\s+changes requested .*\\n  ${reviewer.user.displayName}\\s+approved `, "m"))
      assert.notInclude(ready, "waiting for a review")
      assert.match(ready, new RegExp(`^merge: ready \\(quire cr merge ${spaceId} ${number}\\)$`, "m"))

      const merged = yield* asAlice("cr", "merge", spaceId, number)
      assert.strictEqual(merged.status, 0, merged.stderr)
      assert.include(merged.stdout, "Merged change request")
    }))

  it.effect("help names both commands and their flags", () =>
    Effect.gen(function*() {
      const as = quireAs("unused")
      const help = yield* as("cr", "--help")
      assert.include(help.stdout, "review")
      assert.include(help.stdout, "reviewers")
      const reviewHelp = yield* as("cr", "review", "--help")
      for (const flag of ["--approve", "--request-changes", "--comment"]) assert.include(reviewHelp.stdout, flag)
      const reviewersHelp = yield* as("cr", "reviewers", "--help")
      for (const flag of ["--add", "--remove"]) assert.include(reviewersHelp.stdout, flag)
    }))
})
