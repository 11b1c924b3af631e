/**
 * Change-request reviews, requested reviewers, contributors, commenters and the merge rules of a
 * space, through the real router and the typed client, on every backend.
 */
import { assert, layer } from "@effect/vitest"
import { GitBookAPI } from "@gitbook/api"
import { Effect } from "effect"
import { adminToken, backends, baseUrl, errorCode, errorMessage, newUser, raw, spaceWith } from "./Harness.ts"

/** The part of GitBook's own client used here (its published typings do not resolve under NodeNext). */
interface GitBookReviews {
  readonly spaces: {
    requestReviewersForChangeRequest(spaceId: string, changeRequestId: string, body: { users: Array<string> }): Promise<{
      data: { users: Array<{ user: { id: string }; kind: string }> }
    }>
    getRequestedReviewersByChangeRequestId(spaceId: string, changeRequestId: string): Promise<{ data: { items: Array<{ user: { id: string } }> } }>
    submitChangeRequestReview(spaceId: string, changeRequestId: string, body: { status: string; comment?: { markdown: string } }): Promise<{
      status: number
      data: { id: string; status: string; outdated: boolean; comment?: { body: { markdown: string } } }
    }>
    getReviewsByChangeRequestId(spaceId: string, changeRequestId: string): Promise<{ data: { items: Array<{ id: string; reviewer: { id: string } }> } }>
    getChangeRequestReviewById(spaceId: string, changeRequestId: string, reviewId: string): Promise<{ data: { id: string; status: string } }>
    removeRequestedReviewerFromChangeRequest(spaceId: string, changeRequestId: string, userId: string): Promise<{ status: number }>
    getContributorsByChangeRequestId(spaceId: string, changeRequestId: string): Promise<{ data: { items: Array<{ actionType: string; user: { id: string } }> } }>
    listCommentersInChangeRequest(spaceId: string, changeRequestId: string): Promise<{ data: { items: Array<{ user: { id: string } }> } }>
  }
}

/**
 * A space with a member of each of `roles` (an editor among them), and a change request `subject`
 * the editor opened and wrote page `title` in.
 */
const editorsChangeRequest = Effect.fnUntraced(function*(
  roles: ReadonlyArray<"edit" | "review" | "read">,
  subject: string,
  title: string,
  markdown: string
) {
  const setup = yield* spaceWith(roles)
  const spaceId = setup.space.id
  const editor = setup.members.edit!
  const writer = on(editor.api, spaceId)
  const cr = yield* writer.open(subject)
  yield* writer.edit(cr.id, title, markdown)
  return { setup, spaceId, editor, writer, cr }
})

const gitbook = (endpoint: string, token: string) => new GitBookAPI({ endpoint, authToken: token }) as unknown as GitBookReviews

type Setup = Effect.Success<ReturnType<typeof spaceWith>>
type Client = Setup["alice"]["api"]

const insert = (title: string, markdown: string) => ({ operation: "insert_page" as const, title, document: { markdown } })

/** Helpers over one space, acting as `api`. */
const on = (api: Client, spaceId: string) => {
  const params = (changeRequestId: string) => ({ spaceId, changeRequestId })
  return {
    open: (subject: string) => api.changeRequests.createChangeRequest({ params: { spaceId }, payload: { subject } }),
    edit: (cr: string, title: string, markdown: string) =>
      api.changeRequestContent.updateChangeRequestContent({ params: params(cr), payload: { changes: [insert(title, markdown)] } }),
    merge: (cr: string) => api.changeRequests.mergeChangeRequest({ params: params(cr) }),
    head: (cr: string) => Effect.map(api.changeRequests.getChangeRequestById({ params: params(cr) }), (found) => found.revision),
    review: (cr: string, status: "approved" | "changes-requested", comment?: string) =>
      api.changeRequestReviews.submitChangeRequestReview({
        params: params(cr),
        payload: { status, ...(comment === undefined ? {} : { comment: { markdown: comment } }) }
      }),
    reviews: (cr: string, outdated?: boolean) =>
      api.changeRequestReviews.getReviewsByChangeRequestId({ params: params(cr), query: outdated === undefined ? {} : { outdated } }),
    request: (cr: string, users: ReadonlyArray<string>) =>
      api.changeRequestReviews.requestReviewersForChangeRequest({ params: params(cr), payload: { users } }),
    requested: (cr: string) =>
      Effect.map(
        api.changeRequestReviews.getRequestedReviewersByChangeRequestId({ params: params(cr), query: {} }),
        (list) => list.items.map((r) => r.user.id)
      ),
    rules: (mergeRules: NonNullable<Parameters<Client["spaces"]["updateSpaceById"]>[0]["payload"]["mergeRules"]>) =>
      api.spaces.updateSpaceById({ params: { spaceId }, payload: { mergeRules } })
  }
}

