/** The behaviour every NotificationSettingsRepo adapter must have. */
import { assert, describe } from "@effect/vitest"
import { Effect } from "effect"
import { Transactor } from "@quire/kernel"
import { NotificationSettingsRepo } from "../../src/NotificationSettingsRepo.ts"
import { insertUsers, type ReposTest } from "./Fixtures.ts"

export const notificationSettingsRepoContract = (it: ReposTest) =>
  describe("NotificationSettingsRepo", () => {
    it.effect("has no opt-outs until the person chooses, then keeps exactly the kinds chosen, in order", () =>
      Effect.gen(function*() {
        const repo = yield* NotificationSettingsRepo
        yield* insertUsers("ns-ann", "ns-bob")
        assert.deepStrictEqual(yield* repo.emailOptOuts("ns-ann"), [])
        yield* repo.setEmailOptOuts("ns-ann", ["mention", "review_requested", "mention"])
        assert.deepStrictEqual(yield* repo.emailOptOuts("ns-ann"), ["review_requested", "mention"])
        // Another person's choice is theirs alone.
        assert.deepStrictEqual(yield* repo.emailOptOuts("ns-bob"), [])
        yield* repo.setEmailOptOuts("ns-ann", [])
        assert.deepStrictEqual(yield* repo.emailOptOuts("ns-ann"), [])
      }))

    it.effect("keeps nothing for a user who does not exist", () =>
      Effect.gen(function*() {
        const repo = yield* NotificationSettingsRepo
        yield* repo.setEmailOptOuts("ns-nobody", ["mention"])
        assert.deepStrictEqual(yield* repo.emailOptOuts("ns-nobody"), [])
      }))

    it.effect("forgets a choice made in a transaction that rolled back", () =>
      Effect.gen(function*() {
        const repo = yield* NotificationSettingsRepo
        const transactor = yield* Transactor.Transactor
        yield* insertUsers("ns-cat")
        yield* repo.setEmailOptOuts("ns-cat", ["comment_reply"])
        yield* transactor.transaction(Effect.andThen(repo.setEmailOptOuts("ns-cat", ["mention"]), Effect.fail("undo" as const))).pipe(Effect.ignore)
        assert.deepStrictEqual(yield* repo.emailOptOuts("ns-cat"), ["comment_reply"])
      }))
  })
