/**
 * Groups and link pages written through `insert_page`'s `type` (Quire's extension), on every
 * backend: listed as GitBook lists them, refused with a 400 naming the field when they cannot be,
 * and exported to Git as SUMMARY.md group headings and link entries.
 */
import { assert, layer } from "@effect/vitest"
import { Effect, Schedule } from "effect"
import { bareRepository, git } from "./GitRepositories.ts"
import { backends, changeRequestsOn, type ContentChanges, raw, spaceWith } from "./Harness.ts"

const tree: ContentChanges = [
  { operation: "insert_page", ref: "welcome", title: "Welcome", document: { markdown: "Start here.\n" } },
  { operation: "insert_page", type: "group", ref: "guides", title: "Guides", document: {} },
  { operation: "insert_page", ref: "install", into: "guides", title: "Install", document: { markdown: "Run it.\n" } },
  { operation: "insert_page", type: "link", into: "guides", title: "Changelog", href: "https://example.com/changelog", document: {} },
  { operation: "insert_page", type: "link", into: "guides", title: "Back home", href: "welcome", document: {} }
]

for (const backend of backends) {
  layer(backend.layer, { timeout: 120_000, excludeTestServices: true })(`page kinds on ${backend.name}`, (it) => {
    it.effect("insert_page makes groups and link pages, listed with GitBook's kind, type, target and href", () =>
      Effect.gen(function*() {
        const { alice, space } = yield* spaceWith()
        const s = changeRequestsOn(alice.api, space.id)
        const cr = yield* s.open("Kinds")
        yield* s.edit(cr.id, tree)
        const { pages } = yield* alice.api.changeRequestContent.listPagesInChangeRequest({ params: { spaceId: space.id, changeRequestId: cr.id }, query: {} })
        assert.deepStrictEqual(pages.map((page) => [page.title, page.kind, page.type]), [["Welcome", "sheet", "document"], ["Guides", "group", "group"]])
        const guides = pages[1]!
        assert.deepStrictEqual(guides.pages?.map((page) => [page.title, page.kind, page.type]), [["Install", "sheet", "document"], ["Changelog", "link", "link"], ["Back home", "link", "link"]])
        const [, url, home] = guides.pages!
        assert.deepStrictEqual(url?.target, { kind: "url", url: "https://example.com/changelog" })
        assert.strictEqual(url?.href, "https://example.com/changelog")
        assert.deepStrictEqual(home?.target, { kind: "page", page: pages[0]!.id })
        // The group can be renamed and its pages moved out like any page.
        yield* s.edit(cr.id, [{ operation: "update_page", page: guides.id, title: "How-to guides" }, { operation: "update_page", page: guides.pages![0]!.id, into: null, at: 0 }])
        const after = yield* alice.api.changeRequestContent.listPagesInChangeRequest({ params: { spaceId: space.id, changeRequestId: cr.id }, query: {} })
        assert.deepStrictEqual(after.pages.map((page) => page.title), ["Install", "Welcome", "How-to guides"])
      }))

    it.effect("a group or link that cannot be is a 400 naming the field, and changes nothing", () =>
      Effect.gen(function*() {
        const { alice, space } = yield* spaceWith()
        const s = changeRequestsOn(alice.api, space.id)
        const cr = yield* s.open("Refusals")
        yield* s.edit(cr.id, [{ operation: "insert_page", title: "Intro", document: { markdown: "Hi.\n" } }, { operation: "insert_page", type: "group", title: "Guides", document: {} }])
        const before = yield* alice.api.changeRequestContent.listPagesInChangeRequest({ params: { spaceId: space.id, changeRequestId: cr.id }, query: {} })
        const intro = before.pages[0]!.id
        const group = before.pages[1]!.id
        const refused = [
          [{ operation: "insert_page", type: "link", title: "Nowhere", document: {} }, /changes\[0\].*href: a link page needs an href/],
          [{ operation: "insert_page", type: "group", title: "G", document: { markdown: "Body" } }, /changes\[0\].*document: a group has no document/],
          [{ operation: "insert_page", type: "group", title: "G", into: intro, document: {} }, /changes\[0\].*into: a group goes at the top level/],
          [{ operation: "insert_page", title: "Doc", href: "https://example.com", document: {} }, /changes\[0\].*href: only a link page has one/],
          [{ operation: "insert_page", type: "link", title: "L", href: "missing-page", document: {} }, /changes\[0\].*href: "missing-page" is neither a URL/],
          [{ operation: "insert_page", type: "folder", title: "F", document: {} }, /type/],
          [{ operation: "update_page", page: group, into: intro }, /changes\[0\].*into: a group goes at the top level/]
        ] as const
        for (const [change, message] of refused) {
          const answer = yield* raw("POST", `/v1/spaces/${space.id}/change-requests/${cr.id}/content`, { token: alice.token, body: JSON.stringify({ changes: [change] }) })
          assert.strictEqual(answer.status, 400, JSON.stringify(answer.body))
          assert.match((answer.body as { error: { message: string } }).error.message, message)
        }
        const after = yield* alice.api.changeRequestContent.listPagesInChangeRequest({ params: { spaceId: space.id, changeRequestId: cr.id }, query: {} })
        assert.deepStrictEqual(after.pages.map((page) => page.id), [intro, group])
      }))

    it.effect("a group and link pages made through the API export to Git as a SUMMARY.md heading and entries", () =>
      Effect.gen(function*() {
        const repo = yield* bareRepository({ "README.md": "# Welcome\n\nStart here.\n" })
        const { alice, space } = yield* spaceWith()
        const s = changeRequestsOn(alice.api, space.id)
        const cr = yield* s.open("Kinds")
        yield* s.edit(cr.id, tree)
        yield* s.merge(cr.id)
        yield* alice.api.git.exportToGitRepository({ params: { spaceId: space.id }, payload: { url: repo.url, ref: "refs/heads/main", commitMessage: "From Quire" } })
        const info = yield* alice.api.git.getSpaceGitInfo({ params: { spaceId: space.id } }).pipe(
          Effect.filterOrFail((i) => i.lastExport !== null && i.lastExport.status !== "running" && i.lastExport.status !== "pending", () => new Error("still running")),
          Effect.retry({ schedule: Schedule.spaced("100 millis"), times: 300 }),
          Effect.orDie
        )
        assert.strictEqual(info.lastExport?.status, "succeeded", info.lastExport?.error ?? "")
        const summary = git(repo.bare, "show", "main:SUMMARY.md")
        assert.match(summary, /^## Guides/m)
        assert.match(summary, /^\* \[Install\]\(guides\/install\.md\)$/m)
        assert.match(summary, /^\* \[Changelog\]\(https:\/\/example\.com\/changelog\)$/m)
        assert.match(summary, /^\* \[Back home\]\(README\.md\)$/m)
        // The group has no file of its own; its document page does.
        assert.include(git(repo.bare, "show", "main:guides/install.md"), "Run it.")
      }))
  })
}
