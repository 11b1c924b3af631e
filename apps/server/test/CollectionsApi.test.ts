/** The collections operations through the real router and the typed client, on every backend. */
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { backends, errorCode, errorMessage, newUser, organizationWith, publicUrl, raw } from "./Harness.ts"

for (const backend of backends) {
  layer(backend.layer, { timeout: 120_000, excludeTestServices: true })(`collections API on ${backend.name}`, (it) => {
    it.effect("creates, gets, updates, lists and deletes collections", () =>
      Effect.gen(function*() {
        const { alice, organizationId } = yield* organizationWith([])
        const guides = yield* alice.api.collections.createCollection({
          params: { organizationId },
          payload: { title: "Guides", description: "How we work" }
        })
        assert.strictEqual(guides.object, "collection")
        assert.strictEqual(guides.title, "Guides")
        assert.strictEqual(guides.description, "How we work")
        assert.strictEqual(guides.organization, organizationId)
        assert.strictEqual(guides.defaultLevel, "inherit")
        assert.isUndefined(guides.parent)
        assert.strictEqual(guides.urls.location, `${publicUrl}/v1/collections/${guides.id}`)
        assert.deepStrictEqual(guides.permissions, { view: true, admin: true, viewInviteLinks: true, create: true })
        const nested = yield* alice.api.collections.createCollection({
          params: { organizationId },
          payload: { title: "Nested", parent: guides.id }
        })
        assert.strictEqual(nested.parent, guides.id)
        const status = yield* raw("POST", `/v1/orgs/${organizationId}/collections`, {
          token: alice.token,
          body: JSON.stringify({ title: "Third" })
        })
        assert.strictEqual(status.status, 201)

        assert.deepStrictEqual(yield* alice.api.collections.getCollectionById({ params: { collectionId: guides.id } }), guides)
        const updated = yield* alice.api.collections.updateCollectionById({
          params: { collectionId: guides.id },
          payload: { title: "Handbooks", description: "", defaultLevel: "comment" }
        })
        assert.strictEqual(updated.title, "Handbooks")
        assert.isUndefined(updated.description)
        assert.strictEqual(updated.defaultLevel, "comment")

        const all = yield* alice.api.collections.listCollectionsInOrganizationById({ params: { organizationId }, query: {} })
        assert.deepStrictEqual(all.items.map((c) => c.title), ["Handbooks", "Nested", "Third"])
        const top = yield* alice.api.collections.listCollectionsInOrganizationById({
          params: { organizationId },
          query: { nested: false }
        })
        assert.deepStrictEqual(top.items.map((c) => c.title), ["Handbooks", "Third"])
        const viaQuery = yield* raw("GET", `/v1/orgs/${organizationId}/collections?nested=false&limit=1`, { token: alice.token })
        assert.deepStrictEqual((viaQuery.body as { items: ReadonlyArray<{ title: string }> }).items.map((c) => c.title), ["Handbooks"])
        const page = yield* alice.api.collections.listCollectionsInOrganizationById({ params: { organizationId }, query: { limit: 2 } })
        const next = yield* alice.api.collections.listCollectionsInOrganizationById({
          params: { organizationId },
          query: { limit: 2, page: page.next!.page }
        })
        assert.deepStrictEqual([...page.items, ...next.items].map((c) => c.title), ["Handbooks", "Nested", "Third"])

        yield* alice.api.collections.deleteCollectionById({ params: { collectionId: nested.id } })
        yield* alice.api.collections.deleteCollectionById({ params: { collectionId: nested.id } })
        const gone = yield* alice.api.collections.getCollectionById({ params: { collectionId: nested.id } }).pipe(Effect.flip)
        assert.strictEqual(errorCode(gone), 404)
        const deleted = yield* raw("DELETE", `/v1/collections/${guides.id}`, { token: alice.token })
        assert.strictEqual(deleted.status, 204)
      }))

    it.effect("lets a reader see but not change collections, and hides them from outsiders", () =>
      Effect.gen(function*() {
        const { alice, members, organizationId } = yield* organizationWith(["read"])
        const reader = members.read!
        const outsider = yield* newUser("Olivia")
        const folder = yield* alice.api.collections.createCollection({ params: { organizationId }, payload: { title: "Folder" } })
        const seen = yield* reader.api.collections.getCollectionById({ params: { collectionId: folder.id } })
        assert.deepStrictEqual(seen.permissions, { view: true, admin: false, viewInviteLinks: false, create: false })
        const patch = yield* reader.api.collections.updateCollectionById({ params: { collectionId: folder.id }, payload: { title: "X" } })
          .pipe(Effect.flip)
        assert.strictEqual(errorCode(patch), 403)
        const remove = yield* reader.api.collections.deleteCollectionById({ params: { collectionId: folder.id } }).pipe(Effect.flip)
        assert.strictEqual(errorCode(remove), 403)
        const create = yield* reader.api.collections.createCollection({ params: { organizationId }, payload: { title: "Y" } })
          .pipe(Effect.flip)
        assert.strictEqual(errorCode(create), 403)
        const createSpace = yield* reader.api.spaces.createSpace({ params: { organizationId }, payload: { parent: folder.id } })
          .pipe(Effect.flip)
        assert.strictEqual(errorCode(createSpace), 403)

        const hidden = yield* outsider.api.collections.getCollectionById({ params: { collectionId: folder.id } }).pipe(Effect.flip)
        assert.strictEqual(errorCode(hidden), 404)
        const listHidden = yield* outsider.api.collections.listCollectionsInOrganizationById({ params: { organizationId }, query: {} })
          .pipe(Effect.flip)
        assert.strictEqual(errorCode(listHidden), 404)
        const spacesHidden = yield* outsider.api.collections.listSpacesInCollectionById({
          params: { collectionId: folder.id },
          query: {}
        }).pipe(Effect.flip)
        assert.strictEqual(errorCode(spacesHidden), 404)
      }))

    it.effect("applies levels by precedence through nested collections", () =>
      Effect.gen(function*() {
        const { alice, members, organizationId } = yield* organizationWith(["edit", "read"])
        const editor = members.edit!
        const reader = members.read!
        const outer = yield* alice.api.collections.createCollection({ params: { organizationId }, payload: { title: "Outer" } })
        const inner = yield* alice.api.collections.createCollection({ params: { organizationId }, payload: { title: "Inner", parent: outer.id } })
        const space = yield* alice.api.spaces.createSpace({ params: { organizationId }, payload: { title: "Doc", parent: inner.id } })
        const can = (who: typeof editor) =>
          Effect.map(who.api.spaces.getSpaceById({ params: { spaceId: space.id }, query: {} }), (s) => s.permissions)

        assert.isTrue((yield* can(editor)).edit)
        yield* alice.api.collections.updateCollectionById({ params: { collectionId: outer.id }, payload: { defaultLevel: "read" } })
        assert.isFalse((yield* can(editor)).edit)
        assert.isTrue((yield* can(editor)).view)
        yield* alice.api.collections.updateCollectionById({ params: { collectionId: inner.id }, payload: { defaultLevel: "create" } })
        const nearest = yield* reader.api.collections.getCollectionById({ params: { collectionId: inner.id } })
        assert.isTrue(nearest.permissions.create)
        const made = yield* reader.api.spaces.createSpace({ params: { organizationId }, payload: { title: "By reader", parent: inner.id } })
        assert.strictEqual(made.parent, inner.id)
        assert.isTrue((yield* can(reader)).edit)

        yield* alice.api.collections.updateCollectionById({ params: { collectionId: outer.id }, payload: { defaultLevel: null } })
        yield* alice.api.collections.updateCollectionById({ params: { collectionId: inner.id }, payload: { defaultLevel: "inherit" } })
        const hidden = yield* editor.api.spaces.getSpaceById({ params: { spaceId: space.id }, query: {} }).pipe(Effect.flip)
        assert.strictEqual(errorCode(hidden), 404)
        const listed = yield* editor.api.collections.listCollectionsInOrganizationById({ params: { organizationId }, query: {} })
        assert.deepStrictEqual(listed.items.map((c) => c.id), [])
        assert.isTrue((yield* can(alice)).admin)
      }))

    it.effect("lists the spaces of a collection and keeps them when the collection is deleted", () =>
      Effect.gen(function*() {
        const { alice, members, organizationId } = yield* organizationWith(["edit"])
        const editor = members.edit!
        const parent = yield* alice.api.collections.createCollection({ params: { organizationId }, payload: { title: "Parent" } })
        const doomed = yield* alice.api.collections.createCollection({ params: { organizationId }, payload: { title: "Doomed", parent: parent.id } })
        yield* alice.api.collections.updateCollectionById({ params: { collectionId: doomed.id }, payload: { defaultLevel: "read" } })
        const a = yield* alice.api.spaces.createSpace({ params: { organizationId }, payload: { title: "A", parent: doomed.id } })
        const b = yield* alice.api.spaces.createSpace({ params: { organizationId }, payload: { title: "B", parent: doomed.id } })
        const inDoomed = yield* editor.api.collections.listSpacesInCollectionById({ params: { collectionId: doomed.id }, query: {} })
        assert.deepStrictEqual(inDoomed.items.map((s) => s.id), [a.id, b.id])
        assert.isFalse(inDoomed.items[0]!.permissions.edit)

        yield* alice.api.collections.deleteCollectionById({ params: { collectionId: doomed.id } })
        const inParent = yield* editor.api.collections.listSpacesInCollectionById({ params: { collectionId: parent.id }, query: {} })
        assert.deepStrictEqual(inParent.items.map((s) => s.id), [a.id, b.id])
        assert.isFalse(inParent.items[0]!.permissions.edit)
        assert.strictEqual(inParent.items[0]!.defaultLevel, "read")
      }))

    it.effect("moves collections, refusing invalid targets and moves that change nothing", () =>
      Effect.gen(function*() {
        const { alice, organizationId } = yield* organizationWith([])
        const a = yield* alice.api.collections.createCollection({ params: { organizationId }, payload: { title: "A" } })
        const b = yield* alice.api.collections.createCollection({ params: { organizationId }, payload: { title: "B" } })
        const child = yield* alice.api.collections.createCollection({ params: { organizationId }, payload: { title: "Child", parent: a.id } })
        const space = yield* alice.api.spaces.createSpace({ params: { organizationId }, payload: { title: "S" } })
        const top = Effect.map(
          alice.api.collections.listCollectionsInOrganizationById({ params: { organizationId }, query: { nested: false } }),
          (page) => page.items.map((c) => c.title)
        )
        assert.deepStrictEqual(yield* top, ["A", "B"])
        yield* alice.api.collections.moveCollection({
          params: { collectionId: b.id },
          payload: { position: { before: { type: "collection", collection: a.id } } }
        })
        assert.deepStrictEqual(yield* top, ["B", "A"])
        yield* alice.api.collections.moveCollection({
          params: { collectionId: b.id },
          payload: { position: { after: { type: "space", space: space.id } } }
        })
        assert.deepStrictEqual(yield* top, ["A", "B"])
        const intoA = yield* alice.api.collections.moveCollection({ params: { collectionId: b.id }, payload: { parent: a.id } })
        assert.strictEqual(intoA.parent, a.id)
        const inA = yield* alice.api.collections.listCollectionsInOrganizationById({ params: { organizationId }, query: {} })
        assert.deepStrictEqual(inA.items.map((c) => c.title), ["A", "Child", "B"])

        const refusals: ReadonlyArray<readonly [string, unknown, RegExp]> = [
          [a.id, { parent: a.id }, /^parent: .*into itself/],
          [a.id, { parent: child.id }, /^parent: .*own sub-collections/],
          [child.id, { parent: a.id, position: { before: { type: "collection", collection: b.id } } }, /would change nothing/],
          [child.id, { position: { before: { type: "space", space: space.id } } }, /^position\.before: /],
          [a.id, { parent: "nosuchcollection" }, /^parent: /],
          [a.id, {}, /give a parent or a position/]
        ]
        for (const [collectionId, body, expected] of refusals) {
          const answer = yield* raw("POST", `/v1/collections/${collectionId}/move`, { token: alice.token, body: JSON.stringify(body) })
          assert.strictEqual(answer.status, 400, JSON.stringify(body))
          assert.match(errorMessage(answer.body), expected, JSON.stringify(body))
        }
      }))

    it.effect("transfers a collection with its content to another organization where the caller is an admin", () =>
      Effect.gen(function*() {
        const { alice, members, organizationId } = yield* organizationWith(["edit"])
        const editor = members.edit!
        const target = yield* alice.api.organizations.createOrganization({ payload: { title: "Elsewhere" } })
        const editorsOwn = yield* editor.api.organizations.createOrganization({ payload: { title: "Editor's" } })
        const top = yield* alice.api.collections.createCollection({ params: { organizationId }, payload: { title: "Top" } })
        const sub = yield* alice.api.collections.createCollection({ params: { organizationId }, payload: { title: "Sub", parent: top.id } })
        const space = yield* alice.api.spaces.createSpace({ params: { organizationId }, payload: { title: "Inside", parent: sub.id } })

        const refusals: ReadonlyArray<readonly [typeof alice, string, RegExp]> = [
          [alice, organizationId, /^organization: .*would change nothing/],
          [alice, editorsOwn.id, /^organization: you must be an admin/]
        ]
        for (const [who, organization, expected] of refusals) {
          const answer = yield* raw("POST", `/v1/collections/${top.id}/transfer`, { token: who.token, body: JSON.stringify({ organization }) })
          assert.strictEqual(answer.status, 400)
          assert.match(errorMessage(answer.body), expected)
        }
        // The editor administers the collection, but not a space inside it.
        yield* alice.api.collections.updateCollectionById({ params: { collectionId: top.id }, payload: { defaultLevel: "admin" } })
        yield* alice.api.spaces.updateSpaceById({ params: { spaceId: space.id }, payload: { defaultLevel: "read" } })
        const cannot = yield* raw("POST", `/v1/collections/${top.id}/transfer`, {
          token: editor.token,
          body: JSON.stringify({ organization: editorsOwn.id })
        })
        assert.strictEqual(cannot.status, 400)
        assert.match(errorMessage(cannot.body), /cannot be moved/)

        const moved = yield* alice.api.collections.transferCollection({ params: { collectionId: top.id }, payload: { organization: target.id } })
        assert.strictEqual(moved.organization, target.id)
        assert.isUndefined(moved.parent)
        const inside = yield* alice.api.spaces.getSpaceById({ params: { spaceId: space.id }, query: {} })
        assert.strictEqual(inside.organization, target.id)
        assert.strictEqual(inside.parent, sub.id)
        const there = yield* alice.api.collections.listCollectionsInOrganizationById({ params: { organizationId: target.id }, query: {} })
        assert.sameMembers(there.items.map((c) => c.id), [top.id, sub.id])
        const gone = yield* editor.api.collections.getCollectionById({ params: { collectionId: top.id } }).pipe(Effect.flip)
        assert.strictEqual(errorCode(gone), 404)
      }))

    it.effect("answers bad input with a 400 naming the field", () =>
      Effect.gen(function*() {
        const { alice, organizationId } = yield* organizationWith([])
        const folder = yield* alice.api.collections.createCollection({ params: { organizationId }, payload: { title: "Ok" } })
        const cases: ReadonlyArray<readonly [string, string, unknown, RegExp]> = [
          ["POST", `/v1/orgs/${organizationId}/collections`, { title: "x".repeat(51) }, /title/],
          ["POST", `/v1/orgs/${organizationId}/collections`, { description: "x".repeat(101) }, /description/],
          ["POST", `/v1/orgs/${organizationId}/collections`, { parent: "nosuchcollection" }, /parent/],
          ["PATCH", `/v1/collections/${folder.id}`, { defaultLevel: "owner" }, /defaultLevel/],
          ["PATCH", `/v1/collections/${folder.id}`, { title: 42 }, /title/],
          ["POST", `/v1/collections/${folder.id}/transfer`, { organization: "" }, /organization/]
        ]
        for (const [method, path, body, field] of cases) {
          const answer = yield* raw(method, path, { token: alice.token, body: JSON.stringify(body) })
          assert.strictEqual(answer.status, 400, `${method} ${path} ${JSON.stringify(body)}`)
          assert.match(errorMessage(answer.body), field, `${method} ${path} ${JSON.stringify(body)}`)
        }
        const badFlag = yield* raw("GET", `/v1/orgs/${organizationId}/collections?nested=maybe`, { token: alice.token })
        assert.strictEqual(badFlag.status, 400)
        assert.match(errorMessage(badFlag.body), /nested/)
      }))
  })
}
