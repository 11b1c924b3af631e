/** The behaviour every SiteAgentRepo adapter must have. */
import { assert, describe, type Vitest } from "@effect/vitest"
import { Effect } from "effect"
import { Transactor } from "@quire/kernel"
import { allIds, assertNone, at, some } from "@quire/testkit"
import { SiteAgentRepo } from "../../src/agents/SiteAgentRepo.ts"
import { defaultAgentSettings, type SiteAgentSettingsRecord, type SiteMcpServer } from "../../src/domain/Agent.ts"

const server = (id: string, siteId: string, overrides: Partial<SiteMcpServer> = {}): SiteMcpServer => ({
  id,
  siteId,
  name: `Server ${id}`,
  url: `https://mcp.example.com/${id}`,
  transport: "sse",
  headerNames: ["Authorization"],
  sealedHeaders: `sealed-${id}`,
  condition: null,
  createdAt: at(0),
  updatedAt: at(0),
  ...overrides
})

const instructions = (text: string) => ({
  object: "document" as const,
  data: {},
  nodes: [{ object: "block", type: "paragraph", nodes: [{ object: "text", leaves: [{ object: "leaf", text, marks: [] }] }] }]
})

const changed: SiteAgentSettingsRecord = {
  scans: { topics: "never" },
  findings: { changeRequests: "always" },
  editing: { customInstructions: instructions("Write like a person.") },
  updatedAt: at(7),
  updatedBy: "u-ann"
}

export const siteAgentRepoContract = (it: Vitest.MethodsNonLive<SiteAgentRepo | Transactor.Transactor>) =>
  describe("SiteAgentRepo", () => {
    it.effect("answers the defaults until settings are stored, then exactly what was stored, per site", () =>
      Effect.gen(function*() {
        const repo = yield* SiteAgentRepo
        assert.deepStrictEqual(yield* repo.settings("sag-site"), defaultAgentSettings)
        yield* repo.putSettings("sag-site", changed)
        assert.deepStrictEqual(yield* repo.settings("sag-site"), changed)
        assert.deepStrictEqual(yield* repo.settings("sag-other"), defaultAgentSettings)
        const again = { ...changed, scans: { topics: "auto" as const }, updatedAt: at(9), updatedBy: "u-bob" }
        yield* repo.putSettings("sag-site", again)
        assert.deepStrictEqual(yield* repo.settings("sag-site"), again)
      }))

    it.effect("keeps a site's MCP servers oldest first, page by page, finds, replaces and removes one", () =>
      Effect.gen(function*() {
        const repo = yield* SiteAgentRepo
        yield* repo.insertMcpServer(server("mcp-b", "mcs-site", { createdAt: at(2) }))
        yield* repo.insertMcpServer(server("mcp-a", "mcs-site", { createdAt: at(1), transport: "http", condition: "visitor.claims.plan == \"pro\"" }))
        yield* repo.insertMcpServer(server("mcp-c", "mcs-site", { createdAt: at(2) }))
        yield* repo.insertMcpServer(server("mcp-x", "mcs-other"))
        assert.deepStrictEqual(yield* allIds((after) => repo.listMcpServers("mcs-site", after, 2)), ["mcp-a", "mcp-b", "mcp-c"])
        assert.deepStrictEqual(yield* allIds((after) => repo.listMcpServers("mcs-site", after, 1)), ["mcp-a", "mcp-b", "mcp-c"])
        assert.strictEqual(yield* repo.countMcpServers("mcs-site"), 3)
        assert.deepStrictEqual(some(yield* repo.findMcpServer("mcp-a")), server("mcp-a", "mcs-site", { createdAt: at(1), transport: "http", condition: "visitor.claims.plan == \"pro\"" }))
        const replaced = server("mcp-b", "mcs-site", { createdAt: at(2), name: "Tickets", headerNames: ["X-Key", "X-Team"], sealedHeaders: "other", updatedAt: at(5) })
        yield* repo.updateMcpServer(replaced)
        assert.deepStrictEqual(some(yield* repo.findMcpServer("mcp-b")), replaced)
        // Replacing a server that is not there stores nothing.
        yield* repo.updateMcpServer(server("mcp-gone", "mcs-site"))
        assertNone(yield* repo.findMcpServer("mcp-gone"))
        assert.isTrue(yield* repo.removeMcpServer("mcp-c"))
        assert.isFalse(yield* repo.removeMcpServer("mcp-c"))
        assert.deepStrictEqual(yield* allIds((after) => repo.listMcpServers("mcs-site", after, 5)), ["mcp-a", "mcp-b"])
      }))

    it.effect("forgets a deleted site's settings and servers, and nothing of another site's", () =>
      Effect.gen(function*() {
        const repo = yield* SiteAgentRepo
        yield* repo.putSettings("mrm-site", changed)
        yield* repo.putSettings("mrm-keep", changed)
        yield* repo.insertMcpServer(server("mrm-1", "mrm-site"))
        yield* repo.insertMcpServer(server("mrm-2", "mrm-keep"))
        yield* repo.removeSite("mrm-site")
        assert.deepStrictEqual(yield* repo.settings("mrm-site"), defaultAgentSettings)
        assertNone(yield* repo.findMcpServer("mrm-1"))
        assert.deepStrictEqual(yield* repo.settings("mrm-keep"), changed)
        assert.strictEqual(yield* repo.countMcpServers("mrm-keep"), 1)
      }))

    it.effect("keeps nothing written in a transaction that rolled back", () =>
      Effect.gen(function*() {
        const repo = yield* SiteAgentRepo
        const transactor = yield* Transactor.Transactor
        yield* transactor.transaction(Effect.gen(function*() {
          yield* repo.putSettings("mrb-site", changed)
          yield* repo.insertMcpServer(server("mrb-1", "mrb-site"))
          return yield* Effect.fail("undo" as const)
        })).pipe(Effect.ignore)
        assert.deepStrictEqual(yield* repo.settings("mrb-site"), defaultAgentSettings)
        assertNone(yield* repo.findMcpServer("mrb-1"))
      }))
  })
