/** `quire` against a real server (memory backend): what a user sees on stdout and stderr, and the exit status. */
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { ApiToken, Member, Organization, Schemas, Team } from "@quire/api"
import { adminEmail, baseUrl, memory, newUser } from "@quire/server/test/Harness"
import { admin, createOrganization, decodeJson, lines, quire, quireAs, rowWith } from "./Quire.ts"

layer(memory.layer, { timeout: 120_000, excludeTestServices: true })("quire on a memory server", (it) => {
  it.effect("--help lists the commands at every level", () =>
    Effect.gen(function*() {
      const root = yield* quire(["--help"])
      assert.strictEqual(root.status, 0)
      for (const command of ["whoami", "users", "orgs", "members", "teams", "spaces", "collections", "search", "db"]) {
        assert.match(root.stdout, new RegExp(`^\\s+${command}\\b`, "m"))
      }
      for (const flag of ["--url", "--token", "--json"]) assert.include(root.stdout, flag)
      const groups: Record<string, ReadonlyArray<string>> = {
        users: ["get", "create", "token"],
        orgs: ["list", "get", "create", "update", "invite", "invitations", "accept", "decline"],
        members: ["list", "get", "set-role", "remove"],
        teams: ["list", "create", "get", "rename", "delete"],
        spaces: ["list", "get", "create", "update", "delete", "restore", "duplicate", "move", "transfer", "search"],
        collections: ["list", "get", "create", "update", "delete", "spaces", "move", "transfer"],
        db: ["migrate"]
      }
      for (const [group, subcommands] of Object.entries(groups)) {
        const help = yield* quire([group, "--help"])
        assert.strictEqual(help.status, 0)
        for (const subcommand of subcommands) assert.match(help.stdout, new RegExp(`^\\s+${subcommand}\\b`, "m"))
      }
      const leaf = yield* quire(["members", "list", "--help"])
      for (const flag of ["--role", "--search", "--sort", "--order", "--limit"]) assert.include(leaf.stdout, flag)
      const move = yield* quire(["spaces", "move", "--help"])
      for (const flag of ["--collection", "--root", "--before", "--after"]) assert.include(move.stdout, flag)
    }))

  it.effect("whoami shows the user behind the token", () =>
    Effect.gen(function*() {
      const run = yield* admin("whoami")
      assert.strictEqual(run.status, 0)
      assert.match(run.stdout, new RegExp(`^email:\\s+${adminEmail}$`, "m"))
      assert.strictEqual(run.stderr, "")
    }))

  it.effect("orgs create, then orgs list shows it as JSON and as a table", () =>
    Effect.gen(function*() {
      const olga = yield* newUser("Olga")
      const as = quireAs(olga.token)
      const created = yield* createOrganization(as, "Olga's Docs")
      assert.strictEqual(created.title, "Olga's Docs")

      const listed = yield* as("orgs", "list", "--json").pipe(Effect.flatMap(decodeJson(Schemas.ListOf(Organization))))
      assert.deepStrictEqual(listed.items.map((org) => org.id), [created.id])
      assert.strictEqual(listed.count, 1)

      const table = yield* as("orgs", "list")
      assert.strictEqual(table.status, 0)
      const [header, ...rows] = lines(table.stdout)
      assert.match(header!, /^ID\s+TITLE\s+ADMIN\s+CREATED$/)
      assert.strictEqual(rows.length, 1)
      const row = rowWith(table.stdout, created.id)
      assert.match(row, /Olga's Docs\s+yes\s+\d{4}-\d\d-\d\d \d\d:\d\d$/)
      // Columns are aligned: each value starts under its header.
      assert.strictEqual(row.indexOf("Olga's Docs"), header!.indexOf("TITLE"))
      assert.strictEqual(row.indexOf("yes"), header!.indexOf("ADMIN"))
    }))

  it.effect("lists follow next.page to the end, or stop at --limit", () =>
    Effect.gen(function*() {
      const pia = yield* newUser("Pia")
      const as = quireAs(pia.token)
      for (const title of ["Alpha", "Beta", "Gamma"]) yield* createOrganization(as, title)
      const decodeList = decodeJson(Schemas.ListOf(Organization))

      const all = yield* as("orgs", "list", "--page-size", "2", "--json").pipe(Effect.flatMap(decodeList))
      assert.deepStrictEqual(all.items.map((org) => org.title).toSorted(), ["Alpha", "Beta", "Gamma"])
      assert.isUndefined(all.next)

      const two = yield* as("orgs", "list", "--page-size", "1", "--limit", "2", "--json").pipe(
        Effect.flatMap(decodeList)
      )
      assert.strictEqual(two.count, 2)
      assert.isDefined(two.next, "the server has more, so the envelope says where to go on")

      const table = yield* as("orgs", "ls", "--limit", "1")
      assert.strictEqual(lines(table.stdout).length, 2)
    }))

  it.effect("members list shows the creator as admin; invite, set-role and remove change it", () =>
    Effect.gen(function*() {
      const maria = yield* newUser("Maria")
      const bruno = yield* newUser("Bruno")
      const as = quireAs(maria.token)
      const org = yield* createOrganization(as, "Maria's Docs")

      const table = yield* as("members", "list", org.id)
      assert.strictEqual(table.status, 0)
      assert.match(lines(table.stdout)[0]!, /^ID\s+NAME\s+EMAIL\s+ROLE\s+JOINED$/)
      assert.match(rowWith(table.stdout, maria.email), /\badmin\b/)

      const invited = yield* as("orgs", "invite", org.id, bruno.email, "--role", "edit")
      assert.strictEqual(invited.status, 0)
      // An organization admin's invitation adds nobody, so it names nobody (issue 34: it told who had an account).
      assert.strictEqual(invited.stdout.trim(), "Invited 1.")
      // Issue 18: the invitation is an offer; Bruno joins when he accepts it.
      const asBruno = quireAs(bruno.token)
      const offers = yield* asBruno("orgs", "invitations")
      assert.match(rowWith(offers.stdout, org.id), /Maria's Docs\s+edit\s+no\b/)
      const accepted = yield* asBruno("orgs", "accept", org.id)
      assert.strictEqual(accepted.status, 0, accepted.stderr)
      assert.include(accepted.stdout, "Joined Maria's Docs as edit.")
      assert.strictEqual((yield* asBruno("orgs", "accept", org.id)).status, 1)

      const editors = yield* as("members", "list", org.id, "--role", "edit", "--json").pipe(
        Effect.flatMap(decodeJson(Schemas.ListOf(Member)))
      )
      assert.deepStrictEqual(editors.items.map((member) => member.id), [bruno.user.id])

      const changed = yield* as("members", "set-role", org.id, bruno.user.id, "review")
      assert.match(changed.stdout, /^role:\s+review$/m)
      const shown = yield* as("members", "get", org.id, bruno.user.id, "--json").pipe(
        Effect.flatMap(decodeJson(Member))
      )
      assert.strictEqual(shown.role, "review")

      const removed = yield* as("members", "remove", org.id, bruno.user.id)
      assert.strictEqual(removed.status, 0)
      const gone = yield* as("members", "get", org.id, bruno.user.id)
      assert.strictEqual(gone.status, 1)
      assert.match(gone.stderr, /^quire: .+/)
      assert.strictEqual(gone.stdout, "")
    }))

  it.effect("teams create, list, rename and delete", () =>
    Effect.gen(function*() {
      const tess = yield* newUser("Tess")
      const as = quireAs(tess.token)
      const org = yield* createOrganization(as, "Tess's Docs")

      const empty = yield* as("teams", "list", org.id)
      assert.include(empty.stdout, "No teams yet")

      const team = yield* as("teams", "create", org.id, "Writers", "--member", tess.user.id, "--json").pipe(
        Effect.flatMap(decodeJson(Team))
      )
      assert.strictEqual(team.title, "Writers")
      assert.strictEqual(team.members, 1)

      const table = yield* as("teams", "list", org.id)
      assert.match(lines(table.stdout)[0]!, /^ID\s+TITLE\s+MEMBERS\s+SPACES\s+CREATED$/)
      assert.match(rowWith(table.stdout, team.id), /Writers\s+1\s+0\s+/)

      const renamed = yield* as("teams", "rename", org.id, team.id, "Editors")
      assert.match(renamed.stdout, /^title:\s+Editors$/m)
      const listed = yield* as("teams", "list", org.id, "--json").pipe(Effect.flatMap(decodeJson(Schemas.ListOf(Team))))
      assert.deepStrictEqual(listed.items.map((t) => t.title), ["Editors"])

      const deleted = yield* as("teams", "delete", org.id, team.id)
      assert.strictEqual(deleted.status, 0)
      const after = yield* as("teams", "get", org.id, team.id)
      assert.strictEqual(after.status, 1)
    }))

  it.effect("orgs get and update show the organization", () =>
    Effect.gen(function*() {
      const uma = yield* newUser("Uma")
      const as = quireAs(uma.token)
      const org = yield* createOrganization(as, "Uma's Docs")
      const nothing = yield* as("orgs", "update", org.id)
      assert.strictEqual(nothing.status, 1)
      assert.include(nothing.stderr, "Nothing to update")
      const updated = yield* as("orgs", "update", org.id, "--title", "Uma's Handbook", "--email-domain", "uma.example")
      assert.strictEqual(updated.status, 0)
      const shown = yield* as("orgs", "get", org.id)
      assert.match(shown.stdout, /^title:\s+Uma's Handbook$/m)
      assert.match(shown.stdout, /^email domains:\s+uma\.example$/m)
    }))

  it.effect("users create and users token give a token that works", () =>
    Effect.gen(function*() {
      const email = `zed.${Date.now()}@example.com`
      const user = yield* admin("users", "create", "--email", email, "--name", "Zed", "--json").pipe(
        Effect.flatMap(decodeJson(Schemas.User))
      )
      assert.strictEqual(user.email, email)
      const shown = yield* admin("users", "get", user.id)
      assert.match(shown.stdout, /^name:\s+Zed$/m)
      const issued = yield* admin("users", "token", user.id, "--label", "ci", "--json").pipe(
        Effect.flatMap(decodeJson(ApiToken))
      )
      assert.strictEqual(issued.label, "ci")
      const url = yield* baseUrl
      // Flags instead of the environment.
      const me = yield* quire(["whoami", "--url", url, "--token", issued.token])
      assert.match(me.stdout, new RegExp(`^email:\\s+${email.replace(/\./g, "\\.")}$`, "m"))
    }))

  it.effect("an invalid token prints the server's 401 message and fails", () =>
    Effect.gen(function*() {
      const run = yield* quireAs("quire_not_a_token")("orgs", "list")
      assert.strictEqual(run.status, 1)
      assert.strictEqual(run.stdout, "")
      assert.strictEqual(run.stderr, "quire: A valid API token is required: send `Authorization: Bearer <token>`")
    }))

  it.effect("a missing token says how to set QUIRE_TOKEN", () =>
    Effect.gen(function*() {
      const run = yield* quire(["orgs", "list"], { QUIRE_URL: yield* baseUrl })
      assert.strictEqual(run.status, 1)
      assert.match(run.stderr, /QUIRE_TOKEN/)
      assert.match(run.stderr, /--token/)
    }))

  it.effect("API errors print the server's message; unreachable servers and bad input are named", () =>
    Effect.gen(function*() {
      const missing = yield* admin("orgs", "get", "no-such-org")
      assert.strictEqual(missing.status, 1)
      assert.match(missing.stderr, /^quire: .*no-such-org.*not found/i)

      const unreachable = yield* quire(["whoami"], { QUIRE_URL: "http://127.0.0.1:1", QUIRE_TOKEN: "x" })
      assert.strictEqual(unreachable.status, 1)
      assert.include(unreachable.stderr, "Cannot reach the Quire server at http://127.0.0.1:1")

      const short = yield* admin("orgs", "create", "x")
      assert.strictEqual(short.status, 1)
      assert.match(short.stderr, /title/)
    }))

  it.effect("a command line that does not parse shows the error on stderr, exit status 2", () =>
    Effect.gen(function*() {
      const run = yield* admin("orgs", "list", "--bogus")
      assert.strictEqual(run.status, 2)
      assert.include(run.stderr, "--bogus")
      assert.include(run.stderr, "quire orgs list --help")
      assert.strictEqual(run.stdout, "")
      const role = yield* admin("members", "set-role", "org", "user", "superuser")
      assert.strictEqual(role.status, 2)
      assert.include(role.stderr, "superuser")
    }))
})
