/** `quire cr diff` against a real server (memory backend): a reviewer reads what a change request changed. */
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { RevisionSemanticChanges } from "@quire/api"
import { memory, mergeIntoMain, newUser, spaceWith } from "@quire/server/test/Harness"
import { decodeJson, quire, quireAs } from "./Quire.ts"

layer(memory.layer, { timeout: 120_000, excludeTestServices: true })("quire cr diff", (it) => {
  it.effect("lists pages added, edited, moved and deleted with the diff of each edited page; --json is the API's answer", () =>
    Effect.gen(function*() {
      const setup = yield* spaceWith()
      const api = setup.alice.api
      const spaceId = setup.space.id
      yield* mergeIntoMain(api, spaceId, [
        { operation: "insert_page", ref: "guides", title: "Guides", document: { markdown: "All guides." } },
        { operation: "insert_page", into: "guides", title: "Setup", document: { markdown: "Intro.\n\nUse apt.\nThen run it.\n" } },
        { operation: "insert_page", title: "FAQ", document: { markdown: "Questions." } },
        { operation: "insert_page", title: "Old", document: { markdown: "Outdated." } }
      ])
      const [guides, faq, old] = (yield* api.spaceContent.listPages({ params: { spaceId }, query: {} })).pages
      const setupPage = guides!.pages![0]!

      const cr = yield* api.changeRequests.createChangeRequest({ params: { spaceId }, payload: { subject: "Rework" } })
      yield* api.changeRequestContent.updateChangeRequestContent({
        params: { spaceId, changeRequestId: cr.id },
        payload: {
          changes: [
            { operation: "update_page", page: setupPage.id, document: { markdown: "Intro.\n\nUse brew.\nThen run it.\n" } },
            { operation: "update_page", page: faq!.id, into: guides!.id },
            { operation: "delete_page", page: old!.id },
            { operation: "insert_page", title: "News", document: { markdown: "Released." } }
          ]
        }
      })
      const as = quireAs(setup.alice.token)

      const shown = yield* as("cr", "diff", spaceId, String(cr.number))
      assert.strictEqual(shown.status, 0, shown.stderr)
      assert.strictEqual(
        shown.stdout,
        [
          "4 changes:",
          "  ~ page     guides/setup (Setup)  [document]",
          "  > page     guides/faq (FAQ)  from the top level to guides",
          "  + page     news (News)",
          "  - page     old (Old)",
          "",
          "--- a/guides/setup.md",
          "+++ b/guides/setup.md",
          "@@ -1,4 +1,4 @@",
          " Intro.",
          " ",
          "-Use apt.",
          "+Use brew.",
          " Then run it."
        ].join("\n")
      )
      // Not a terminal: no colour codes.
      assert.notInclude(shown.stdout, "\u001b[")

      const json = yield* as("cr", "diff", spaceId, cr.id, "--json").pipe(Effect.flatMap(decodeJson(RevisionSemanticChanges)))
      assert.deepStrictEqual(json.changes.map((c) => c.type), ["page_edited", "page_moved", "page_created", "page_deleted"])
      const edited = json.changes[0]
      assert.isTrue(edited?.type === "page_edited" && edited.diff?.includes("+Use brew.") === true)

      const limited = yield* as("cr", "diff", spaceId, cr.id, "--limit", "2")
      assert.include(limited.stdout, "... and 2 more")

      // A change request with nothing in it yet.
      const empty = yield* api.changeRequests.createChangeRequest({ params: { spaceId }, payload: { subject: "Empty" } })
      const nothing = yield* as("cr", "diff", spaceId, empty.id)
      assert.deepStrictEqual([nothing.status, nothing.stdout], [0, "No changes."])
    }))

  it.effect("--help names it; an outsider's diff fails with the server's not-found message; a bad --limit is a usage error", () =>
    Effect.gen(function*() {
      const help = yield* quire(["cr", "--help"])
      assert.match(help.stdout, /^\s+diff\b/m)
      const setup = yield* spaceWith()
      const cr = yield* setup.alice.api.changeRequests.createChangeRequest({ params: { spaceId: setup.space.id }, payload: { subject: "Hidden" } })
      const outsider = yield* newUser("Mallory")
      const refused = yield* quireAs(outsider.token)("cr", "diff", setup.space.id, cr.id)
      assert.strictEqual(refused.status, 1)
      assert.include(refused.stderr.toLowerCase(), "not found")
      const bad = yield* quireAs(setup.alice.token)("cr", "diff", setup.space.id, cr.id, "--limit", "0")
      assert.strictEqual(bad.status, 2)
      assert.include(bad.stderr, "--limit")
    }))
})
