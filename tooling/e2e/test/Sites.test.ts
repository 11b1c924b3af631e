/**
 * `quire sites` against a real server (memory backend): a site created, filled with spaces and
 * sections, published, opened, shared by link, customized from a file; each for people and with `--json`.
 */
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import * as nodePath from "node:path"
import { Schemas, ShareLink, Site, SiteCustomization, SitePublishingAuth, SiteSection, SiteSpace } from "@quire/api"
import { memory, newUser, spaceWith } from "@quire/server/test/Harness"
import { decodeJson, folder, lines, quireAs, rowWith } from "./Quire.ts"

const decodeSite = decodeJson(Site)

layer(memory.layer, { timeout: 120_000, excludeTestServices: true })("quire sites on a memory server", (it) => {
  it.effect("create, list, get, publish, open, unpublish and rm a site; a non-member is refused", () =>
    Effect.gen(function*() {
      const { alice, members, organizationId, space } = yield* spaceWith(["read"])
      const as = quireAs(alice.token)

      const created = yield* as("sites", "create", organizationId, "Help Center", "--space", space.id)
      assert.strictEqual(created.status, 0, created.stderr)
      assert.match(created.stdout, /^title:\s+Help Center$/m)
      assert.match(created.stdout, /^published:\s+no$/m)
      assert.match(created.stdout, /^site spaces:\s+1$/m)
      const site = yield* as("sites", "create", organizationId, "Partners", "--visibility", "share-link", "--json").pipe(
        Effect.flatMap(decodeSite)
      )
      assert.strictEqual(site.visibility, "share-link")
      assert.strictEqual(site.published, false)
      const helpId = /^id:\s+(\S+)$/m.exec(created.stdout)![1]!

      const table = yield* as("sites", "list", organizationId)
      assert.strictEqual(table.status, 0, table.stderr)
      assert.match(lines(table.stdout)[0]!, /^ID\s+TITLE\s+VISIBILITY\s+PUBLISHED\s+SPACES\s+URL$/)
      assert.match(rowWith(table.stdout, helpId), /Help Center\s+public\s+no\s+1$/)
      const listed = yield* as("sites", "list", organizationId, "--json").pipe(Effect.flatMap(decodeJson(Schemas.ListOf(Site))))
      assert.sameMembers(listed.items.map((s) => s.title), ["Help Center", "Partners"])

      const notYet = yield* as("sites", "open", organizationId, helpId)
      assert.strictEqual(notYet.status, 1)
      assert.include(notYet.stderr, "not published")

      const published = yield* as("sites", "publish", organizationId, helpId)
      assert.strictEqual(published.status, 0, published.stderr)
      assert.match(published.stdout, /^published:\s+yes$/m)
      const got = yield* as("sites", "get", organizationId, helpId, "--json").pipe(Effect.flatMap(decodeSite))
      assert.isTrue(got.published)
      const opened = yield* as("sites", "open", organizationId, helpId)
      assert.strictEqual(opened.status, 0, opened.stderr)
      assert.strictEqual(opened.stdout, got.urls.published)
      const openedJson = yield* as("sites", "open", organizationId, helpId, "--json").pipe(Effect.flatMap(decodeSite))
      assert.strictEqual(openedJson.urls.published, got.urls.published)
      const publishedOnly = yield* as("sites", "list", organizationId, "--published", "--json").pipe(
        Effect.flatMap(decodeJson(Schemas.ListOf(Site)))
      )
      assert.deepStrictEqual(publishedOnly.items.map((s) => s.id), [helpId])

      const reader = quireAs(members.read!.token)
      assert.strictEqual((yield* reader("sites", "publish", organizationId, site.id)).status, 1)
      const outsider = quireAs((yield* newUser("Olga")).token)
      const refused = yield* outsider("sites", "list", organizationId)
      assert.strictEqual(refused.status, 1)
      assert.match(refused.stderr, /^quire: .+$/)

      const unpublished = yield* as("sites", "unpublish", organizationId, helpId, "--json").pipe(Effect.flatMap(decodeSite))
      assert.isFalse(unpublished.published)
      const removed = yield* as("sites", "rm", organizationId, site.id)
      assert.strictEqual(removed.status, 0, removed.stderr)
      assert.include(removed.stdout, "spaces are kept")
      assert.strictEqual((yield* as("sites", "get", organizationId, site.id)).status, 1)
    }))

  it.effect("site spaces add, list, mv and rm; sections list, add and rm", () =>
    Effect.gen(function*() {
      const { alice, organizationId, space } = yield* spaceWith()
      const as = quireAs(alice.token)
      const second = yield* alice.api.spaces.createSpace({ params: { organizationId }, payload: { title: "API" } })
      const site = yield* as("sites", "create", organizationId, "Docs", "--json").pipe(Effect.flatMap(decodeSite))

      const added = yield* as("sites", "spaces", "add", organizationId, site.id, space.id)
      assert.strictEqual(added.status, 0, added.stderr)
      assert.match(added.stdout, new RegExp(`^space:\\s+${space.id}$`, "m"))
      const addedJson = yield* as("sites", "spaces", "add", organizationId, site.id, second.id, "--json").pipe(
        Effect.flatMap(decodeJson(SiteSpace))
      )
      assert.strictEqual(addedJson.space.id, second.id)

      const moved = yield* as("sites", "spaces", "mv", organizationId, site.id, addedJson.id, "--before", /^id:\s+(\S+)$/m.exec(added.stdout)![1]!)
      assert.strictEqual(moved.status, 0, moved.stderr)
      const table = yield* as("sites", "spaces", "list", organizationId, site.id)
      assert.strictEqual(table.status, 0, table.stderr)
      assert.match(lines(table.stdout)[0]!, /^ID\s+TITLE\s+PATH\s+SPACE\s+SECTION\s+DEFAULT$/)
      assert.include(lines(table.stdout)[1]!, second.id)
      assert.include(lines(table.stdout)[2]!, space.id)
      const both = yield* as("sites", "spaces", "list", organizationId, site.id, "--json").pipe(
        Effect.flatMap(decodeJson(Schemas.ListOf(SiteSpace)))
      )
      assert.deepStrictEqual(both.items.map((s) => s.space.id), [second.id, space.id])
      const conflicting = yield* as("sites", "spaces", "mv", organizationId, site.id, addedJson.id, "--before", "a", "--after", "b")
      assert.strictEqual(conflicting.status, 1)

      const removed = yield* as("sites", "spaces", "rm", organizationId, site.id, addedJson.id)
      assert.strictEqual(removed.status, 0, removed.stderr)
      const left = yield* as("sites", "spaces", "list", organizationId, site.id, "--json").pipe(
        Effect.flatMap(decodeJson(Schemas.ListOf(SiteSpace)))
      )
      assert.deepStrictEqual(left.items.map((s) => s.space.id), [space.id])

      const section = yield* as("sites", "sections", "add", organizationId, site.id, second.id, "--title", "Reference")
      assert.strictEqual(section.status, 0, section.stderr)
      assert.match(section.stdout, /^title:\s+Reference$/m)
      const sectionJson = yield* as("sites", "sections", "add", organizationId, site.id, space.id, "--title", "Guides", "--json").pipe(
        Effect.flatMap(decodeJson(SiteSection))
      )
      assert.strictEqual(sectionJson.title, "Guides")
      const sections = yield* as("sites", "sections", "list", organizationId, site.id)
      assert.strictEqual(sections.status, 0, sections.stderr)
      assert.match(lines(sections.stdout)[0]!, /^ID\s+TITLE\s+PATH\s+DEFAULT\s+SPACES$/)
      assert.match(rowWith(sections.stdout, sectionJson.id), /Guides\s+\S+\s+(yes|no)\s+1$/)
      const removedSection = yield* as("sites", "sections", "rm", organizationId, site.id, sectionJson.id)
      assert.strictEqual(removedSection.status, 0, removedSection.stderr)
      const after = yield* as("sites", "sections", "list", organizationId, site.id, "--json").pipe(
        Effect.flatMap(decodeJson(Schemas.ListOf(SiteSection)))
      )
      assert.notInclude(after.items.map((s) => s.id), sectionJson.id)
      assert.include(after.items.map((s) => s.title), "Reference")
    }))

  it.effect("share links create, list and deactivate; the visitor key shown and rotated", () =>
    Effect.gen(function*() {
      const { alice, members, organizationId, space } = yield* spaceWith(["read"])
      const as = quireAs(alice.token)
      const site = yield* as("sites", "create", organizationId, "Partners", "--visibility", "share-link", "--space", space.id, "--json").pipe(
        Effect.flatMap(decodeSite)
      )
      assert.strictEqual((yield* as("sites", "publish", organizationId, site.id)).status, 0)

      const created = yield* as("sites", "share-links", "create", organizationId, site.id, "Beta customers")
      assert.strictEqual(created.status, 0, created.stderr)
      assert.match(created.stdout, /^name:\s+Beta customers$/m)
      assert.match(created.stdout, /^url:\s+\S+\?share=\S+$/m)
      const link = yield* as("sites", "share-links", "create", organizationId, site.id, "Press", "--json").pipe(
        Effect.flatMap(decodeJson(ShareLink))
      )
      assert.isTrue(link.active)
      const table = yield* as("sites", "share-links", "list", organizationId, site.id)
      assert.match(lines(table.stdout)[0]!, /^ID\s+NAME\s+ACTIVE\s+CREATED\s+URL$/)
      assert.match(rowWith(table.stdout, link.id), /Press\s+yes\s+/)
      const off = yield* as("sites", "share-links", "deactivate", organizationId, site.id, link.id)
      assert.strictEqual(off.status, 0, off.stderr)
      assert.include(off.stdout, "deactivated")
      const listed = yield* as("sites", "share-links", "list", organizationId, site.id, "--json").pipe(
        Effect.flatMap(decodeJson(Schemas.ListOf(ShareLink)))
      )
      assert.deepStrictEqual(listed.items.map((l) => [l.name, l.active]), [["Beta customers", true], ["Press", false]])
      const offJson = yield* as("sites", "share-links", "deactivate", organizationId, site.id, link.id, "--json").pipe(
        Effect.flatMap(decodeJson(ShareLink))
      )
      assert.isFalse(offJson.active)
      // The site's own URL: readers add a share link's `?share=` to it.
      const shareOpen = yield* as("sites", "open", organizationId, site.id)
      assert.strictEqual(shareOpen.status, 0, shareOpen.stderr)
      assert.match(shareOpen.stdout, /^https?:\/\/\S+$/)

      const shown = yield* as("sites", "auth", "show", organizationId, site.id)
      assert.strictEqual(shown.status, 0, shown.stderr)
      const key = /^private key:\s+(\S+)$/m.exec(shown.stdout)?.[1]
      assert.isDefined(key, shown.stdout)
      const rotated = yield* as("sites", "auth", "rotate", organizationId, site.id, "--json").pipe(
        Effect.flatMap(decodeJson(SitePublishingAuth))
      )
      assert.notStrictEqual(rotated.privateKey, key)
      const again = yield* as("sites", "auth", "show", organizationId, site.id, "--json").pipe(Effect.flatMap(decodeJson(SitePublishingAuth)))
      assert.strictEqual(again.privateKey, rotated.privateKey)
      const reader = quireAs(members.read!.token)
      assert.strictEqual((yield* reader("sites", "auth", "show", organizationId, site.id)).status, 1)
      assert.strictEqual((yield* reader("sites", "share-links", "create", organizationId, site.id, "Mine")).status, 1)
    }))

  it.effect("customize sends a JSON file; the server's 400 names the refused field and the exit status is 1", () =>
    Effect.gen(function*() {
      const { alice, organizationId } = yield* spaceWith()
      const as = quireAs(alice.token)
      const site = yield* as("sites", "create", organizationId, "Styled", "--json").pipe(Effect.flatMap(decodeSite))
      const dir = yield* folder({
        "good.json": JSON.stringify({ styling: { primaryColor: { light: "#123456", dark: "#654321" } } }),
        "bad.json": JSON.stringify({ styling: { font: 12 } }),
        "broken.json": "{ not json"
      })

      const good = yield* as("sites", "customize", organizationId, site.id, nodePath.join(dir, "good.json"))
      assert.strictEqual(good.status, 0, good.stderr)
      assert.include(good.stdout, `Customized site ${site.id}`)
      const json = yield* as("sites", "customize", organizationId, site.id, nodePath.join(dir, "good.json"), "--json").pipe(
        Effect.flatMap(decodeJson(SiteCustomization))
      )
      assert.deepStrictEqual(json.styling?.primaryColor, { light: "#123456", dark: "#654321" })

      const bad = yield* as("sites", "customize", organizationId, site.id, nodePath.join(dir, "bad.json"))
      assert.strictEqual(bad.status, 1)
      assert.match(bad.stderr, /^quire: .*styling\.font/)
      assert.strictEqual(lines(bad.stderr).length, 1)
      const broken = yield* as("sites", "customize", organizationId, site.id, nodePath.join(dir, "broken.json"))
      assert.strictEqual(broken.status, 1)
      assert.include(broken.stderr, "not a JSON object")
      const missing = yield* as("sites", "customize", organizationId, site.id, nodePath.join(dir, "absent.json"))
      assert.strictEqual(missing.status, 1)
      const kept = yield* alice.api.sites.getSiteCustomizationById({ params: { organizationId, siteId: site.id }, query: {} })
      assert.deepStrictEqual(kept.styling?.primaryColor, { light: "#123456", dark: "#654321" })
    }))
})
