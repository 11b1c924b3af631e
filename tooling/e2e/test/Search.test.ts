/** `quire search` and `quire spaces search` against a real server (memory backend). */
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { SearchPageResult, SearchSpaceResult, Schemas, Space } from "@quire/api"
import { memory, newUser, raw } from "@quire/server/test/Harness"
import { createOrganization, decodeJson, lines, quire, quireAs, rowWith } from "./Quire.ts"

const decodePages = decodeJson(Schemas.ListOf(SearchPageResult))
const decodeSpaces = decodeJson(Schemas.ListOf(SearchSpaceResult))

/** A new user with an organization and a space filled from a template (docs/TEMPLATES.md). */
const spaceFrom = Effect.fnUntraced(function*(name: string, template: string) {
  const user = yield* newUser(name)
  const as = quireAs(user.token)
  const org = yield* createOrganization(as, `${name}'s Docs`)
  const space = yield* as("spaces", "create", org.id, "Operations", "--json").pipe(Effect.flatMap(decodeJson(Space)))
  yield* user.api.spaceContent.applyTemplateToSpace({ params: { spaceId: space.id }, payload: { id: template } })
  return { as, org, space, user }
})

/** What the server answers to a raw request: its status and `error.message`. */
const serverSays = Effect.fnUntraced(function*(path: string, token: string) {
  const answer = yield* raw("GET", path, { token })
  const message = (answer.body as { readonly error: { readonly message: string } }).error.message
  return { status: answer.status, message }
})

