/**
 * `quire audit` against a running server: an organization's events in a table, filtered by action
 * and actor; every page as JSON lines (`--jsonl`, and `export --out FILE`), one event a line, the
 * same events; the instance's log without `--org`; and a refusal for a non-admin of the organization.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { quire } from "./Quire.ts"
import { migratedEmbeddedDirectory, startServer } from "./ServerProcess.ts"

const token = "quire_audit_cli_test_token_0123456789"

const temporaryDirectory = Effect.acquireRelease(
  Effect.sync(() => mkdtempSync(join(tmpdir(), "quire-audit-"))),
  (dir) => Effect.sync(() => rmSync(dir, { recursive: true, force: true }))
)

describe("quire audit", () => {
  it.live("lists, filters and exports an organization's log and the instance's", () =>
    Effect.gen(function*() {
      const dir = yield* temporaryDirectory
      const dataDir = yield* migratedEmbeddedDirectory(join(dir, "data"))
      const server = yield* startServer({ QUIRE_ADMIN_TOKEN: token, QUIRE_DATA_DIR: dataDir }, ["QUIRE_SECRET"])
      const env = { QUIRE_URL: server.url, QUIRE_TOKEN: token }
      const run = Effect.fnUntraced(function*(...args: Array<string>) {
        const result = yield* quire(args, env)
        assert.strictEqual(result.status, 0, `quire ${args.join(" ")}: ${result.stderr}`)
        return result.stdout
      })
      const json = Effect.fnUntraced(function*(...args: Array<string>) {
        return JSON.parse(yield* run(...args, "--json")) as Record<string, any>
      })
      const me = yield* json("whoami")
      const org = yield* json("orgs", "create", "Audited")
      const organizationId = String(org.id)
      // 120 events: more than one page of the server's (100 a request).
      for (let i = 0; i < 60; i++) {
        const team = yield* json("teams", "create", organizationId, `Team ${i}`)
        yield* run("teams", "rename", organizationId, String(team.id), `Renamed ${i}`)
      }

      const table = yield* run("audit", "list", "--org", organizationId, "--action", "team.renamed", "--limit", "3")
      const rows = table.split("\n").filter((line) => line.includes("team.renamed"))
      assert.strictEqual(rows.length, 3, table)
      assert.include(table, "WHEN")
      assert.include(rows[0]!, "Renamed 59")

      const lines = (yield* run("audit", "list", "--org", organizationId, "--jsonl")).split("\n").filter((line) => line !== "")
      assert.strictEqual(lines.length, 120)
      const events = lines.map((line) => JSON.parse(line) as { id: string; action: string; actor: { id: string }; target: { label?: string } })
      assert.deepStrictEqual(new Set(events.map((e) => e.action)), new Set(["team.created", "team.renamed"]))
      assert.isTrue(events.every((e) => e.actor.id === me.id))
      assert.strictEqual(new Set(events.map((e) => e.id)).size, 120, "no event twice across pages")
      assert.strictEqual(events[0]!.target.label, "Renamed 59")

      const byActor = (yield* run("audit", "list", "--org", organizationId, "--actor", "nobody", "--jsonl")).trim()
      assert.strictEqual(byActor, "")

      const out = join(dir, "audit.jsonl")
      const exported = yield* run("audit", "export", "--org", organizationId, "--action", "team.created", "--out", out)
      assert.include(exported, "Exported 60 audit events")
      const written = readFileSync(out, "utf8").trimEnd().split("\n").map((line) => JSON.parse(line) as { action: string })
      assert.strictEqual(written.length, 60)
      assert.isTrue(written.every((e) => e.action === "team.created"))
      assert.isFalse(existsSync(`${out}.partial`))

      // The instance's log (the administrator's token): the organization's events with the instance's own.
      const instance = (yield* run("audit", "list", "--jsonl", "--limit", "150")).split("\n").filter((line) => line !== "")
      assert.isAtLeast(instance.length, 120)
      const actions = yield* run("audit", "actions", "--org", organizationId)
      assert.include(actions, "member.role-changed")

      // Bad filters are the server's 400, naming the field; an unknown organization is refused.
      const badFrom = yield* quire(["audit", "list", "--org", organizationId, "--from", "yesterday"], env)
      assert.strictEqual(badFrom.status, 1)
      assert.include(badFrom.stderr, "from")
      const other = yield* quire(["audit", "list", "--org", "no-such-org"], env)
      assert.strictEqual(other.status, 1)
    }), { timeout: 600_000 })

  it.effect("help lists the subcommands and export's --out", () =>
    Effect.gen(function*() {
      const help = yield* quire(["audit", "--help"])
      assert.strictEqual(help.status, 0, help.stderr)
      for (const command of ["list", "export", "actions"]) assert.include(help.stdout, command)
      const exportHelp = yield* quire(["audit", "export", "--help"])
      for (const flag of ["--out", "--org", "--action", "--actor", "--from", "--to"]) assert.include(exportHelp.stdout, flag)
      const missing = yield* quire(["audit", "export"], { QUIRE_TOKEN: "t" })
      assert.strictEqual(missing.status, 2)
    }))
})
