/**
 * What every RevisionsRepo adapter keeps of a revision's reusable contents (GitBook's
 * `.gitbook/includes/`): the list as written and their markdown as documents, rolled back with the
 * transaction and released with the space.
 */
import { assert, describe } from "@effect/vitest"
import { Effect, Exit } from "effect"
import { Transactor } from "@quire/kernel"
import { assertNone, at, some } from "@quire/testkit"
import { documentHash, type ReusableContentNode } from "../../src/domain/Revision.ts"
import { RevisionsRepo } from "../../src/RevisionsRepo.ts"
import type { ReposTest } from "./Fixtures.ts"
import { revision } from "./RevisionsRepoContract.ts"

const warning = "{% hint style=\"warning\" %}\nBack up your data before you upgrade « Quire ».\n{% endhint %}\n"
const footer = "Need help? Write to **support@example.com**.\n"

const nodes: ReadonlyArray<ReusableContentNode> = [
  { id: "rc-warning", title: "Upgrade warning", document: documentHash(warning), git: { oid: "a1b2", path: "docs/.gitbook/includes/upgrade-warning.md" } },
  { id: "rc-footer", title: "Support footer", document: documentHash(footer) },
  { id: "rc-empty", title: "Empty block" }
]

class Abort {
  readonly _tag = "Abort"
}

export const reusableContentsContract = (it: ReposTest) =>
  describe("RevisionsRepo: reusable contents", () => {
    it.effect("reads back a revision's reusable contents as written, and their markdown by document", () =>
      Effect.gen(function*() {
        const repo = yield* RevisionsRepo
        const { transaction } = yield* Transactor.Transactor
        const holding = revision("rc-read-1", "rc-read", { reusableContents: nodes, createdAt: at(1) })
        const without = revision("rc-read-2", "rc-read", { parents: ["rc-read-1"], createdAt: at(2) })
        // Read inside the writing transaction: from the store itself, not an adapter's cache.
        const found = yield* transaction(Effect.gen(function*() {
          yield* repo.insert(holding, new Map([[documentHash(warning), warning], [documentHash(footer), footer]]))
          yield* repo.insert(without, new Map())
          return [some(yield* repo.find("rc-read-1")), some(yield* repo.find("rc-read-2"))] as const
        }))
        assert.deepStrictEqual(found[0], holding)
        assert.deepStrictEqual(found[0].reusableContents?.map((n) => n.title), ["Upgrade warning", "Support footer", "Empty block"])
        assert.isUndefined(found[1].reusableContents)
        const markdown = yield* repo.documents([documentHash(warning), documentHash(footer)])
        assert.strictEqual(markdown.get(documentHash(warning)), warning)
        assert.strictEqual(markdown.get(documentHash(footer)), footer)
      }))

    it.effect("writes neither the list nor the markdown when the transaction fails", () =>
      Effect.gen(function*() {
        const repo = yield* RevisionsRepo
        const { transaction } = yield* Transactor.Transactor
        const lost = "Only in a transaction that fails.\n"
        const exit = yield* Effect.exit(transaction(Effect.andThen(
          repo.insert(revision("rc-tx-1", "rc-tx", { reusableContents: [{ id: "rc-lost", title: "Lost", document: documentHash(lost) }] }), new Map([[documentHash(lost), lost]])),
          Effect.fail(new Abort())
        )))
        assert.isTrue(Exit.isFailure(exit))
        assertNone(yield* repo.find("rc-tx-1"))
        assert.strictEqual((yield* repo.documents([documentHash(lost)])).size, 0)
      }))

    it.effect("releases the markdown of a removed space's reusable contents that no other space holds", () =>
      Effect.gen(function*() {
        const repo = yield* RevisionsRepo
        const own = "Only the removed space includes this.\n"
        const both = "Both spaces include this.\n"
        yield* repo.insert(
          revision("rc-rm-1", "rc-rm-gone", { reusableContents: [{ id: "a", title: "A", document: documentHash(own) }, { id: "b", title: "B", document: documentHash(both) }] }),
          new Map([[documentHash(own), own], [documentHash(both), both]])
        )
        yield* repo.insert(revision("rc-rm-2", "rc-rm-kept", { reusableContents: [{ id: "b", title: "B", document: documentHash(both) }] }), new Map([[documentHash(both), both]]))
        yield* repo.removeForSpace("rc-rm-gone")
        assertNone(yield* repo.find("rc-rm-1"))
        assert.deepStrictEqual([...(yield* repo.documents([documentHash(own), documentHash(both)])).keys()], [documentHash(both)])
        assert.deepStrictEqual(some(yield* repo.find("rc-rm-2")).reusableContents?.map((n) => n.id), ["b"])
      }))
  })
