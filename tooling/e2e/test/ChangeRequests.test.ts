/** `quire cr` against a real server (memory backend), on spaces seeded with the product-docs template. */
import { assert, layer } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { ChangeRequest, MergeConflict, Schemas } from "@quire/api"
import { errorMessage, memory, spaceWith } from "@quire/server/test/Harness"
import { decodeJson, lines, quire, quireAs, rowWith, tempFile } from "./Quire.ts"

const decodeCr = decodeJson(ChangeRequest)
const decodeCrs = decodeJson(Schemas.ListOf(ChangeRequest))
const decodeConflicts = decodeJson(Schema.Struct({
  revision: Schema.String,
  result: Schema.Literal("conflicts"),
  conflicts: Schema.Array(MergeConflict)
}))

/** A space "Docs" holding the product-docs template, Alice (its admin) as `quire`, and the Quickstart page's id. */
const docs = Effect.fnUntraced(function*(roles: Parameters<typeof spaceWith>[0] = []) {
  const setup = yield* spaceWith(roles)
  const spaceId = setup.space.id
  yield* setup.alice.api.spaceContent.applyTemplateToSpace({ params: { spaceId }, payload: { id: "product-docs" } })
  const { pages } = yield* setup.alice.api.spaceContent.listPages({ params: { spaceId }, query: {} })
  const quickstart = pages.find((page) => page.title === "Quickstart")!
  const mainMarkdown = (pageId: string) =>
    Effect.map(
      setup.alice.api.spaceContent.getPageById({ params: { spaceId, pageId }, query: { format: "markdown" } }),
      (page) => page.markdown
    )
  return { ...setup, spaceId, quickstart, mainMarkdown, as: quireAs(setup.alice.token) }
})


