/**
 * What a future agent reads of a site (AgentGuidance: the organization's instructions, then the
 * site's, as markdown), and the MCP header rules: a masked value keeps the stored one, and only then.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer, Option } from "effect"
import { AgentGuidance, OrganizationAgentInstructions } from "../src/agents/AgentGuidance.ts"
import * as McpServerChecks from "../src/agents/McpServerChecks.ts"
import { SiteAgentRepo } from "../src/agents/SiteAgentRepo.ts"
import { defaultAgentSettings } from "../src/domain/Agent.ts"

const document = (...paragraphs: ReadonlyArray<string>) => ({
  object: "document" as const,
  data: {},
  nodes: paragraphs.map((text) => ({ object: "block", type: "paragraph", nodes: [{ object: "text", leaves: [{ object: "leaf", text, marks: [] }] }] }))
})

const guidance = AgentGuidance.layer.pipe(
  Layer.provideMerge(SiteAgentRepo.layerMemory),
  Layer.provide(Layer.succeed(OrganizationAgentInstructions, OrganizationAgentInstructions.of({
    of: (organizationId) => Effect.succeed(organizationId === "org-set" ? Option.some(document("Answer in British English.")) : Option.none())
  })))
)

describe("AgentGuidance", () => {
  it.effect("gives the organization's instructions and the site's custom instructions as markdown, empty when none", () =>
    Effect.gen(function*() {
      const agents = yield* AgentGuidance
      const repo = yield* SiteAgentRepo
      assert.deepStrictEqual(yield* agents.forSite("org-none", "site-1"), { organization: "", site: "" })
      yield* repo.putSettings("site-1", { ...defaultAgentSettings, editing: { customInstructions: document("Use steppers.", "Keep it short.") }, updatedAt: new Date(0), updatedBy: "u" })
      assert.deepStrictEqual(yield* agents.forSite("org-set", "site-1"), { organization: "Answer in British English.", site: "Use steppers.\n\nKeep it short." })
      assert.strictEqual(yield* agents.forOrganization("org-set"), "Answer in British English.")
    }).pipe(Effect.provide(guidance)))
})

describe("MCP headers", () => {
  const masked = "********"
  it.effect("keeps a stored value sent back masked, takes a new one, and refuses a mask with nothing stored", () =>
    Effect.gen(function*() {
      const stored = { Authorization: "Bearer old", "X-Team": "docs" }
      assert.deepStrictEqual(yield* McpServerChecks.headers({ Authorization: masked, "X-Team": "support" }, stored, masked), [["Authorization", "Bearer old"], ["X-Team", "support"]])
      // On a new server the mask is a value like any other.
      assert.deepStrictEqual(yield* McpServerChecks.headers({ "X-Key": masked }, undefined, masked), [["X-Key", masked]])
      const refused = yield* Effect.flip(McpServerChecks.headers({ "X-New": masked }, stored, masked))
      assert.strictEqual(refused.field, "headers.X-New")
      const twice = yield* Effect.flip(McpServerChecks.headers({ "x-key": "a", "X-Key": "b" }, undefined, masked))
      assert.strictEqual(twice.field, "headers.X-Key")
      const broken = yield* Effect.flip(McpServerChecks.headers({ "X-Key": "a\r\nHost: evil" }, undefined, masked))
      assert.strictEqual(broken.field, "headers.X-Key")
    }))

  it("refuses URLs that are not http(s), too long, or carry credentials", () => {
    assert.isUndefined(McpServerChecks.urlProblem("https://mcp.example.com/mcp"))
    assert.match(McpServerChecks.urlProblem("ftp://mcp.example.com/")!, /http or https/)
    assert.match(McpServerChecks.urlProblem("https://user:pw@mcp.example.com/")!, /user name or password/)
    assert.match(McpServerChecks.urlProblem(`https://mcp.example.com/${"a".repeat(2048)}`)!, /2048/)
    assert.match(McpServerChecks.urlProblem("mcp.example.com")!, /absolute URL/)
  })
})
