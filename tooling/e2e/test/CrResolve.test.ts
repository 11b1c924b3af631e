/** `quire cr merge`, `update` and `resolve` on conflicts, against a real server (memory backend): a writer's story. */
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { ChangeRequest } from "@quire/api"
import { memory, mergeIntoMain, spaceWith } from "@quire/server/test/Harness"
import { decodeJson, quire, quireAs, tempFile } from "./Quire.ts"


/**
 * A space whose page "Guide" reads `markdown`, two change requests A and B on it editing it with
 * `a` and `b`, A merged; Alice (its admin) as `quire`.
 */
const diverged = Effect.fnUntraced(function*(markdown: string, a: string, b: string) {
  const setup = yield* spaceWith()
  const api = setup.alice.api
  const spaceId = setup.space.id
  yield* mergeIntoMain(api, spaceId, [{ operation: "insert_page", title: "Guide", document: { markdown } }])
  const page = (yield* api.spaceContent.listPages({ params: { spaceId }, query: {} })).pages[0]!
  const as = quireAs(setup.alice.token)
  const open = (subject: string, text: string) =>
    Effect.gen(function*() {
      const cr = yield* as("cr", "open", spaceId, "--subject", subject, "--json").pipe(Effect.flatMap(decodeJson(ChangeRequest)))
      const applied = yield* as("cr", "apply", spaceId, cr.id, yield* tempFile(`${subject}.md`, text), "--page", page.id)
      assert.strictEqual(applied.status, 0, applied.stderr)
      return cr
    })
  const crA = yield* open("A", a)
  const crB = yield* open("B", b)
  assert.strictEqual((yield* as("cr", "merge", spaceId, crA.id)).status, 0)
  const mainMarkdown = Effect.map(
    api.spaceContent.getPageById({ params: { spaceId, pageId: page.id }, query: { format: "markdown" } }),
    (p) => p.markdown
  )
  return { as, spaceId, page, b: String(crB.number), mainMarkdown }
})

layer(memory.layer, { timeout: 120_000, excludeTestServices: true })("quire cr resolve", (it) => {
  it.effect("is a subcommand of quire cr, and its help names the choices", () =>
    Effect.gen(function*() {
      const group = yield* quire(["cr", "--help"])
      assert.match(group.stdout, /^\s+resolve\b/m)
      const help = yield* quire(["cr", "resolve", "--help"])
      assert.strictEqual(help.status, 0)
      for (const flag of ["--main", "--change-request", "--markdown", "--all"]) assert.include(help.stdout, flag)
    }))

  it.effect("merge shows the conflict as a diff and says to run quire cr resolve; resolving with a file of combined markdown lets the merge in", () =>
    Effect.gen(function*() {
      const { as, b, mainMarkdown, spaceId } = yield* diverged("Intro.\n\nInstall it.\n\nDone.", "Intro.\n\nInstall it with npm.\n\nDone.", "Intro.\n\nInstall it with pnpm.\n\nDone.")

      const refused = yield* as("cr", "merge", spaceId, b)
      assert.strictEqual(refused.status, 1)
      assert.strictEqual(
        refused.stdout,
        [
          "c1  guide  content",
          "  main (from the common ancestor):",
          "      Intro.",
          "",
          "    - Install it.",
          "    + Install it with npm.",
          "",
          "      Done.",
          "  change request (from the common ancestor):",
          "      Intro.",
          "",
          "    - Install it.",
          "    + Install it with pnpm.",
          "",
          "      Done."
        ].join("\n")
      )
      assert.include(refused.stderr, "Not merged: the change request conflicts with the space's content (1 conflict above)")
      assert.include(refused.stderr, `quire cr resolve ${spaceId} ${b} --markdown c1=FILE.md`)
      assert.notInclude(refused.stderr, "quire cr apply")
      assert.strictEqual(yield* mainMarkdown, "Intro.\n\nInstall it with npm.\n\nDone.")

      // An update keeps the conflict; `resolve` alone shows it and how to choose.
      const update = yield* as("cr", "update", spaceId, b)
      assert.strictEqual(update.status, 1)
      assert.strictEqual(update.stdout, refused.stdout)
      assert.include(update.stderr, "Not updated")
      const shown = yield* as("cr", "resolve", spaceId, b)
      assert.strictEqual(shown.status, 1)
      assert.strictEqual(shown.stdout, refused.stdout)
      assert.include(shown.stderr, "--markdown c1=FILE.md")

      const unknown = yield* as("cr", "resolve", spaceId, b, "--main", "c9")
      assert.strictEqual(unknown.status, 1)
      assert.include(unknown.stderr, "No conflict c9 on this change request (its conflicts: c1)")

      const combined = yield* tempFile("combined.md", "Install it with npm or pnpm.\n")
      const resolved = yield* as("cr", "resolve", spaceId, b, "--markdown", `c1=${combined}`)
      assert.strictEqual(resolved.status, 0, resolved.stderr)
      assert.match(resolved.stdout, new RegExp(`^Resolved 1 conflict of change request #${b}: it is at revision \\S+, up to date with the space's content`))
      const merged = yield* as("cr", "merge", spaceId, b)
      assert.strictEqual(merged.status, 0, merged.stderr)
      assert.strictEqual(yield* mainMarkdown, "Intro.\n\nInstall it with npm or pnpm.\n\nDone.")
    }))

  it.effect("--all takes one side of every conflict; --json answers the change request", () =>
    Effect.gen(function*() {
      const { as, b, mainMarkdown, spaceId } = yield* diverged("one\ntwo\nthree\nfour", "one (A)\ntwo\nthree\nfour (A)", "one (B)\ntwo\nthree\nfour (B)")
      const refused = yield* as("cr", "merge", spaceId, b)
      assert.match(refused.stdout, /^c1 {2}guide {2}content$/m)
      assert.match(refused.stdout, /^c2 {2}guide {2}content$/m)
      assert.include(refused.stderr, "(2 conflicts above)")
      const partial = yield* as("cr", "resolve", spaceId, b, "--main", "c1")
      assert.strictEqual(partial.status, 1)
      assert.include(partial.stderr, "Without a resolution: c2 (guide: content)")

      const resolved = yield* as("cr", "resolve", spaceId, b, "--main", "c1", "--all", "change-request", "--json")
      assert.strictEqual(resolved.status, 0, resolved.stderr)
      const cr = yield* decodeJson(ChangeRequest)(resolved)
      assert.deepStrictEqual([cr.outdated, cr.conflicts], [false, undefined])
      assert.strictEqual((yield* as("cr", "merge", spaceId, b)).status, 0)
      assert.strictEqual(yield* mainMarkdown, "one (A)\ntwo\nthree\nfour (B)")
      const nothing = yield* as("cr", "resolve", spaceId, b, "--all", "main")
      assert.strictEqual(nothing.status, 1)
      assert.include(nothing.stderr, "has no conflicts to resolve")
    }))
})