layer(memory.layer, { timeout: 120_000, excludeTestServices: true })("quire cr", (it) => {
  it.effect("--help at every level; --page with --into does not parse", () =>
    Effect.gen(function*() {
      const group = yield* quire(["cr", "--help"])
      assert.strictEqual(group.status, 0)
      for (const subcommand of ["list", "get", "open", "apply", "pages", "merge", "update", "archive"]) {
        assert.match(group.stdout, new RegExp(`^\\s+${subcommand}\\b`, "m"))
      }
      const apply = yield* quire(["cr", "apply", "--help"])
      assert.strictEqual(apply.status, 0)
      for (const flag of ["--page", "--into", "--title"]) assert.include(apply.stdout, flag)
      const file = yield* tempFile("x.md", "x")
      const both = yield* quire(["cr", "apply", "S", "1", file, "--page", "P", "--into", "Q"])
      assert.strictEqual(both.status, 2)
      assert.include(both.stderr, "--page or --into, not both")
    }))

  it.effect("open, apply a file to a page and as a new page, list the pages, merge: main shows the files", () =>
    Effect.gen(function*() {
      const { alice, as, mainMarkdown, quickstart, spaceId } = yield* docs()
      const listMain = Effect.map(
        alice.api.spaceContent.listPages({ params: { spaceId }, query: {} }),
        ({ pages }) => pages
      )
      const empty = yield* as("cr", "list", spaceId)
      assert.include(empty.stdout, "No open change requests")

      const cr = yield* as("cr", "open", spaceId, "--subject", "Rewrite the quickstart", "--json").pipe(
        Effect.flatMap(decodeCr)
      )
      assert.deepStrictEqual([cr.status, cr.subject, cr.space], ["open", "Rewrite the quickstart", spaceId])
      const listed = yield* as("cr", "list", spaceId)
      assert.strictEqual(listed.status, 0, listed.stderr)
      assert.match(lines(listed.stdout)[0]!, /^#\s+ID\s+STATUS\s+SUBJECT\s+AUTHOR\s+OUTDATED\s+UPDATED$/)
      assert.match(rowWith(listed.stdout, cr.id), new RegExp(`^${cr.number}\\s+${cr.id}\\s+open\\s+Rewrite the quickstart\\s+Alice\\s+no\\s`))

      const quickstartText = "Install it with `npm install quire`.\n\nThen run `quire --help`."
      const updated = yield* as("cr", "apply", spaceId, String(cr.number), yield* tempFile("quickstart.md", quickstartText), "--page", quickstart.id)
      assert.strictEqual(updated.status, 0, updated.stderr)
      assert.include(updated.stdout, `Updated page ${quickstart.path} (${quickstart.id}) in change request #${cr.number}`)

      const troubleText = "# Troubleshooting\n\nTurn it off and on again."
      const added = yield* as("cr", "apply", spaceId, cr.id, yield* tempFile("troubleshooting.md", troubleText), "--json")
        .pipe(Effect.flatMap(decodeCr))
      assert.notStrictEqual(added.revision, cr.revision)

      const pages = yield* as("cr", "pages", spaceId, String(cr.number))
      assert.strictEqual(pages.status, 0, pages.stderr)
      assert.match(lines(pages.stdout)[0]!, /^PATH\s+TITLE\s+KIND\s+ID$/)
      assert.match(rowWith(pages.stdout, "Troubleshooting"), /^troubleshooting\s+Troubleshooting\s+sheet\s+\S+$/)
      assert.match(rowWith(pages.stdout, "guides/configuration"), /^guides\/configuration\s+ {2}Configuration\s/)
      // Not on main before the merge.
      assert.notStrictEqual(yield* mainMarkdown(quickstart.id), quickstartText)

      const merged = yield* as("cr", "merge", spaceId, String(cr.number))
      assert.strictEqual(merged.status, 0, merged.stderr)
      const after = yield* as("cr", "get", spaceId, cr.id, "--json").pipe(Effect.flatMap(decodeCr))
      assert.strictEqual(after.status, "merged")
      assert.include(merged.stdout, `the space is at revision ${after.revisionMerged}`)

      assert.strictEqual(yield* mainMarkdown(quickstart.id), quickstartText)
      // The file's leading `# heading` is the new page's title, as the server reads markdown.
      const main = yield* listMain
      const trouble = main.find((page) => page.title === "Troubleshooting")
      assert.isDefined(trouble)
      assert.strictEqual(yield* mainMarkdown(trouble!.id), "Turn it off and on again.")
      const mergedList = yield* as("cr", "list", spaceId, "--status", "merged", "--json").pipe(Effect.flatMap(decodeCrs))
      assert.deepStrictEqual(mergedList.items.map((item) => item.id), [cr.id])
      const shown = yield* as("cr", "get", spaceId, String(cr.number))
      assert.match(shown.stdout, /^status:\s+merged$/m)
    }))

  it.effect("a merge that conflicts prints the conflicts and exits 1; update too; archive closes it", () =>
    Effect.gen(function*() {
      const { as, mainMarkdown, quickstart, spaceId } = yield* docs()
      const a = yield* as("cr", "open", spaceId, "--subject", "A", "--json").pipe(Effect.flatMap(decodeCr))
      const b = yield* as("cr", "open", spaceId, "--subject", "B", "--json").pipe(Effect.flatMap(decodeCr))
      const fromA = "Install it (A)."
      yield* as("cr", "apply", spaceId, a.id, yield* tempFile("a.md", fromA), "--page", quickstart.id)
      yield* as("cr", "apply", spaceId, b.id, yield* tempFile("b.md", "Install it (B)."), "--page", quickstart.id)
      assert.strictEqual((yield* as("cr", "merge", spaceId, a.id)).status, 0)

      const refused = yield* as("cr", "merge", spaceId, String(b.number))
      assert.strictEqual(refused.status, 1)
      assert.strictEqual(lines(refused.stdout)[0]!, `c1  ${quickstart.path}  content`)
      assert.include(refused.stderr, "Not merged")
      assert.strictEqual(yield* mainMarkdown(quickstart.id), fromA)

      const json = yield* as("cr", "merge", spaceId, b.id, "--json")
      assert.strictEqual(json.status, 1)
      const conflicts = yield* decodeConflicts(json)
      assert.deepStrictEqual(conflicts.conflicts.map((c) => [c.pageId, c.kind]), [[quickstart.id, "content"]])

      const update = yield* as("cr", "update", spaceId, b.id)
      assert.strictEqual(update.status, 1)
      assert.include(update.stdout, quickstart.path)
      assert.include(update.stderr, "Not updated")

      const archived = yield* as("cr", "archive", spaceId, b.id, "--json").pipe(Effect.flatMap(decodeCr))
      assert.strictEqual(archived.status, "archived")
      const open = yield* as("cr", "list", spaceId, "--json").pipe(Effect.flatMap(decodeCrs))
      assert.deepStrictEqual(open.items, [])
    }))

  it.effect("a reader cannot merge: the server's message, exit 1", () =>
    Effect.gen(function*() {
      const { as, members, spaceId } = yield* docs(["read"])
      const reader = members.read!
      const cr = yield* as("cr", "open", spaceId, "--subject", "Edits", "--json").pipe(Effect.flatMap(decodeCr))
      const seen = yield* quireAs(reader.token)("cr", "get", spaceId, cr.id)
      assert.strictEqual(seen.status, 0, seen.stderr)

      const expected = errorMessage(
        yield* Effect.flip(reader.api.changeRequests.mergeChangeRequest({ params: { spaceId, changeRequestId: cr.id } }))
      )
      assert.notStrictEqual(expected, "")
      const refused = yield* quireAs(reader.token)("cr", "merge", spaceId, cr.id)
      assert.strictEqual(refused.status, 1)
      assert.strictEqual(refused.stderr, `quire: ${expected}`)
      assert.strictEqual(refused.stdout, "")
    }))
})
