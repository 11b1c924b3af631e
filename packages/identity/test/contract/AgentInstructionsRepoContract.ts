/** The behaviour every AgentInstructionsRepo adapter must have. */
import { assert, describe } from "@effect/vitest"
import { Effect } from "effect"
import { Transactor } from "@quire/kernel"
import { assertNone, at, some } from "@quire/testkit"
import { AgentInstructionsRepo } from "../../src/AgentInstructionsRepo.ts"
import { OrganizationsRepo } from "../../src/OrganizationsRepo.ts"
import { insertUsers, makeOrganization, type ReposTest } from "./Fixtures.ts"

const document = (text: string) => ({
  object: "document" as const,
  data: {},
  nodes: [{ object: "block", type: "paragraph", nodes: [{ object: "text", leaves: [{ object: "leaf", text, marks: [] }] }] }]
})

export const agentInstructionsRepoContract = (it: ReposTest) =>
  describe("AgentInstructionsRepo", () => {
    it.effect("reads none for an unknown organization, the organization's creation until set, then what was set", () =>
      Effect.gen(function*() {
        const repo = yield* AgentInstructionsRepo
        const organizations = yield* OrganizationsRepo
        yield* insertUsers("ai-ann", "ai-bob")
        assertNone(yield* repo.find("ai-none"))
        yield* organizations.insert(makeOrganization("ai-org", at(3)), "ai-ann")
        assert.deepStrictEqual(some(yield* repo.find("ai-org")), { instructions: null, updatedAt: at(3), updatedBy: "ai-ann" })
        yield* repo.put("ai-org", { instructions: document("Be brief."), updatedAt: at(8), updatedBy: "ai-bob" })
        assert.deepStrictEqual(some(yield* repo.find("ai-org")), { instructions: document("Be brief."), updatedAt: at(8), updatedBy: "ai-bob" })
        yield* repo.put("ai-org", { instructions: document("Be kind."), updatedAt: at(9), updatedBy: "ai-ann" })
        assert.deepStrictEqual(some(yield* repo.find("ai-org")), { instructions: document("Be kind."), updatedAt: at(9), updatedBy: "ai-ann" })
      }))

    it.effect("keeps nothing for an organization that does not exist, nor what a rolled back transaction wrote", () =>
      Effect.gen(function*() {
        const repo = yield* AgentInstructionsRepo
        const organizations = yield* OrganizationsRepo
        const transactor = yield* Transactor.Transactor
        yield* repo.put("ai-ghost", { instructions: document("x"), updatedAt: at(1), updatedBy: "u" })
        assertNone(yield* repo.find("ai-ghost"))
        yield* insertUsers("ai-cat")
        yield* organizations.insert(makeOrganization("ai-rb", at(2)), "ai-cat")
        yield* transactor.transaction(Effect.andThen(repo.put("ai-rb", { instructions: document("x"), updatedAt: at(4), updatedBy: "ai-cat" }), Effect.fail("undo" as const))).pipe(Effect.ignore)
        assert.deepStrictEqual(some(yield* repo.find("ai-rb")), { instructions: null, updatedAt: at(2), updatedBy: "ai-cat" })
      }))
  })