for (const backend of backends) {
  layer(backend.layer, { timeout: 120_000, excludeTestServices: true })(`change request reviews API on ${backend.name}`, (it) => {
    it.effect("a reviewer approves the head with a comment; the review is listed and read back, and outdated after a new edit", () =>
      Effect.gen(function*() {
        const { cr, setup, spaceId, writer } = yield* editorsChangeRequest(["edit", "review"], "Guide", "Guide", "Install it.")
        const reviewer = on(setup.members.review!.api, spaceId)
        const head = yield* writer.head(cr.id)

        const review = yield* reviewer.review(String(cr.number), "approved", "Reads **well**.")
        assert.strictEqual(review.object, "change-request-review")
        assert.strictEqual(review.status, "approved")
        assert.strictEqual(review.revision, head)
        assert.strictEqual(review.outdated, false)
        assert.strictEqual(review.reviewer.id, setup.members.review!.user.id)
        assert.isUndefined(review.requestedBy)
        assert.strictEqual(review.comment?.body.markdown, "Reads **well**.")
        assert.strictEqual(review.comment?.target.changeRequest, cr.id)
        assert.isTrue(review.urls.location.endsWith(`/v1/spaces/${spaceId}/change-requests/${cr.id}/reviews/${review.id}`))

        // The review's comment is one of the change request's comments.
        const comments = yield* setup.alice.api.changeRequestComments.listCommentsInChangeRequest({
          params: { spaceId, changeRequestId: cr.id },
          query: {}
        })
        assert.deepStrictEqual(comments.items.map((c) => c.body.markdown), ["Reads **well**."])

        const listed = yield* writer.reviews(cr.id)
        assert.deepStrictEqual(listed.items.map((r) => [r.id, r.status, r.outdated]), [[review.id, "approved", false]])
        assert.strictEqual(listed.count, 1)
        const got = yield* setup.alice.api.changeRequestReviews.getChangeRequestReviewById({
          params: { spaceId, changeRequestId: cr.id, reviewId: review.id },
          query: {}
        })
        // The comment's permissions are the reader's (Alice may not edit the reviewer's comment).
        assert.deepStrictEqual({ ...got, comment: got.comment?.id }, { ...review, comment: review.comment?.id })
        assert.strictEqual(got.comment?.permissions.edit, false)

        yield* writer.edit(cr.id, "More", "A second page.")
        const later = yield* writer.reviews(cr.id)
        assert.deepStrictEqual(later.items.map((r) => [r.id, r.outdated]), [[review.id, true]])
        assert.deepStrictEqual((yield* writer.reviews(cr.id, true)).items.map((r) => r.id), [review.id])
        assert.deepStrictEqual((yield* writer.reviews(cr.id, false)).items, [])
        const second = yield* reviewer.review(cr.id, "changes-requested")
        assert.isUndefined(second.comment)
        assert.deepStrictEqual((yield* writer.reviews(cr.id, false)).items.map((r) => [r.id, r.status]), [[second.id, "changes-requested"]])
        const paged = yield* setup.alice.api.changeRequestReviews.getReviewsByChangeRequestId({
          params: { spaceId, changeRequestId: cr.id },
          query: { limit: 1 }
        })
        assert.deepStrictEqual(paged.items.map((r) => r.id), [review.id])
        const rest = yield* setup.alice.api.changeRequestReviews.getReviewsByChangeRequestId({
          params: { spaceId, changeRequestId: cr.id },
          query: { limit: 1, page: paged.next!.page }
        })
        assert.deepStrictEqual(rest.items.map((r) => r.id), [second.id])
      }))

    it.effect("a reader cannot review, the author cannot review their own change request, an outsider sees nothing, bad input is a 400", () =>
      Effect.gen(function*() {
        const { cr, setup, spaceId, writer } = yield* editorsChangeRequest(["edit", "read"], "Mine", "Page", "Text.")

        const byReader = yield* on(setup.members.read!.api, spaceId).review(cr.id, "approved").pipe(Effect.flip)
        assert.strictEqual(errorCode(byReader), 403)
        const byAdmin = yield* on(setup.alice.api, spaceId).review(cr.id, "approved")
        assert.strictEqual(byAdmin.reviewer.id, setup.alice.user.id, "an admin who did not write it may review it")
        // Even an admin cannot review a change request of their own.
        const aliceCr = yield* on(setup.alice.api, spaceId).open("Alice's")
        const own = yield* on(setup.alice.api, spaceId).review(aliceCr.id, "approved").pipe(Effect.flip)
        assert.strictEqual(errorCode(own), 400)
        assert.include(errorMessage(own), "author")

        const outsider = yield* newUser("Mallory")
        const outsiderList = yield* on(outsider.api, spaceId).reviews(cr.id).pipe(Effect.flip)
        assert.strictEqual(errorCode(outsiderList), 404)
        const outsiderReview = yield* on(outsider.api, spaceId).review(cr.id, "approved").pipe(Effect.flip)
        assert.strictEqual(errorCode(outsiderReview), 404)
        const outsiderGet = yield* outsider.api.changeRequestReviews.getChangeRequestReviewById({
          params: { spaceId, changeRequestId: cr.id, reviewId: byAdmin.id },
          query: {}
        }).pipe(Effect.flip)
        assert.strictEqual(errorCode(outsiderGet), 404)
        const missing = yield* setup.alice.api.changeRequestReviews.getChangeRequestReviewById({
          params: { spaceId, changeRequestId: cr.id, reviewId: "nope" },
          query: {}
        }).pipe(Effect.flip)
        assert.strictEqual(errorCode(missing), 404)
        // A review of another change request is not found through this one.
        const elsewhere = yield* setup.alice.api.changeRequestReviews.getChangeRequestReviewById({
          params: { spaceId, changeRequestId: aliceCr.id, reviewId: byAdmin.id },
          query: {}
        }).pipe(Effect.flip)
        assert.strictEqual(errorCode(elsewhere), 404)

        const path = `/v1/spaces/${spaceId}/change-requests/${cr.id}/reviews`
        const badStatus = yield* raw("POST", path, { token: adminToken, body: JSON.stringify({ status: "comment" }) })
        assert.strictEqual(badStatus.status, 400)
        assert.include(errorMessage(badStatus.body), "status")
        const badComment = yield* raw("POST", path, { token: adminToken, body: JSON.stringify({ status: "approved", comment: { markdown: "" } }) })
        assert.strictEqual(badComment.status, 400)
        assert.include(errorMessage(badComment.body), "comment")
        const noStatus = yield* raw("POST", path, { token: adminToken, body: "{}" })
        assert.strictEqual(noStatus.status, 400)
        assert.include(errorMessage(noStatus.body), "status")
        // Nothing was stored by the refused reviews.
        assert.deepStrictEqual((yield* writer.reviews(cr.id)).items.map((r) => r.id), [byAdmin.id])

        // A merged change request is no longer reviewed.
        yield* on(setup.alice.api, spaceId).merge(cr.id)
        const afterMerge = yield* on(setup.alice.api, spaceId).review(cr.id, "approved").pipe(Effect.flip)
        assert.strictEqual(errorCode(afterMerge), 400)
      }))

    it.effect("reviewers are requested among members who may review; a review clears the request; requests are withdrawn", () =>
      Effect.gen(function*() {
        const { cr, editor, setup, spaceId, writer } = yield* editorsChangeRequest(["edit", "review", "read"], "Please review", "Page", "Text.")
        const reviewerUser = setup.members.review!

        const requested = yield* writer.request(cr.id, [reviewerUser.user.id, setup.alice.user.id, reviewerUser.user.id])
        assert.deepStrictEqual(requested.users.map((r) => [r.object, r.kind, r.user.id, r.requestedBy.id]), [
          ["change-request-requested-reviewer", "user", reviewerUser.user.id, editor.user.id],
          ["change-request-requested-reviewer", "user", setup.alice.user.id, editor.user.id]
        ])
        assert.strictEqual(requested.users[0]!.revision, yield* writer.head(cr.id))
        assert.deepStrictEqual(yield* writer.requested(cr.id), [reviewerUser.user.id, setup.alice.user.id].toSorted())

        const reader = yield* writer.request(cr.id, [reviewerUser.user.id, setup.members.read!.user.id]).pipe(Effect.flip)
        assert.strictEqual(errorCode(reader), 400)
        assert.include(errorMessage(reader), "users[1]")
        const outsider = yield* newUser("Mallory")
        const notMember = yield* writer.request(cr.id, [outsider.user.id]).pipe(Effect.flip)
        assert.strictEqual(errorCode(notMember), 400)
        assert.include(errorMessage(notMember), "users[0]")
        const author = yield* writer.request(cr.id, [editor.user.id]).pipe(Effect.flip)
        assert.strictEqual(errorCode(author), 400)
        assert.include(errorMessage(author), "users[0]")
        const byReader = yield* on(setup.members.read!.api, spaceId).request(cr.id, [reviewerUser.user.id]).pipe(Effect.flip)
        assert.strictEqual(errorCode(byReader), 403)
        const byOutsider = yield* on(outsider.api, spaceId).request(cr.id, [reviewerUser.user.id]).pipe(Effect.flip)
        assert.strictEqual(errorCode(byOutsider), 404)
        const empty = yield* raw("POST", `/v1/spaces/${spaceId}/change-requests/${cr.id}/requested-reviewers`, {
          token: adminToken,
          body: JSON.stringify({ users: [] })
        })
        assert.strictEqual(empty.status, 400)
        assert.include(errorMessage(empty.body), "users")

        const review = yield* on(reviewerUser.api, spaceId).review(cr.id, "changes-requested", "Fix the intro")
        assert.strictEqual(review.requestedBy?.id, editor.user.id)
        assert.deepStrictEqual(yield* writer.requested(cr.id), [setup.alice.user.id])

        const location = `/v1/spaces/${spaceId}/change-requests/${cr.id}/requested-reviewers/${setup.alice.user.id}`
        const removed = yield* raw("DELETE", location, { token: editor.token })
        assert.strictEqual(removed.status, 205)
        assert.deepStrictEqual(yield* writer.requested(cr.id), [])
        const again = yield* raw("DELETE", location, { token: editor.token })
        assert.strictEqual(again.status, 204)
        // The typed client reads both answers.
        yield* writer.request(cr.id, [setup.alice.user.id])
        yield* editor.api.changeRequestReviews.removeRequestedReviewerFromChangeRequest({
          params: { spaceId, changeRequestId: cr.id, userId: setup.alice.user.id }
        })
        assert.deepStrictEqual(yield* writer.requested(cr.id), [])
        // A reader may not withdraw someone's request; the subject can change with a request.
        yield* writer.request(cr.id, [reviewerUser.user.id])
        const readerRemoves = yield* raw("DELETE", `/v1/spaces/${spaceId}/change-requests/${cr.id}/requested-reviewers/${reviewerUser.user.id}`, {
          token: setup.members.read!.token
        })
        assert.strictEqual(readerRemoves.status, 403)
        yield* editor.api.changeRequestReviews.requestReviewersForChangeRequest({
          params: { spaceId, changeRequestId: cr.id },
          payload: { users: [reviewerUser.user.id], subject: "Please review again" }
        })
        const renamed = yield* editor.api.changeRequests.getChangeRequestById({ params: { spaceId, changeRequestId: cr.id } })
        assert.strictEqual(renamed.subject, "Please review again")
        assert.deepStrictEqual(yield* writer.requested(cr.id), [reviewerUser.user.id])
      }))

    it.effect("merge rules: a merge without an approval of the latest revision is refused, and goes through once it has one", () =>
      Effect.gen(function*() {
        const setup = yield* spaceWith(["edit", "review"])
        const spaceId = setup.space.id
        const admin = on(setup.alice.api, spaceId)
        const writer = on(setup.members.edit!.api, spaceId)
        const reviewer = on(setup.members.review!.api, spaceId)
        assert.deepStrictEqual(setup.space.mergeRules, { type: "inherit" })

        const updated = yield* admin.rules({ type: "rules", rules: [{ rule: "require_at_least_one_approved_review" }] })
        assert.deepStrictEqual(updated.mergeRules, { type: "rules", rules: [{ rule: "require_at_least_one_approved_review" }] })
        const read = yield* setup.members.edit!.api.spaces.getSpaceById({ params: { spaceId }, query: {} })
        assert.deepStrictEqual(read.mergeRules, updated.mergeRules)
        const byEditor = yield* writer.rules({ type: "none" }).pipe(Effect.flip)
        assert.strictEqual(errorCode(byEditor), 403)

        const cr = yield* writer.open("Needs approval")
        yield* writer.edit(cr.id, "Page", "Text.")
        const refused = yield* admin.merge(cr.id).pipe(Effect.flip)
        assert.strictEqual(errorCode(refused), 400)
        assert.include(errorMessage(refused), "needs an approved review of its latest revision")
        const changesRequested = yield* reviewer.review(cr.id, "changes-requested")
        assert.strictEqual(changesRequested.status, "changes-requested")
        assert.strictEqual(errorCode(yield* admin.merge(cr.id).pipe(Effect.flip)), 400)
        yield* reviewer.review(cr.id, "approved")
        // An edit after the approval makes it outdated: the merge is refused again until the head is approved.
        yield* writer.edit(cr.id, "Late", "A late page.")
        const stale = yield* admin.merge(cr.id).pipe(Effect.flip)
        assert.include(errorMessage(stale), "latest revision")
        const unchanged = yield* admin.reviews(cr.id)
        assert.deepStrictEqual(unchanged.items.map((r) => r.outdated), [true, true])
        yield* reviewer.review(cr.id, "approved")
        const merged = yield* admin.merge(cr.id)
        assert.strictEqual(merged.result, "merge")
        const main = yield* setup.alice.api.spaceContent.getCurrentRevision({ params: { spaceId }, query: {} })
        assert.deepStrictEqual(main.pages.map((p) => p.title).toSorted(), ["Late", "Page"])

        // Several rules: the first that fails names itself; allow_bypass lets its users merge anyway.
        yield* admin.rules({
          type: "rules",
          rules: [
            { rule: "require_change_request_subject" },
            { rule: "require_specific_reviewers", users: [setup.members.review!.user.id] },
            { rule: "require_all_reviews_approved" },
            { rule: "allow_bypass", users: [setup.members.review!.user.id] }
          ]
        })
        const untitled = yield* writer.open("")
        yield* writer.edit(untitled.id, "Other", "Other text.")
        assert.include(errorMessage(yield* admin.merge(untitled.id).pipe(Effect.flip)), "needs a subject")
        yield* setup.members.edit!.api.changeRequests.updateChangeRequestById({
          params: { spaceId, changeRequestId: untitled.id },
          payload: { subject: "Titled" }
        })
        yield* on(setup.alice.api, spaceId).review(untitled.id, "approved")
        const needsBob = yield* admin.merge(untitled.id).pipe(Effect.flip)
        assert.include(errorMessage(needsBob), "require_specific_reviewers")
        // The bypassing reviewer merges without their own approval.
        const bypassed = yield* reviewer.merge(untitled.id)
        assert.strictEqual(bypassed.result, "merge")

        // `none` and `inherit` merge without reviews.
        yield* admin.rules({ type: "none" })
        const free = yield* writer.open("Free")
        yield* writer.edit(free.id, "Free", "Free text.")
        assert.strictEqual((yield* admin.merge(free.id)).result, "merge")
      }))

    it.effect("merge rules the API cannot take are a 400 naming the field", () =>
      Effect.gen(function*() {
        const setup = yield* spaceWith()
        const path = `/v1/spaces/${setup.space.id}`
        const patch = (mergeRules: unknown) => raw("PATCH", path, { token: setup.alice.token, body: JSON.stringify({ mergeRules }) })
        for (const mergeRules of [
          { type: "rules", rules: [{ rule: "require_everything" }] },
          { type: "rules", rules: [{ rule: "require_specific_reviewers" }] },
          { type: "sometimes" }
        ]) {
          const refused = yield* patch(mergeRules)
          assert.strictEqual(refused.status, 400, JSON.stringify(mergeRules))
          assert.include(errorMessage(refused.body), "mergeRules", JSON.stringify(mergeRules))
        }
        const agent = yield* patch({ type: "rules", rules: [{ rule: "require_at_least_one_review" }, { rule: "require_agent_review" }] })
        assert.strictEqual(agent.status, 400)
        assert.include(errorMessage(agent.body), "mergeRules.rules[1]")
        // GitBook's limit on a custom rule's expression: 1,024 characters.
        const long = yield* patch({ type: "rules", rules: [{ rule: "custom", expression: `true && ${"true || ".repeat(130)}true` }] })
        assert.strictEqual(long.status, 400)
        assert.include(errorMessage(long.body), "mergeRules.rules[0].expression")
        assert.include(errorMessage(long.body), "1024")
        const noUsers = yield* patch({ type: "rules", rules: [{ rule: "require_one_of_specific_reviewers", users: [] }] })
        assert.strictEqual(noUsers.status, 400)
        assert.include(errorMessage(noUsers.body), "mergeRules.rules[0].users")
        const space = yield* setup.alice.api.spaces.getSpaceById({ params: { spaceId: setup.space.id }, query: {} })
        assert.deepStrictEqual(space.mergeRules, { type: "inherit" })
      }))

    it.effect("an organization's merge rules: set by its admins alone, validated, read on the organization, and enforced on the spaces that inherit them", () =>
      Effect.gen(function*() {
        const setup = yield* spaceWith(["edit", "review", "create"])
        const organizationId = setup.organizationId
        const spaceId = setup.space.id
        const admin = on(setup.alice.api, spaceId)
        const writer = on(setup.members.edit!.api, spaceId)
        const reviewer = on(setup.members.review!.api, spaceId)
        const org = setup.alice.api.organizations
        assert.deepStrictEqual((yield* org.getOrganizationById({ params: { organizationId } })).mergeRules, { type: "none" })

        const rules = { type: "rules" as const, rules: [{ rule: "require_at_least_one_approved_review" as const }] }
        // Only an admin changes them: a member who may create content is refused, and nothing changes.
        for (const member of [setup.members.create!, setup.members.review!]) {
          const refused = yield* member.api.organizations.updateOrganizationById({ params: { organizationId }, payload: { mergeRules: rules } }).pipe(Effect.flip)
          assert.strictEqual(errorCode(refused), 403)
        }
        const path = `/v1/orgs/${organizationId}`
        const patch = (mergeRules: unknown) => raw("PATCH", path, { token: setup.alice.token, body: JSON.stringify({ mergeRules }) })
        // An organization has no `inherit`: its rules are the ones spaces inherit.
        for (const mergeRules of [{ type: "inherit" }, { type: "rules", rules: [{ rule: "require_everything" }] }]) {
          const refused = yield* patch(mergeRules)
          assert.strictEqual(refused.status, 400, JSON.stringify(mergeRules))
          assert.include(errorMessage(refused.body), "mergeRules", JSON.stringify(mergeRules))
        }
        const twice = yield* patch({ type: "rules", rules: [{ rule: "require_at_least_one_review" }, { rule: "require_at_least_one_review" }] })
        assert.strictEqual(twice.status, 400)
        assert.include(errorMessage(twice.body), "mergeRules.rules[1]")
        assert.deepStrictEqual((yield* org.getOrganizationById({ params: { organizationId } })).mergeRules, { type: "none" })

        const updated = yield* org.updateOrganizationById({ params: { organizationId }, payload: { mergeRules: rules } })
        assert.deepStrictEqual(updated.mergeRules, rules)
        assert.deepStrictEqual((yield* setup.members.edit!.api.organizations.getOrganizationById({ params: { organizationId } })).mergeRules, rules)

        // The space inherits (its own configuration unchanged): the merge needs an approval.
        const cr = yield* writer.open("Inherits")
        yield* writer.edit(cr.id, "Page", "Text.")
        const refused = yield* admin.merge(cr.id).pipe(Effect.flip)
        assert.strictEqual(errorCode(refused), 400)
        assert.include(errorMessage(refused), "needs an approved review of its latest revision")
        // Beforehand, the change request says the same: whose rules, and which block the merge.
        const checked = yield* setup.members.edit!.api.changeRequestReviews.getMergeRulesForChangeRequest({ params: { spaceId, changeRequestId: cr.id } })
        assert.strictEqual(checked.source, "organization")
        assert.deepStrictEqual(checked.rules, rules)
        assert.isFalse(checked.mergeable)
        assert.deepStrictEqual(checked.blockers.map((b) => [b.rule, b.index]), [["require_at_least_one_approved_review", 0]])
        assert.include(checked.blockers[0]!.message, "needs an approved review of its latest revision")
        // A space with its own rules (none) is not held by the organization's.
        const own = yield* setup.alice.api.spaces.createSpace({ params: { organizationId }, payload: { title: "Own rules" } })
        yield* setup.alice.api.spaces.updateSpaceById({ params: { spaceId: own.id }, payload: { mergeRules: { type: "none" } } })
        const free = on(setup.alice.api, own.id)
        const freeCr = yield* free.open("Free")
        yield* free.edit(freeCr.id, "Page", "Text.")
        assert.strictEqual((yield* free.merge(freeCr.id)).result, "merge")
        // Another organization's space, which inherits too, is held by its own organization's rules (none).
        const other = yield* spaceWith()
        const elsewhere = on(other.alice.api, other.space.id)
        const otherCr = yield* elsewhere.open("Elsewhere")
        yield* elsewhere.edit(otherCr.id, "Page", "Text.")
        assert.strictEqual((yield* elsewhere.merge(otherCr.id)).result, "merge")
        // Nor can its admin read or change this organization's rules.
        const foreign = yield* other.alice.api.organizations.updateOrganizationById({ params: { organizationId }, payload: { mergeRules: { type: "none" } } }).pipe(Effect.flip)
        assert.strictEqual(errorCode(foreign), 404)

        yield* reviewer.review(cr.id, "approved")
        const approved = yield* setup.alice.api.changeRequestReviews.getMergeRulesForChangeRequest({ params: { spaceId, changeRequestId: cr.id } })
        assert.isTrue(approved.mergeable)
        assert.deepStrictEqual(approved.blockers, [])
        assert.strictEqual((yield* admin.merge(cr.id)).result, "merge")
      }))

    it.effect("custom merge rules: GitBook's expression over the change request, its reviews and the actor decides, and a hostile one refuses the merge with its reason", () =>
      Effect.gen(function*() {
        const setup = yield* spaceWith(["create", "review"])
        const spaceId = setup.space.id
        const admin = on(setup.alice.api, spaceId)
        // An author who may merge (create), and a reviewer.
        const writer = on(setup.members.create!.api, spaceId)
        const reviewer = on(setup.members.review!.api, spaceId)
        const expression = "reviews.some((r) => r.status === 'approved' && !r.outdated && r.reviewer.id !== changeRequest.createdBy.id) && actor.id === changeRequest.createdBy.id"
        const custom = { rule: "custom" as const, expression, message: "The author merges once someone else approved" }
        const updated = yield* admin.rules({ type: "rules", rules: [custom] })
        assert.deepStrictEqual(updated.mergeRules, { type: "rules", rules: [custom] })

        const cr = yield* writer.open("Custom")
        yield* writer.edit(cr.id, "Page", "Text.")
        const unapproved = yield* writer.merge(cr.id).pipe(Effect.flip)
        assert.strictEqual(errorCode(unapproved), 400)
        assert.include(errorMessage(unapproved), "The author merges once someone else approved")
        assert.include(errorMessage(unapproved), "the expression is false")
        yield* reviewer.review(cr.id, "approved")
        // The admin is not the author: the expression is false for them.
        assert.strictEqual(errorCode(yield* admin.merge(cr.id).pipe(Effect.flip)), 400)
        // Checked beforehand for each caller, as their merge would be.
        const forAdmin = yield* setup.alice.api.changeRequestReviews.getMergeRulesForChangeRequest({ params: { spaceId, changeRequestId: cr.id } })
        assert.strictEqual(forAdmin.source, "space")
        assert.deepStrictEqual(forAdmin.blockers.map((b) => b.rule), ["custom"])
        assert.include(forAdmin.blockers[0]!.message, "The author merges once someone else approved (the expression is false)")
        const forAuthor = yield* setup.members.create!.api.changeRequestReviews.getMergeRulesForChangeRequest({ params: { spaceId, changeRequestId: cr.id } })
        assert.isTrue(forAuthor.mergeable)

        // A rule that loops, allocates without end or reaches for the host refuses the merge, never a 500.
        for (const [hostile, reason] of [
          ["while (true) {}", "took longer than its limit"],
          ["'x'.repeat(1e9).length > 0", "ran out of memory"],
          ["require('child_process').execSync('id') && true", "ReferenceError"],
          ["process.exit(1)", "ReferenceError"]
        ] as const) {
          yield* admin.rules({ type: "rules", rules: [custom, { rule: "custom", expression: hostile }] })
          const refused = yield* writer.merge(cr.id).pipe(Effect.flip)
          assert.strictEqual(errorCode(refused), 400, hostile)
          assert.include(errorMessage(refused), "A custom merge rule is not met", hostile)
          assert.include(errorMessage(refused), reason, hostile)
        }
        yield* admin.rules({ type: "rules", rules: [custom] })
        assert.strictEqual((yield* writer.merge(cr.id)).result, "merge")
      }))

    it.effect("contributors count edits and comments; commenters are the members who commented, in a space or a change request", () =>
      Effect.gen(function*() {
        const { cr, editor, setup, spaceId, writer } = yield* editorsChangeRequest(["edit", "review"], "Contributions", "One", "First.")
        const reviewerUser = setup.members.review!
        yield* writer.edit(cr.id, "Two", "Second.")
        yield* on(setup.alice.api, spaceId).edit(cr.id, "Three", "Third.")
        const params = { spaceId, changeRequestId: cr.id }
        const comment = yield* reviewerUser.api.changeRequestComments.postCommentInChangeRequest({ params, payload: { body: { markdown: "Hm" } } })
        yield* editor.api.changeRequestComments.postCommentReplyInChangeRequest({
          params: { ...params, commentId: comment.id },
          query: {},
          payload: { body: { markdown: "Fixed" } }
        })
        yield* on(reviewerUser.api, spaceId).review(cr.id, "approved", "Good now")
        yield* setup.alice.api.comments.postCommentInSpace({ params: { spaceId }, payload: { body: { markdown: "On main" } } })

        const contributors = yield* setup.members.edit!.api.changeRequestReviews.getContributorsByChangeRequestId({ params })
        const shown = contributors.items.map((c) => [c.actionType, c.user.id, c.count])
        assert.deepStrictEqual(shown.filter(([type]) => type === "edit"), [["edit", editor.user.id, 2], ["edit", setup.alice.user.id, 1]])
        assert.deepStrictEqual(
          shown.filter(([type]) => type === "comment").toSorted(),
          [["comment", editor.user.id, 1], ["comment", reviewerUser.user.id, 2]].toSorted()
        )
        assert.strictEqual(contributors.count, 4)
        assert.isTrue(contributors.items.every((c) => !Number.isNaN(Date.parse(c.updatedAt))))

        const inChangeRequest = yield* setup.alice.api.changeRequestReviews.listCommentersInChangeRequest({ params, query: {} })
        assert.deepStrictEqual(
          inChangeRequest.items.map((m) => [m.object, m.user.id, m.role]).toSorted(),
          [["member", editor.user.id, "edit"], ["member", reviewerUser.user.id, "review"]].toSorted()
        )
        const firstPage = yield* setup.alice.api.changeRequestReviews.listCommentersInChangeRequest({ params, query: { limit: 1 } })
        const secondPage = yield* setup.alice.api.changeRequestReviews.listCommentersInChangeRequest({
          params,
          query: { limit: 1, page: firstPage.next!.page }
        })
        assert.deepStrictEqual([...firstPage.items, ...secondPage.items].map((m) => m.id), inChangeRequest.items.map((m) => m.id))
        assert.isUndefined(secondPage.next)
        const inSpace = yield* editor.api.changeRequestReviews.listCommentersInSpace({ params: { spaceId }, query: {} })
        assert.deepStrictEqual(inSpace.items.map((m) => m.user.id), [setup.alice.user.id])

        const outsider = yield* newUser("Mallory")
        assert.strictEqual(errorCode(yield* outsider.api.changeRequestReviews.getContributorsByChangeRequestId({ params }).pipe(Effect.flip)), 404)
        assert.strictEqual(errorCode(yield* outsider.api.changeRequestReviews.listCommentersInSpace({ params: { spaceId }, query: {} }).pipe(Effect.flip)), 404)
        assert.strictEqual(errorCode(yield* outsider.api.changeRequestReviews.listCommentersInChangeRequest({ params, query: {} }).pipe(Effect.flip)), 404)
      }))

    it.effect("GitBook's own client requests a reviewer, submits a review and reads it back", () =>
      Effect.gen(function*() {
        const { cr, editor, setup, spaceId } = yield* editorsChangeRequest(["edit", "review"], "Through GitBook's client", "Page", "Text.")
        const reviewerUser = setup.members.review!
        const endpoint = yield* baseUrl
        const asEditor = gitbook(endpoint, editor.token)
        const asReviewer = gitbook(endpoint, reviewerUser.token)
        const answers = yield* Effect.promise(async () => {
          const requested = await asEditor.spaces.requestReviewersForChangeRequest(spaceId, cr.id, { users: [reviewerUser.user.id, setup.alice.user.id] })
          const removed = await asEditor.spaces.removeRequestedReviewerFromChangeRequest(spaceId, cr.id, setup.alice.user.id)
          const pending = await asEditor.spaces.getRequestedReviewersByChangeRequestId(spaceId, cr.id)
          const submitted = await asReviewer.spaces.submitChangeRequestReview(spaceId, cr.id, { status: "approved", comment: { markdown: "Ship it" } })
          const listed = await asEditor.spaces.getReviewsByChangeRequestId(spaceId, cr.id)
          const got = await asEditor.spaces.getChangeRequestReviewById(spaceId, cr.id, submitted.data.id)
          const afterReview = await asEditor.spaces.getRequestedReviewersByChangeRequestId(spaceId, cr.id)
          const contributors = await asEditor.spaces.getContributorsByChangeRequestId(spaceId, cr.id)
          const commenters = await asEditor.spaces.listCommentersInChangeRequest(spaceId, cr.id)
          return { requested, removed, pending, submitted, listed, got, afterReview, contributors, commenters }
        })
        assert.deepStrictEqual(answers.requested.data.users.map((r) => [r.kind, r.user.id]), [["user", reviewerUser.user.id], ["user", setup.alice.user.id]])
        assert.strictEqual(answers.removed.status, 205)
        assert.deepStrictEqual(answers.pending.data.items.map((r) => r.user.id), [reviewerUser.user.id])
        assert.strictEqual(answers.submitted.status, 201)
        assert.strictEqual(answers.submitted.data.status, "approved")
        assert.strictEqual(answers.submitted.data.comment?.body.markdown, "Ship it")
        assert.deepStrictEqual(answers.listed.data.items.map((r) => [r.id, r.reviewer.id]), [[answers.submitted.data.id, reviewerUser.user.id]])
        assert.strictEqual(answers.got.data.status, "approved")
        assert.deepStrictEqual(answers.afterReview.data.items, [])
        assert.deepStrictEqual(answers.contributors.data.items.map((c) => [c.actionType, c.user.id]), [["edit", editor.user.id], ["comment", reviewerUser.user.id]])
        assert.deepStrictEqual(answers.commenters.data.items.map((m) => m.user.id), [reviewerUser.user.id])
      }))
  })
}
