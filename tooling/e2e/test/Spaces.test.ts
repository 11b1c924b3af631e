/** `quire spaces` and `quire collections` against a real server (memory backend). */
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { ApiErrors, Collection, Schemas, Space } from "@quire/api"
import { adminToken, client, memory, newUser } from "@quire/server/test/Harness"
import { admin, createOrganization, decodeJson, lines, quireAs, rowWith } from "./Quire.ts"

const decodeSpace = decodeJson(Space)
const decodeSpaces = decodeJson(Schemas.ListOf(Space))
const decodeCollection = decodeJson(Collection)

/** A new user with an organization of their own, and `quire` as that user. */
const owner = Effect.fnUntraced(function*(name: string) {
  const user = yield* newUser(name)
  const as = quireAs(user.token)
  const org = yield* createOrganization(as, `${name}'s Docs`)
  return { as, org, user }
})

layer(memory.layer, { timeout: 120_000, excludeTestServices: true })("quire spaces and collections", (it) => {
  it.effect("spaces create, then spaces list shows it as JSON and as a table", () =>
    Effect.gen(function*() {
      const { as, org } = yield* owner("Sana")
      const empty = yield* as("spaces", "list", org.id)
      assert.include(empty.stdout, "No spaces yet")

      const created = yield* as("spaces", "create", org.id, "Handbook", "--emoji", "📘", "--language", "fr", "--json")
        .pipe(Effect.flatMap(decodeSpace))
      assert.deepStrictEqual([created.title, created.emoji, created.language], ["Handbook", "📘", "fr"])
      assert.strictEqual(created.organization, org.id)

      const listed = yield* as("spaces", "list", org.id, "--json").pipe(Effect.flatMap(decodeSpaces))
      assert.deepStrictEqual(listed.items.map((space) => space.id), [created.id])

      const table = yield* as("spaces", "ls", org.id)
      assert.strictEqual(table.status, 0)
      const [header, ...rows] = lines(table.stdout)
      assert.match(header!, /^ID\s+TITLE\s+EMOJI\s+VISIBILITY\s+PARENT\s+UPDATED$/)
      assert.strictEqual(rows.length, 1)
      const row = rowWith(table.stdout, created.id)
      assert.match(row, /Handbook\s+📘\s+private\s+\d{4}-\d\d-\d\d \d\d:\d\d$/)
      // Aligned after the emoji, which takes two cells.
      assert.strictEqual(row.indexOf("private"), header!.indexOf("VISIBILITY"))

      const shown = yield* as("spaces", "get", created.id)
      assert.match(shown.stdout, /^title:\s+Handbook$/m)
      assert.match(shown.stdout, /^language:\s+fr$/m)
    }))

  it.effect("spaces update changes the settings; with nothing to change it fails", () =>
    Effect.gen(function*() {
      const { as, org } = yield* owner("Ugo")
      const space = yield* as("spaces", "create", org.id, "Guide", "--json").pipe(Effect.flatMap(decodeSpace))
      const updated = yield* as(
        "spaces", "update", space.id,
        "--title", "Manual", "--emoji", "1f389", "--visibility", "public",
        "--edit-mode", "locked", "--default-level", "none"
      )
      assert.strictEqual(updated.status, 0, updated.stderr)
      assert.match(updated.stdout, /^title:\s+Manual$/m)
      assert.match(updated.stdout, /^emoji:\s+🎉$/m, "hex codepoints are shown as the emoji")
      assert.match(updated.stdout, /^default level:\s+none$/m)
      const json = yield* as("spaces", "get", space.id, "--json").pipe(Effect.flatMap(decodeSpace))
      assert.deepStrictEqual(
        [json.visibility, json.editMode, json.defaultLevel, json.emoji],
        ["public", "locked", null, "1f389"]
      )
      const cleared = yield* as("spaces", "update", space.id, "--emoji", "", "--json").pipe(Effect.flatMap(decodeSpace))
      assert.strictEqual(cleared.emoji, "")

      const nothing = yield* as("spaces", "update", space.id)
      assert.strictEqual(nothing.status, 1)
      assert.include(nothing.stderr, "Nothing to update")
    }))

  it.effect("spaces delete takes it out of the list, spaces restore brings it back", () =>
    Effect.gen(function*() {
      const { as, org } = yield* owner("Dora")
      const kept = yield* as("spaces", "create", org.id, "Kept", "--json").pipe(Effect.flatMap(decodeSpace))
      const space = yield* as("spaces", "create", org.id, "Trashed", "--json").pipe(Effect.flatMap(decodeSpace))
      const listedIds = as("spaces", "list", org.id, "--json").pipe(
        Effect.flatMap(decodeSpaces),
        Effect.map((list) => list.items.map((space) => space.id))
      )

      const deleted = yield* as("spaces", "delete", space.id)
      assert.strictEqual(deleted.status, 0)
      assert.include(deleted.stdout, `quire spaces restore ${space.id}`)
      assert.deepStrictEqual(yield* listedIds, [kept.id])
      const gone = yield* as("spaces", "get", space.id)
      assert.strictEqual(gone.status, 1)

      const restored = yield* as("spaces", "restore", space.id, "--json").pipe(Effect.flatMap(decodeSpace))
      assert.strictEqual(restored.id, space.id)
      assert.isUndefined(restored.deletedAt)
      assert.deepStrictEqual(yield* listedIds, [kept.id, space.id])
    }))

  it.effect("spaces move orders the spaces of a collection and moves them between levels", () =>
    Effect.gen(function*() {
      const { as, org } = yield* owner("Mona")
      const folder = yield* as("collections", "create", org.id, "Folder", "--json").pipe(
        Effect.flatMap(decodeCollection)
      )
      const ids: Record<string, string> = {}
      for (const title of ["A", "B", "C"]) {
        const space = yield* as("spaces", "create", org.id, title, "--collection", folder.id, "--json").pipe(
          Effect.flatMap(decodeSpace)
        )
        assert.strictEqual(space.parent, folder.id)
        ids[title] = space.id
      }
      const order = as("collections", "spaces", folder.id, "--json").pipe(
        Effect.flatMap(decodeSpaces),
        Effect.map((list) => list.items.map((space) => space.title))
      )
      assert.deepStrictEqual(yield* order, ["A", "B", "C"])

      const before = yield* as("spaces", "move", ids.C!, "--before", ids.A!)
      assert.strictEqual(before.status, 0, before.stderr)
      assert.deepStrictEqual(yield* order, ["C", "A", "B"])
      yield* as("spaces", "move", ids.C!, "--after", `space:${ids.A!}`)
      assert.deepStrictEqual(yield* order, ["A", "C", "B"])
      const inCollection = yield* as("spaces", "list", org.id, "--collection", folder.id, "--json").pipe(
        Effect.flatMap(decodeSpaces)
      )
      assert.deepStrictEqual(inCollection.items.map((space) => space.title), ["A", "C", "B"])

      const toRoot = yield* as("spaces", "move", ids.B!, "--root", "--json").pipe(Effect.flatMap(decodeSpace))
      assert.isUndefined(toRoot.parent)
      assert.deepStrictEqual(yield* order, ["A", "C"])
      yield* as("spaces", "move", ids.B!, "--collection", folder.id, "--before", ids.A!)
      assert.deepStrictEqual(yield* order, ["B", "A", "C"])

      const both = yield* as("spaces", "move", ids.A!, "--before", ids.B!, "--after", ids.C!)
      assert.strictEqual(both.status, 2)
      assert.include(both.stderr, "--before or --after, not both")
      const nowhere = yield* as("spaces", "move", ids.A!)
      assert.strictEqual(nowhere.status, 1)
      assert.include(nowhere.stderr, "Nothing to move")
      const already = yield* as("spaces", "move", ids.A!, "--after", ids.B!)
      assert.strictEqual(already.status, 1)
      assert.match(already.stderr, /^quire: .*would change nothing/)
    }))

  it.effect("collections create, list and spaces", () =>
    Effect.gen(function*() {
      const { as, org } = yield* owner("Cleo")
      const none = yield* as("collections", "list", org.id)
      assert.include(none.stdout, "No collections yet")

      const guides = yield* as("collections", "create", org.id, "Guides", "--description", "How-tos", "--json").pipe(
        Effect.flatMap(decodeCollection)
      )
      assert.deepStrictEqual([guides.title, guides.description, guides.organization], ["Guides", "How-tos", org.id])
      const nested = yield* as("collections", "create", org.id, "Advanced", "--parent", guides.id, "--json").pipe(
        Effect.flatMap(decodeCollection)
      )
      assert.strictEqual(nested.parent, guides.id)

      const listed = yield* as("collections", "list", org.id, "--json").pipe(
        Effect.flatMap(decodeJson(Schemas.ListOf(Collection)))
      )
      assert.sameMembers(listed.items.map((collection) => collection.id), [guides.id, nested.id])
      const topLevel = yield* as("collections", "list", org.id, "--top-level", "--json").pipe(
        Effect.flatMap(decodeJson(Schemas.ListOf(Collection)))
      )
      assert.deepStrictEqual(topLevel.items.map((collection) => collection.id), [guides.id])

      const table = yield* as("collections", "list", org.id)
      assert.match(lines(table.stdout)[0]!, /^ID\s+TITLE\s+PARENT\s+DEFAULT LEVEL\s+DESCRIPTION$/)
      assert.match(rowWith(table.stdout, nested.id), new RegExp(`Advanced\\s+${guides.id}\\s+inherit$`))

      const empty = yield* as("collections", "spaces", guides.id)
      assert.strictEqual(empty.stdout, `No spaces in collection ${guides.id}.`)
      const space = yield* as("spaces", "create", org.id, "Setup", "--collection", guides.id, "--json").pipe(
        Effect.flatMap(decodeSpace)
      )
      const spaces = yield* as("collections", "spaces", guides.id)
      assert.match(rowWith(spaces.stdout, space.id), new RegExp(`Setup\\s+private\\s+${guides.id}\\s+`))

      const updated = yield* as("collections", "update", guides.id, "--title", "Tutorials", "--default-level", "read")
      assert.match(updated.stdout, /^title:\s+Tutorials$/m)
      assert.match(updated.stdout, /^default level:\s+read$/m)

      const moved = yield* as("collections", "move", nested.id, "--root", "--before", guides.id, "--json").pipe(
        Effect.flatMap(decodeCollection)
      )
      assert.isUndefined(moved.parent)
      const order = yield* as("collections", "list", org.id, "--top-level", "--json").pipe(
        Effect.flatMap(decodeJson(Schemas.ListOf(Collection)))
      )
      assert.deepStrictEqual(order.items.map((collection) => collection.id), [nested.id, guides.id])
      const back = yield* as("collections", "move", nested.id, "--parent", guides.id, "--json").pipe(
        Effect.flatMap(decodeCollection)
      )
      assert.strictEqual(back.parent, guides.id)

      const deleted = yield* as("collections", "delete", guides.id)
      assert.strictEqual(deleted.status, 0)
      const orphan = yield* as("spaces", "get", space.id, "--json").pipe(Effect.flatMap(decodeSpace))
      assert.isUndefined(orphan.parent, "its space moved up to the root")
    }))

  it.effect("spaces duplicate and transfer; collections transfer", () =>
    Effect.gen(function*() {
      const { as, org } = yield* owner("Tomo")
      const elsewhere = yield* createOrganization(as, "Elsewhere")
      const space = yield* as("spaces", "create", org.id, "Original", "--json").pipe(Effect.flatMap(decodeSpace))
      const copy = yield* as("spaces", "duplicate", space.id, "--json").pipe(Effect.flatMap(decodeSpace))
      assert.notStrictEqual(copy.id, space.id)
      assert.strictEqual(copy.title, "Original (copy)")

      const transferred = yield* as("spaces", "transfer", copy.id, elsewhere.id, "--json").pipe(
        Effect.flatMap(decodeSpace)
      )
      assert.strictEqual(transferred.organization, elsewhere.id)
      const there = yield* as("spaces", "list", elsewhere.id, "--json").pipe(Effect.flatMap(decodeSpaces))
      assert.deepStrictEqual(there.items.map((space) => space.id), [copy.id])

      const folder = yield* as("collections", "create", org.id, "Folder", "--json").pipe(
        Effect.flatMap(decodeCollection)
      )
      const moved = yield* as("collections", "transfer", folder.id, elsewhere.id)
      assert.strictEqual(moved.status, 0, moved.stderr)
      assert.match(moved.stdout, new RegExp(`^organization:\\s+${elsewhere.id}$`, "m"))

      const wrongOrg = yield* as("spaces", "list", org.id, "--collection", folder.id)
      assert.strictEqual(wrongOrg.status, 1)
      assert.include(wrongOrg.stderr, `belongs to organization ${elsewhere.id}`)
    }))

  it.effect("an unknown space prints the server's 404 message and fails", () =>
    Effect.gen(function*() {
      const api = yield* client(adminToken)
      const answer = yield* api.spaces.getSpaceById({ params: { spaceId: "no-such-space" }, query: {} })
        .pipe(Effect.flip)
      assert.instanceOf(answer, ApiErrors.NotFound)
      const serverSays = (answer as ApiErrors.NotFound).error.message

      for (const command of [["get"], ["restore"], ["duplicate"], ["move", "--root"]]) {
        const [verb, ...flags] = command
        const run = yield* admin("spaces", verb!, "no-such-space", ...flags)
        assert.strictEqual(run.status, 1, verb)
        assert.strictEqual(run.stdout, "")
        if (verb === "get") assert.strictEqual(run.stderr, `quire: ${serverSays}`)
        assert.match(run.stderr, /^quire: .*no-such-space.*not found/i)
      }
    }))
})
