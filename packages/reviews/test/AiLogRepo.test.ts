/**
 * The AI log's port on memory, PostgreSQL and PGlite: calls kept whole (prompt, tools, answer,
 * tool calls, failure), listed newest first by organization or conversation, a page at a time.
 */
import { assert } from "@effect/vitest"
import { Effect } from "effect"
import { Backends } from "@quire/testkit"
import { AiLogRepo, type StoredAiCall } from "../src/ailog/AiLogRepo.ts"
import * as SqlAiLogRepo from "../src/ailog/SqlAiLogRepo.ts"
import { migrations } from "../src/index.ts"

const backends = Backends.ports({ memory: AiLogRepo.layerMemory, sql: SqlAiLogRepo.layer, migrations: [migrations] })

const call = (id: string, organizationId: string, conversationId: string | null, seconds: number): StoredAiCall => ({
  id,
  organizationId,
  conversationId,
  purpose: conversationId === null ? "ask" : "organization-agent",
  model: "m",
  prompt: [{ role: "system", content: "Passage: the VPN client." }, { role: "user", content: `Question ${id}` }],
  tools: ["read_page"],
  answer: `Answer ${id}`,
  toolCalls: [{ name: "read_page", params: { pageId: "p1" } }],
  tokens: 42,
  failure: id === "c3" ? "the endpoint answered 500" : null,
  at: new Date(Date.UTC(2026, 0, 1, 0, 0, seconds))
})

Backends.each(backends, (it) => {
  it.effect("keeps each call whole and lists them newest first, by organization or conversation, page by page", () =>
    Effect.gen(function*() {
      const repo = yield* AiLogRepo
      for (const c of [call("c1", "ai-org", "u1:a", 1), call("c2", "ai-org", null, 2), call("c3", "ai-org", "u1:a", 3), call("c4", "ai-other", null, 4)]) yield* repo.insert(c)
      const all = yield* repo.list({ organizationId: "ai-org" }, undefined, 10)
      assert.deepStrictEqual(all.items.map((c) => c.id), ["c3", "c2", "c1"])
      assert.deepStrictEqual(all.items[0], call("c3", "ai-org", "u1:a", 3))
      const conversation = yield* repo.list({ organizationId: "ai-org", conversationId: "u1:a" }, undefined, 10)
      assert.deepStrictEqual(conversation.items.map((c) => c.id), ["c3", "c1"])
      const first = yield* repo.list({ organizationId: "ai-org" }, undefined, 2)
      assert.deepStrictEqual(first.items.map((c) => c.id), ["c3", "c2"])
      assert.isDefined(first.next)
      const rest = yield* repo.list({ organizationId: "ai-org" }, [first.items[1]!.at.toISOString(), "c2"], 2)
      assert.deepStrictEqual(rest.items.map((c) => c.id), ["c1"])
      assert.isUndefined(rest.next)
    }))
})
