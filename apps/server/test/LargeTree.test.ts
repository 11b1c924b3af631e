/**
 * A space whose page tree is larger than one database row can bring back, on the embedded server
 * after a restart (nothing cached): its content is served and every later call answers. Such a
 * tree (written by a Git import of tens of thousands of files, over the client's 16 MiB) once made
 * every API call of the embedded server a 500 while /health answered 200. Here the client reads at
 * most 2 MiB a message and the tree is just over that; that rows stay far under the real limit is
 * checked in content's RevisionParts.test.ts, and `pnpm bench --scale` reads 100,000 pages back.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { flattenPages, type PageNode, SpaceContent } from "@quire/content"
import { asInstanceAdmin } from "@quire/testkit"
import { adminEmail, adminToken, client, embeddedServerOn } from "./Harness.ts"

/** What the test's database client reads in one message: a row over it would fail the call. */
const maxMessageBytes = 2 * 1024 * 1024
const serverOn = (dataDir: string) => embeddedServerOn(dataDir, { maxMessageBytes })

const stamp = "2024-01-01T00:00:00.000Z"
const groups = 12
const title = (n: number) => `Page ${n}: ${"Übersicht des Kapitels « réglages » ".repeat(11)}`

/** 12 groups of 30 groups of 9 links: 3,612 pages, about 2.2 MB of JSON. */
const largeTree = (): ReadonlyArray<PageNode> => {
  let n = 0
  const node = (id: string, pages: ReadonlyArray<PageNode>): PageNode => ({
    id,
    type: pages.length === 0 ? "link" : "group",
    title: title(n++),
    slug: id,
    ...(pages.length === 0 ? { target: { kind: "url" as const, url: `https://example.com/${id}` } } : {}),
    createdAt: stamp,
    updatedAt: stamp,
    pages
  })
  return Array.from({ length: groups }, (_, a) =>
    node(`p${a}`, Array.from({ length: 30 }, (_, b) => node(`p${a}-${b}`, Array.from({ length: 9 }, (_, c) => node(`p${a}-${b}-${c}`, []))))))
}

describe("embedded storage", () => {
  it.live("serves a tree larger than one row may hold after a restart, and keeps answering", () =>
    Effect.gen(function*() {
      const dataDir = mkdtempSync(join(tmpdir(), "quire-large-tree-"))
      yield* Effect.addFinalizer(() => Effect.sync(() => rmSync(dataDir, { recursive: true, force: true })))
      const pages = largeTree()
      assert.isAbove(Buffer.byteLength(JSON.stringify(pages)), maxMessageBytes)
      const spaceId = yield* Effect.scoped(Effect.gen(function*() {
        const api = yield* client(adminToken)
        const admin = yield* api.users.getAuthenticatedUser()
        const org = yield* api.organizations.createOrganization({ payload: { title: "Large" } })
        const space = yield* api.spaces.createSpace({ params: { organizationId: org.id }, payload: { title: "Imported" } })
        // As a Git import writes it: through the one write path, in one revision.
        const content = yield* SpaceContent
        yield* content.commit(space.id, () => Effect.succeed({ pages })).pipe(asInstanceAdmin(admin.id))
        return space.id
      }).pipe(Effect.provide(serverOn(dataDir))))

      const after = yield* Effect.scoped(Effect.gen(function*() {
        const api = yield* client(adminToken)
        const revision = yield* api.spaceContent.getCurrentRevision({ params: { spaceId }, query: {} })
        const space = yield* api.spaces.getSpaceById({ params: { spaceId }, query: {} })
        const user = yield* api.users.getAuthenticatedUser()
        return { revision, space, user }
      }).pipe(Effect.provide(serverOn(dataDir))))
      assert.strictEqual(after.space.id, spaceId)
      assert.strictEqual(after.user.email, adminEmail)
      const served = after.revision.pages
      assert.strictEqual(served.length, groups)
      assert.deepStrictEqual(served[groups - 1]?.pages?.[29]?.pages?.map((p) => p.title), pages[groups - 1]?.pages[29]?.pages.map((p) => p.title))
      let count = 0
      const walk = (nodes: ReadonlyArray<{ readonly pages?: ReadonlyArray<unknown> | undefined }>) => {
        for (const node of nodes) {
          count++
          walk((node.pages ?? []) as ReadonlyArray<{ readonly pages?: ReadonlyArray<unknown> }>)
        }
      }
      walk(served)
      assert.strictEqual(count, flattenPages(pages).length)
    }).pipe(Effect.scoped), { timeout: 180_000 })
})