layer(memory.layer, { timeout: 120_000, excludeTestServices: true })("quire search", (it) => {
  it.effect("spaces search finds a template's page by a word of its body, as a table and as JSON", () =>
    Effect.gen(function*() {
      // The runbook's "On-call" page: "One primary and one secondary, weekly, ...".
      const { as, space } = yield* spaceFrom("Rhea", "runbook")

      const table = yield* as("spaces", "search", space.id, "secondary")
      assert.strictEqual(table.status, 0, table.stderr)
      const [header, ...rows] = lines(table.stdout)
      assert.match(header!, /^PATH\s+TITLE\s+EXCERPT$/)
      assert.strictEqual(rows.length, 1, table.stdout)
      assert.match(rowWith(table.stdout, "on-call"), /^on-call\s+On-call\s+.*\bsecondary\b/)
      assert.strictEqual(rows[0]!.indexOf("On-call"), header!.indexOf("TITLE"))

      const json = yield* as("spaces", "search", space.id, "secondary", "--json").pipe(Effect.flatMap(decodePages))
      assert.deepStrictEqual(json.items.map((page) => [page.title, page.path]), [["On-call", "on-call"]])
      assert.include(json.items[0]!.sections[0]!.body, "secondary")
      assert.isUndefined(json.next)

      const none = yield* as("spaces", "search", space.id, "walrus")
      assert.strictEqual(none.status, 0)
      assert.strictEqual(none.stdout, "No results for \"walrus\".")
    }))

  it.effect("search finds pages across the organization's spaces, with the space; --limit stops it", () =>
    Effect.gen(function*() {
      const { as, org, space, user } = yield* spaceFrom("Ines", "runbook")
      const other = yield* as("spaces", "create", org.id, "Support", "--json").pipe(Effect.flatMap(decodeJson(Space)))
      // The knowledge base's "Reset a password" page.
      yield* user.api.spaceContent.applyTemplateToSpace({ params: { spaceId: other.id }, payload: { id: "knowledge-base" } })

      const table = yield* as("search", org.id, "incident")
      assert.strictEqual(table.status, 0, table.stderr)
      const [header, ...rows] = lines(table.stdout)
      assert.match(header!, /^SPACE\s+PATH\s+TITLE\s+EXCERPT$/)
      const row = rowWith(table.stdout, "incident-response")
      assert.match(row, /^Operations\s+incident-response\s+Incident response\s+.*\bincident\b/i)
      assert.isTrue(rows.every((row) => row.startsWith("Operations")), table.stdout)

      const json = yield* as("search", org.id, "incident", "--json").pipe(Effect.flatMap(decodeSpaces))
      assert.deepStrictEqual(json.items.map((found) => [found.type, found.id, found.title]), [["space", space.id, "Operations"]])
      const page = json.items[0]!.pages.find((page) => page.path === "incident-response")
      assert.strictEqual(page?.title, "Incident response")
      assert.isTrue(page!.sections.some((section) => /incident/i.test(section.body)))

      const password = yield* as("search", org.id, "password", "--json").pipe(Effect.flatMap(decodeSpaces))
      assert.deepStrictEqual(password.items.map((found) => found.id), [other.id])

      assert.isAbove(rows.length, 1, "the runbook mentions incidents on more than one page")
      const limited = yield* as("search", org.id, "incident", "--limit", "1")
      assert.strictEqual(limited.status, 0, limited.stderr)
      assert.deepStrictEqual(lines(limited.stdout).slice(1), [rows[0]!, "More results: raise --limit (showing 1)."])
      const limitedJson = yield* as("search", org.id, "incident", "--limit", "1", "--json").pipe(
        Effect.flatMap(decodeSpaces)
      )
      assert.strictEqual(limitedJson.items[0]!.pages.length, 1)
      assert.isDefined(limitedJson.next)
    }))

  it.effect("an empty query is refused with the server's 400 message", () =>
    Effect.gen(function*() {
      const { as, org, space, user } = yield* spaceFrom("Odo", "runbook")
      const cases = [
        { args: ["spaces", "search", space.id, ""], path: `/v1/spaces/${space.id}/search?query=` },
        { args: ["search", org.id, ""], path: `/v1/orgs/${org.id}/search?query=` },
        { args: ["search", org.id, "  "], path: `/v1/orgs/${org.id}/search?query=%20%20` }
      ]
      for (const { args, path } of cases) {
        const expected = yield* serverSays(path, user.token)
        assert.strictEqual(expected.status, 400, path)
        const run = yield* as(...args)
        assert.strictEqual(run.status, 1, path)
        assert.strictEqual(run.stdout, "")
        assert.strictEqual(run.stderr, `quire: ${expected.message}`, path)
        assert.include(run.stderr, "query")
      }
    }))

  it.effect("a space or organization the caller cannot see is a 404, exit status 1", () =>
    Effect.gen(function*() {
      const { org, space } = yield* spaceFrom("Vera", "runbook")
      const outsider = yield* newUser("Outsider")
      const as = quireAs(outsider.token)
      const expected = yield* serverSays(`/v1/spaces/${space.id}/search?query=secondary`, outsider.token)
      assert.strictEqual(expected.status, 404)

      const inSpace = yield* as("spaces", "search", space.id, "secondary")
      assert.strictEqual(inSpace.status, 1)
      assert.strictEqual(inSpace.stdout, "")
      assert.strictEqual(inSpace.stderr, `quire: ${expected.message}`)

      const inOrg = yield* as("search", org.id, "secondary", "--json")
      assert.strictEqual(inOrg.status, 1)
      assert.strictEqual(inOrg.stdout, "")
      assert.match(inOrg.stderr, /^quire: .*not found/i)
    }))

  it.effect("--help describes both commands and --limit", () =>
    Effect.gen(function*() {
      for (const command of [["search"], ["spaces", "search"]]) {
        const help = yield* quire([...command, "--help"])
        assert.strictEqual(help.status, 0, command.join(" "))
        for (const text of ["--limit", "query", "default: 20"]) assert.include(help.stdout, text, command.join(" "))
      }
      const bad = yield* quire(["search", "org", "word", "--limit", "0"])
      assert.strictEqual(bad.status, 2)
      assert.include(bad.stderr, "--limit must be at least 1")
    }))
})
