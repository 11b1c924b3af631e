/**
 * The authors' MCP server at `/mcp`, driven by the official MCP client over streamable HTTP:
 * `initialize`, `tools/list` and each tool, as an editor; a reader, a stranger and no token get
 * no more than the API gives them.
 */
import { assert, layer } from "@effect/vitest"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { Effect } from "effect"
import { backends, baseUrl, inviteAndAccept, newUser, raw, spaceWith } from "./Harness.ts"

interface ToolAnswer { readonly content: Array<{ type: string; text: string }>; readonly structuredContent?: any; readonly isError?: boolean }

/** An MCP client signed in with `token`, connected (initialized) to the server at `base`. */
const connect = async (base: string, token: string) => {
  const client = new Client({ name: "quire-test", version: "1.0.0" })
  await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit: { headers: { authorization: `Bearer ${token}` } } }))
  const call = async (name: string, args: Record<string, unknown>) => await client.callTool({ name, arguments: args }) as ToolAnswer
  return { client, call }
}

const textOf = (answer: ToolAnswer) => answer.content.map((part) => part.text).join("\n")

for (const backend of backends) {
  layer(backend.layer, { timeout: 120_000 })(`the authors' MCP server (${backend.name})`, (it) => {
    it.effect("an editor lists, reads, searches, opens a change request, writes, comments, asks a reviewer; merging follows the merge rules", () =>
      Effect.gen(function*() {
        const base = yield* baseUrl
        const setup = yield* spaceWith(["edit", "review"])
        const spaceId = setup.space.id
        const editor = setup.members.edit!
        const reviewer = setup.members.review!
        yield* setup.alice.api.spaces.updateSpaceById({ params: { spaceId }, payload: { mergeRules: { type: "rules", rules: [{ rule: "require_at_least_one_approved_review" }] } } })

        yield* Effect.promise(async () => {
          const { call, client } = await connect(base, editor.token)
          try {
            assert.strictEqual(client.getServerVersion()?.name, "quire")
            assert.include(client.getInstructions() ?? "", "change request")
            const names = (await client.listTools()).tools.map((tool) => tool.name)
            assert.deepStrictEqual(names, ["listSpaces", "listPages", "getPage", "search", "createChangeRequest", "writePage", "comment", "requestReview", "mergeChangeRequest"])

            const spaces = await call("listSpaces", {})
            assert.include(textOf(spaces), `Docs (id ${spaceId})`)
            assert.deepStrictEqual(spaces.structuredContent.spaces, [{ id: spaceId, title: "Docs", organization: setup.organizationId }])

            const opened = await call("createChangeRequest", { spaceId, subject: "Install guide" })
            assert.isUndefined(opened.isError, textOf(opened))
            const changeRequestId = opened.structuredContent.id as string
            const written = await call("writePage", { spaceId, changeRequestId, title: "Install", markdown: "# Install\n\nRun `quire start` to serve the zeppelin docs.\n" })
            assert.isUndefined(written.isError, textOf(written))

            const pages = await call("listPages", { spaceId, changeRequestId })
            assert.match(textOf(pages), /- Install \(id [^,]+, path install\)/)
            const pageId = pages.structuredContent.pages[0].id as string
            const read = await call("getPage", { spaceId, changeRequestId, path: "install" })
            assert.include(textOf(read), "Run `quire start` to serve the zeppelin docs.")
            const rewritten = await call("writePage", { spaceId, changeRequestId, pageId, markdown: "Run `quire start` to serve the airship docs.\n" })
            assert.isUndefined(rewritten.isError, textOf(rewritten))
            assert.include(textOf(await call("getPage", { spaceId, changeRequestId, pageId })), "airship")
            // The published space has no page yet: the change request's are its own.
            assert.strictEqual(textOf(await call("listPages", { spaceId })), "The space has no pages.")

            const commented = await call("comment", { spaceId, changeRequestId, markdown: "Ready for a look", pageId })
            assert.isUndefined(commented.isError, textOf(commented))
            const asked = await call("requestReview", { spaceId, changeRequestId, reviewers: [reviewer.user.id] })
            assert.strictEqual(textOf(asked), "Review requested from 1 reviewer(s).")

            // An editor may not merge in this space: the API's refusal is the tool's error.
            const refused = await call("mergeChangeRequest", { spaceId, changeRequestId })
            assert.isTrue(refused.isError)
            assert.match(textOf(refused), /^403: Your role does not allow you to merge/)
            // The administrator may, once the review the space's rules ask for is in.
            const admin = await connect(base, setup.alice.token)
            const early = await admin.call("mergeChangeRequest", { spaceId, changeRequestId })
            assert.isTrue(early.isError)
            const approved = await fetch(`${base}/v1/spaces/${spaceId}/change-requests/${changeRequestId}/reviews`, {
              method: "POST",
              headers: { authorization: `Bearer ${reviewer.token}`, "content-type": "application/json" },
              body: JSON.stringify({ status: "approved" })
            })
            assert.strictEqual(approved.status, 201)
            const merged = await admin.call("mergeChangeRequest", { spaceId, changeRequestId })
            await admin.client.close()
            assert.isUndefined(merged.isError, textOf(merged))
            const found = await call("search", { spaceId, query: "airship" })
            assert.include(textOf(found), "Install")
            assert.include(textOf(await call("search", { organizationId: setup.organizationId, query: "airship" })), `space ${spaceId}`)

            // Bad arguments are the tool's error, naming the argument.
            assert.strictEqual(textOf(await call("getPage", { spaceId })), "pageId or path: give one of them")
            assert.strictEqual(textOf(await call("writePage", { spaceId, changeRequestId, markdown: "x" })), "title: a new page needs a title (or give pageId to replace a page)")
            assert.isTrue((await call("nothing", {})).isError)
          } finally {
            await client.close()
          }
        })
      }))

    it.effect("a reader cannot write, a stranger sees nothing, and no token is a 401", () =>
      Effect.gen(function*() {
        const base = yield* baseUrl
        const setup = yield* spaceWith(["read"])
        const spaceId = setup.space.id
        const stranger = yield* newUser("Stranger")
        yield* Effect.promise(async () => {
          const reader = await connect(base, setup.members.read!.token)
          try {
            const refused = await reader.call("createChangeRequest", { spaceId, subject: "Sneaky" })
            assert.isTrue(refused.isError)
            assert.match(textOf(refused), /^403: /)
          } finally {
            await reader.client.close()
          }
          const outsider = await connect(base, stranger.token)
          try {
            assert.strictEqual(textOf(await outsider.call("listSpaces", {})), "You belong to no organization.")
            assert.match(textOf(await outsider.call("listPages", { spaceId })), /^(403|404): /)
          } finally {
            await outsider.client.close()
          }
        })
        const anonymous = yield* raw("POST", "/mcp", { body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }) })
        assert.strictEqual(anonymous.status, 401)
        const wrong = yield* raw("POST", "/mcp", { token: "quire_not_a_token", body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }) })
        assert.strictEqual(wrong.status, 401)
        const stream = yield* raw("GET", "/mcp", { token: stranger.token })
        assert.strictEqual(stream.status, 405)
      }))

    it.effect("a member invited later sees the organization's spaces through the same token", () =>
      Effect.gen(function*() {
        const base = yield* baseUrl
        const setup = yield* spaceWith()
        const late = yield* newUser("Late")
        const before = yield* Effect.promise(async () => {
          const { call, client } = await connect(base, late.token)
          try {
            return textOf(await call("listSpaces", {}))
          } finally {
            await client.close()
          }
        })
        assert.strictEqual(before, "You belong to no organization.")
        yield* inviteAndAccept(setup.alice.api, setup.organizationId, late, "read")
        const after = yield* Effect.promise(async () => {
          const { call, client } = await connect(base, late.token)
          try {
            return textOf(await call("listSpaces", { organizationId: setup.organizationId }))
          } finally {
            await client.close()
          }
        })
        assert.include(after, `Docs (id ${setup.space.id})`)
      }))
  })
}
