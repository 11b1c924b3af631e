/**
 * `quire sites export` against a running server: a published site written to a directory as static
 * files (pages, nested pages, markdown, machine files, the offline search), and the usage error
 * without `--out`.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { safeName } from "../src/commands/SiteExportCommand.ts"
import { quire } from "./Quire.ts"
import { migratedEmbeddedDirectory, startServer } from "./ServerProcess.ts"

const token = "quire_site_export_cli_test_token_0123456789"

const temporaryDirectory = Effect.acquireRelease(
  Effect.sync(() => mkdtempSync(join(tmpdir(), "quire-export-"))),
  (dir) => Effect.sync(() => rmSync(dir, { recursive: true, force: true }))
)

describe("quire sites export", () => {
  it("never writes outside the directory it was given", () => {
    assert.isTrue(safeName("guides/install/index.html"))
    for (const name of ["../evil", "a/../../b", "/etc/passwd", "C:/x", "a\\b", ""]) assert.isFalse(safeName(name), name)
  })

  it.effect("without --out is a usage error (exit 2)", () =>
    Effect.gen(function*() {
      const run = yield* quire(["sites", "export", "ORG", "SITE"], { QUIRE_TOKEN: "t" })
      assert.strictEqual(run.status, 2)
    }))

  it.live("writes a published site to a directory as static files", () =>
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
      const organizationId = String((yield* json("orgs", "create", "Exported")).id)
      const spaceId = String((yield* json("spaces", "create", organizationId, "Guide")).id)
      writeFileSync(join(dir, "welcome.md"), "# Welcome\n\nStart with the install guide.\n")
      writeFileSync(join(dir, "install.md"), "# Install\n\nInstall with capybaras.\n")
      const cr = yield* json("pages", "put", spaceId, "welcome", join(dir, "welcome.md"))
      yield* run("pages", "put", spaceId, "install", join(dir, "install.md"), "--cr", String(cr.number))
      yield* run("cr", "merge", spaceId, String(cr.number))
      const siteId = String((yield* json("sites", "create", organizationId, "Guide site", "--space", spaceId)).id)
      yield* run("sites", "publish", organizationId, siteId)

      const out = join(dir, "site")
      const said = yield* run("sites", "export", organizationId, siteId, "--out", out)
      assert.match(said, /Exported site .*: \d+ files, \d+ pages/)
      assert.notInclude(said, "Note:")
      for (const name of ["index.html", "install/index.html", "install.md", "sitemap.xml", "robots.txt", "llms.txt", "llms-full.txt", "~export/search-index.js", "~export/search.js"]) {
        assert.isTrue(existsSync(join(out, name)), `${name} was written`)
      }
      assert.include(readFileSync(join(out, "install.md"), "utf8"), "Install with capybaras.")
      assert.include(readFileSync(join(out, "index.html"), "utf8"), `href="install/index.html"`)
      assert.include(readFileSync(join(out, "~export/search-index.js"), "utf8"), "capybaras")

      // A share-link site: only what its public audience sees, and the command says so.
      yield* run("sites", "create", organizationId, "Shared", "--space", spaceId, "--visibility", "share-link", "--json").pipe(Effect.flatMap((text) =>
        Effect.gen(function*() {
          const shared = String((JSON.parse(text) as { id: string }).id)
          yield* run("sites", "publish", organizationId, shared)
          const note = yield* run("sites", "export", organizationId, shared, "--out", join(dir, "shared"))
          assert.include(note, "Note: This site is read with a share link: the export holds only what its public audience sees")
        })
      ))
    }), { timeout: 180_000 })
})
