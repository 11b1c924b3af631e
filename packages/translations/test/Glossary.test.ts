/**
 * The glossary: its terms for a run (only entries naming both languages, longest first), the
 * placeholders the translator keeps and their target words, and the GlossaryRepo contract against
 * memory, PostgreSQL and PGlite.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { assertNone, at, Backends, some } from "@quire/testkit"
import { type GlossaryEntry, languageProblem, protect, restore, termsFor } from "../src/glossary/Glossary.ts"
import { GlossaryRepo } from "../src/glossary/GlossaryRepo.ts"
import * as SqlGlossaryRepo from "../src/glossary/SqlGlossaryRepo.ts"
import { migrations } from "../src/migrations/index.ts"

const entry = (id: string, translations: Record<string, string>, organizationId = "g-org", createdAt = at(0)): GlossaryEntry =>
  ({ id, organizationId, translations, createdAt, updatedAt: createdAt })

describe("glossary terms", () => {
  const terms = termsFor([
    entry("1", { en: "API", fr: "API" }),
    entry("2", { en: "API key", fr: "clé d'API" }),
    entry("3", { en: "Workspace", de: "Arbeitsbereich" }),
    entry("4", { en: "workspace", fr: "espace de travail" })
  ], "en", "fr")

  it("takes the entries naming both languages, the longest term first", () => {
    assert.deepStrictEqual(terms.map((t) => t.source), ["workspace", "API key", "API"])
  })

  it("hides whole words of any case and puts the glossary's words back", () => {
    const sent = protect("Your Workspace API key opens the API; workspaces and RAPID stay.", terms)
    assert.strictEqual(sent, "Your ⟦G0⟧ ⟦G1⟧ opens the ⟦G2⟧; workspaces and RAPID stay.")
    assert.strictEqual(restore("VOTRE ⟦G0⟧ ⟦G1⟧ OUVRE L'⟦G2⟧", terms), "VOTRE espace de travail clé d'API OUVRE L'API")
    assert.strictEqual(restore("kept ⟦G9⟧", terms), "kept ⟦G9⟧")
    assert.strictEqual(protect("Nothing here", []), "Nothing here")
  })

  it("names a key that is not a language code, or none at all", () => {
    assert.isUndefined(languageProblem({ en: "a", "pt-br": "b" }))
    assert.strictEqual(languageProblem({ en: "a", klingon: "b" }), "klingon")
    assert.strictEqual(languageProblem({}), "")
  })
})

const backends = Backends.ports({ memory: GlossaryRepo.layerMemory, sql: SqlGlossaryRepo.layer, migrations: [migrations] })

Backends.each(backends, (it) => {
  it.effect("GlossaryRepo keeps entries by organization in creation order, replaces and removes them", () =>
    Effect.gen(function*() {
      const repo = yield* GlossaryRepo
      yield* repo.put(entry("gr-2", { en: "Two" }, "gr-org", at(2)))
      yield* repo.put(entry("gr-1", { en: "One «é»", fr: "Un" }, "gr-org", at(1)))
      yield* repo.put(entry("gr-3", { en: "Other" }, "gr-other"))
      assert.deepStrictEqual((yield* repo.list("gr-org")).map((e) => e.id), ["gr-1", "gr-2"])
      assert.deepStrictEqual(some(yield* repo.find("gr-org", "gr-1")), entry("gr-1", { en: "One «é»", fr: "Un" }, "gr-org", at(1)))
      assertNone(yield* repo.find("gr-other", "gr-1"))
      yield* repo.put({ ...entry("gr-1", { en: "Uno" }, "gr-org", at(1)), updatedAt: at(4) })
      assert.deepStrictEqual(some(yield* repo.find("gr-org", "gr-1")).translations, { en: "Uno" })
      yield* repo.remove("gr-other", "gr-1")
      assert.isTrue((yield* repo.list("gr-org")).some((e) => e.id === "gr-1"))
      yield* repo.remove("gr-org", "gr-1")
      assert.deepStrictEqual((yield* repo.list("gr-org")).map((e) => e.id), ["gr-2"])
    }))
})
