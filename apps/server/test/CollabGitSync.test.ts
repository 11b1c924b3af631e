/**
 * A Git-synced space is edited live too (GitBook forbids it): two people
 * type in one page of a change request of a space connected to a Git repository, and the merge
 * of that change request is one commit on the branch, holding what both typed.
 */
import { assert, layer } from "@effect/vitest"
import { Effect, Layer, Schedule } from "effect"
import { Services } from "@quire/platform"
import { Backends } from "@quire/testkit"
import { collabServerOn, collabUrl, connect, eventually, eventuallyEffect, settled } from "./CollabSupport.ts"
import { bareRepository, git } from "./GitRepositories.ts"
import { organizationWith } from "./Harness.ts"

const main = "refs/heads/main"

const postgres = Backends.databasesMigrated(Services.migrations).find((database) => database.name === "postgres")!
const server = collabServerOn(Services.layerSql, "postgres").pipe(Layer.provide(postgres.layer))

layer(server, { timeout: 120_000, excludeTestServices: true })("live editing in a Git-synced space", (it) => {
  it.effect("two people type in one page of a change request; its merge is one commit holding both", () =>
    Effect.gen(function*() {
      const repo = yield* bareRepository({})
      const { alice, members, organizationId } = yield* organizationWith(["edit"])
      const space = yield* alice.api.spaces.createSpace({ params: { organizationId }, payload: { title: "Docs" } })
      const spaceId = space.id
      yield* alice.api.git.connectSpaceGitRepository({ params: { spaceId }, payload: { url: repo.url, ref: main } })

      const cr = yield* alice.api.changeRequests.createChangeRequest({ params: { spaceId }, payload: { subject: "Guide, together" } })
      const params = { spaceId, changeRequestId: cr.id }
      yield* alice.api.changeRequestContent.updateChangeRequestContent({
        params,
        payload: { changes: [{ operation: "insert_page", title: "Guide", document: { markdown: "Start here.\n" } }] }
      })
      const { pages } = yield* alice.api.changeRequestContent.listPagesInChangeRequest({ params, query: {} })
      const pageId = pages[0]!.id
      const markdown = Effect.map(
        alice.api.changeRequestContent.getPageInChangeRequestById({ params: { ...params, pageId }, query: { format: "markdown" } }),
        (page) => (page as { readonly markdown?: string }).markdown ?? ""
      )

      const url = yield* collabUrl
      const a = yield* connect({ url, name: `${cr.id}/${pageId}`, token: alice.token })
      const b = yield* connect({ url, name: `${cr.id}/${pageId}`, token: members.edit!.token })
      yield* settled(a)
      yield* settled(b)
      a.type(0, "Alice wrote this. ")
      yield* eventually("Bob sees Alice's words", () => b.text().includes("Alice wrote this."))
      b.type(b.text().length, "Bob added this.\n")
      yield* eventually("Alice sees Bob's words", () => a.text().includes("Bob added this."))
      yield* settled(a)
      yield* settled(b)
      const typed = a.text()
      assert.strictEqual((yield* eventuallyEffect(markdown, (text) => text === typed)), typed, "the change request holds what both typed")

      const before = git(repo.bare, "rev-list", "--all", "--count")
      yield* alice.api.changeRequests.mergeChangeRequest({ params })
      const exported = yield* alice.api.git.getSpaceGitInfo({ params: { spaceId } }).pipe(
        Effect.filterOrFail((info) => info.lastExport?.status === "succeeded" || info.lastExport?.status === "failed", () => new Error("exporting")),
        Effect.retry({ schedule: Schedule.spaced("100 millis"), times: 300 }),
        Effect.orDie
      )
      assert.strictEqual(exported.lastExport?.status, "succeeded", exported.lastExport?.error ?? "")
      assert.strictEqual(Number(git(repo.bare, "rev-list", "--all", "--count")) - Number(before), 1, "the merge is one commit")
      assert.strictEqual(git(repo.bare, "rev-parse", "main"), exported.lastExport?.commit)
      assert.strictEqual(git(repo.bare, "log", "-1", "--format=%s", "main"), "Guide, together", "the commit says what the change request was")
      const files = git(repo.bare, "ls-tree", "-r", "--name-only", "main").split("\n")
      const guide = files.find((file) => file !== "SUMMARY.md" && file.endsWith(".md"))
      assert.isDefined(guide, files.join(", "))
      const committed = git(repo.bare, "show", `main:${guide}`)
      assert.include(committed, "Alice wrote this.")
      assert.include(committed, "Bob added this.")
    }).pipe(Effect.scoped))
})
