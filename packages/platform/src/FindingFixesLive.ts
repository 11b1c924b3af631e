/**
 * Sites' FindingFixes port over the reviews package: a finding's change request is opened
 * as the person who triggered it, its page added through the change request's own write path, and
 * drafted by the change request's agent when the server has a model (its edits merge like anyone's).
 */
import { Effect, Layer, Option } from "effect"
import { flattenPages } from "@quire/content"
import { ChangeRequestAgent, ChangeRequests } from "@quire/reviews"
import { FindingFixes } from "@quire/sites"

export const layer = Layer.effect(
  FindingFixes,
  Effect.gen(function*() {
    const changeRequests = yield* ChangeRequests
    const agent = yield* ChangeRequestAgent
    return FindingFixes.of({
      open: Effect.fn("FindingFixes.open")(function*(fix) {
        const created = yield* changeRequests.create(fix.spaceId, { subject: fix.subject })
        const id = created.changeRequest.id
        // A page to fix gets the note atop what it says; otherwise the stub is a page of its own.
        const existing = fix.pageId === undefined ? undefined : Option.getOrUndefined(yield* Effect.option(changeRequests.page(fix.spaceId, id, fix.pageId)))
        const change = existing?.markdown === undefined
          ? { operation: "insert_page" as const, title: fix.pageTitle, markdown: fix.stub }
          : { operation: "update_page" as const, page: existing.page.id, markdown: `${fix.stub}\n\n${existing.markdown}` }
        yield* changeRequests.updateContent(fix.spaceId, id, [change]).pipe(
          Effect.catchTag("Conflict", (conflict) => Effect.die(conflict))
        )
        const content = yield* changeRequests.content(fix.spaceId, id)
        const page = change.operation === "update_page"
          ? { page: { id: change.page } }
          : flattenPages(content.revision.pages).find((entry) => entry.page.title === fix.pageTitle)
        const asked = page === undefined ? fix.instructions : `${fix.instructions}\n\n(The page's id is ${page.page.id}.)`
        return yield* agent.send(fix.spaceId, id, "finding", asked).pipe(
          Effect.as({ changeRequestId: id, drafted: true, note: undefined }),
          Effect.catchTags({
            AgentNotConfigured: (error) => Effect.succeed({ changeRequestId: id, drafted: false, note: error.message }),
            AgentFailed: (error) => Effect.succeed({ changeRequestId: id, drafted: false, note: error.message }),
            InvalidInput: (error) => Effect.succeed({ changeRequestId: id, drafted: false, note: error.reason })
          })
        )
      }),
      merged: (refs) =>
        Effect.map(
          Effect.forEach(refs, (ref) =>
            changeRequests.get(ref.spaceId, ref.changeRequestId).pipe(
              Effect.map((view) => view.changeRequest.status === "merged"),
              Effect.orElseSucceed(() => false)
            )),
          (merged) => merged.filter(Boolean).length
        )
    })
  })
)
