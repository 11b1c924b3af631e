/** The spaces operations through the real router and the typed client, on every backend. */
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { backends, errorCode, errorMessage, newUser, organizationWith, publicUrl, raw } from "./Harness.ts"

for (const backend of backends) {
  layer(backend.layer, { timeout: 120_000, excludeTestServices: true })(`spaces API on ${backend.name}`, (it) => {
    it.effect("creates, lists, gets, updates, deletes and restores a space", () =>
      Effect.gen(function*() {
        const { alice, organizationId } = yield* organizationWith([])
        const created = yield* alice.api.spaces.createSpace({
          params: { organizationId },
          payload: { title: "Handbook", emoji: "📘", language: "fr", editMode: "locked" }
        })
        assert.strictEqual(created.object, "space")
        assert.strictEqual(created.title, "Handbook")
        assert.strictEqual(created.emoji, "📘")
        assert.strictEqual(created.language, "fr")
        assert.strictEqual(created.editMode, "locked")
        assert.strictEqual(created.visibility, "private")
        assert.strictEqual(created.organization, organizationId)
        assert.strictEqual(created.defaultLevel, "inherit")
        assert.deepStrictEqual(created.mergeRules, { type: "inherit" })
        assert.isUndefined(created.parent)
        assert.isUndefined(created.deletedAt)
        assert.isString(created.revision)
        assert.deepStrictEqual(
          [created.comments, created.changeRequests, created.changeRequestsOpen, created.changeRequestsDraft],
          [0, 0, 0, 0]
        )
        assert.strictEqual(created.urls.location, `${publicUrl}/v1/spaces/${created.id}`)
        assert.isTrue(created.permissions.admin)

        const other = yield* alice.api.spaces.createSpace({ params: { organizationId }, payload: {} })
        assert.strictEqual(other.title, "Untitled")
        const listed = yield* alice.api.spaces.listSpacesInOrganizationById({ params: { organizationId }, query: {} })
        assert.deepStrictEqual(listed.items.map((s) => s.id), [created.id, other.id])
        const fetched = yield* alice.api.spaces.getSpaceById({ params: { spaceId: created.id }, query: {} })
        assert.deepStrictEqual(fetched, created)

        const updated = yield* alice.api.spaces.updateSpaceById({
          params: { spaceId: created.id },
          payload: { title: "Guide", emoji: "1f389", editMode: "live", defaultLevel: "read", language: "de", visibility: "unlisted" }
        })
        assert.deepStrictEqual(
          [updated.title, updated.emoji, updated.editMode, updated.defaultLevel, updated.language, updated.visibility],
          ["Guide", "1f389", "live", "read", "de", "unlisted"]
        )
        const inherit = yield* alice.api.spaces.updateSpaceById({
          params: { spaceId: created.id },
          payload: { defaultLevel: "inherit", emoji: null }
        })
        assert.strictEqual(inherit.defaultLevel, "inherit")
        assert.strictEqual(inherit.emoji, "")
        assert.strictEqual(inherit.title, "Guide")

        yield* alice.api.spaces.deleteSpaceById({ params: { spaceId: created.id } })
        yield* alice.api.spaces.deleteSpaceById({ params: { spaceId: created.id } })
        yield* alice.api.spaces.deleteSpaceById({ params: { spaceId: "no-such-space" } })
        const gone = yield* alice.api.spaces.getSpaceById({ params: { spaceId: created.id }, query: {} }).pipe(Effect.flip)
        assert.strictEqual(errorCode(gone), 404)
        const afterDelete = yield* alice.api.spaces.listSpacesInOrganizationById({ params: { organizationId }, query: {} })
        assert.deepStrictEqual(afterDelete.items.map((s) => s.id), [other.id])
        const deleted = yield* raw("DELETE", `/v1/spaces/${other.id}`, { token: alice.token })
        assert.strictEqual(deleted.status, 204)

        const restored = yield* alice.api.spaces.restoreSpace({ params: { spaceId: created.id } })
        assert.strictEqual(restored.id, created.id)
        assert.isUndefined(restored.deletedAt)
        const again = yield* alice.api.spaces.getSpaceById({ params: { spaceId: created.id }, query: { shareKey: "anything" } })
        assert.strictEqual(again.title, "Guide")
      }))

    it.effect("lets a reader read but not update or delete, and hides everything from outsiders", () =>
      Effect.gen(function*() {
        const { alice, members, organizationId } = yield* organizationWith(["read"])
        const reader = members.read!
        const outsider = yield* newUser("Olivia")
        const space = yield* alice.api.spaces.createSpace({ params: { organizationId }, payload: { title: "Secret" } })

        const seen = yield* reader.api.spaces.getSpaceById({ params: { spaceId: space.id }, query: {} })
        assert.isTrue(seen.permissions.view)
        assert.isFalse(seen.permissions.edit)
        assert.isFalse(seen.permissions.admin)
        const patch = yield* reader.api.spaces.updateSpaceById({ params: { spaceId: space.id }, payload: { title: "Mine" } })
          .pipe(Effect.flip)
        assert.strictEqual(errorCode(patch), 403)
        const remove = yield* reader.api.spaces.deleteSpaceById({ params: { spaceId: space.id } }).pipe(Effect.flip)
        assert.strictEqual(errorCode(remove), 403)
        const create = yield* reader.api.spaces.createSpace({ params: { organizationId }, payload: {} }).pipe(Effect.flip)
        assert.strictEqual(errorCode(create), 403)

        const hidden = yield* outsider.api.spaces.getSpaceById({ params: { spaceId: space.id }, query: {} }).pipe(Effect.flip)
        assert.strictEqual(errorCode(hidden), 404)
        const patchHidden = yield* outsider.api.spaces.updateSpaceById({ params: { spaceId: space.id }, payload: { title: "X" } })
          .pipe(Effect.flip)
        assert.strictEqual(errorCode(patchHidden), 404)
        const listHidden = yield* outsider.api.spaces.listSpacesInOrganizationById({ params: { organizationId }, query: {} })
          .pipe(Effect.flip)
        assert.strictEqual(errorCode(listHidden), 404)
        // Deleting what one cannot see answers as if it did not exist, and changes nothing.
        yield* outsider.api.spaces.deleteSpaceById({ params: { spaceId: space.id } })
        const still = yield* alice.api.spaces.getSpaceById({ params: { spaceId: space.id }, query: {} })
        assert.isUndefined(still.deletedAt)
      }))

    it.effect("duplicates a space beside the original", () =>
      Effect.gen(function*() {
        const { alice, organizationId } = yield* organizationWith([])
        const folder = yield* alice.api.collections.createCollection({ params: { organizationId }, payload: { title: "Folder" } })
        const source = yield* alice.api.spaces.createSpace({
          params: { organizationId },
          payload: { title: "Original", emoji: "🎉", parent: folder.id }
        })
        const copy = yield* alice.api.spaces.duplicateSpace({ params: { spaceId: source.id } })
        assert.notStrictEqual(copy.id, source.id)
        assert.notStrictEqual(copy.revision, source.revision)
        assert.strictEqual(copy.title, "Original (copy)")
        assert.strictEqual(copy.emoji, "🎉")
        assert.strictEqual(copy.parent, folder.id)
        const inFolder = yield* alice.api.collections.listSpacesInCollectionById({ params: { collectionId: folder.id }, query: {} })
        assert.deepStrictEqual(inFolder.items.map((s) => s.title), ["Original", "Original (copy)"])
        const status = yield* raw("POST", `/v1/spaces/${source.id}/duplicate`, { token: alice.token })
        assert.strictEqual(status.status, 201)
      }))

    it.effect("moves spaces between collections and beside siblings, in a stable order", () =>
      Effect.gen(function*() {
        const { alice, organizationId } = yield* organizationWith([])
        const folder = yield* alice.api.collections.createCollection({ params: { organizationId }, payload: { title: "Folder" } })
        const ids: Record<string, string> = {}
        for (const title of ["A", "B", "C"]) {
          ids[title] = (yield* alice.api.spaces.createSpace({ params: { organizationId }, payload: { title, parent: folder.id } })).id
        }
        const order = Effect.map(
          alice.api.collections.listSpacesInCollectionById({ params: { collectionId: folder.id }, query: {} }),
          (page) => page.items.map((s) => s.title)
        )
        assert.deepStrictEqual(yield* order, ["A", "B", "C"])
        yield* alice.api.spaces.moveSpace({
          params: { spaceId: ids.C! },
          payload: { position: { before: { type: "space", space: ids.A! } } }
        })
        assert.deepStrictEqual(yield* order, ["C", "A", "B"])
        yield* alice.api.spaces.moveSpace({
          params: { spaceId: ids.C! },
          payload: { position: { after: { type: "space", space: ids.A! } } }
        })
        assert.deepStrictEqual(yield* order, ["A", "C", "B"])
        assert.deepStrictEqual(yield* order, ["A", "C", "B"])

        const toRoot = yield* alice.api.spaces.moveSpace({ params: { spaceId: ids.B! }, payload: { parent: null } })
        assert.isUndefined(toRoot.parent)
        assert.deepStrictEqual(yield* order, ["A", "C"])
        const back = yield* alice.api.spaces.moveSpace({
          params: { spaceId: ids.B! },
          payload: { parent: folder.id, position: { before: { type: "space", space: ids.A! } } }
        })
        assert.strictEqual(back.parent, folder.id)
        assert.deepStrictEqual(yield* order, ["B", "A", "C"])

        const badTarget = yield* raw("POST", `/v1/spaces/${ids.A}/move`, {
          token: alice.token,
          body: JSON.stringify({ parent: null, position: { after: { type: "space", space: ids.C } } })
        })
        assert.strictEqual(badTarget.status, 400)
        assert.match(errorMessage(badTarget.body), /^position\.after: /)
        const nothing = yield* raw("POST", `/v1/spaces/${ids.A}/move`, {
          token: alice.token,
          body: JSON.stringify({ position: { after: { type: "space", space: ids.B } } })
        })
        assert.strictEqual(nothing.status, 400)
        assert.match(errorMessage(nothing.body), /would change nothing/)
        const badParent = yield* raw("POST", `/v1/spaces/${ids.A}/move`, {
          token: alice.token,
          body: JSON.stringify({ parent: "nosuchcollection" })
        })
        assert.strictEqual(badParent.status, 400)
        assert.match(errorMessage(badParent.body), /^parent: /)
      }))

    it.effect("transfers a space to another organization where the caller is an admin", () =>
      Effect.gen(function*() {
        const { alice, members, organizationId } = yield* organizationWith(["edit"])
        const editor = members.edit!
        const target = yield* alice.api.organizations.createOrganization({ payload: { title: "Elsewhere" } })
        const editorsOwn = yield* editor.api.organizations.createOrganization({ payload: { title: "Editor's" } })
        const space = yield* alice.api.spaces.createSpace({ params: { organizationId }, payload: { title: "Moving" } })

        const same = yield* alice.api.spaces.transferSpace({ params: { spaceId: space.id }, payload: { organization: organizationId } })
          .pipe(Effect.flip)
        assert.strictEqual(errorCode(same), 400)
        const notAdminThere = yield* alice.api.spaces.transferSpace({
          params: { spaceId: space.id },
          payload: { organization: editorsOwn.id }
        }).pipe(Effect.flip)
        assert.strictEqual(errorCode(notAdminThere), 400)
        const notAdminHere = yield* editor.api.spaces.transferSpace({
          params: { spaceId: space.id },
          payload: { organization: editorsOwn.id }
        }).pipe(Effect.flip)
        assert.strictEqual(errorCode(notAdminHere), 403)

        const moved = yield* alice.api.spaces.transferSpace({ params: { spaceId: space.id }, payload: { organization: target.id } })
        assert.strictEqual(moved.organization, target.id)
        const there = yield* alice.api.spaces.listSpacesInOrganizationById({ params: { organizationId: target.id }, query: {} })
        assert.deepStrictEqual(there.items.map((s) => s.id), [space.id])
        const gone = yield* editor.api.spaces.getSpaceById({ params: { spaceId: space.id }, query: {} }).pipe(Effect.flip)
        assert.strictEqual(errorCode(gone), 404)
      }))

    it.effect("lists the spaces a member can access, with their role on each", () =>
      Effect.gen(function*() {
        const { alice, members, organizationId } = yield* organizationWith(["edit"])
        const editor = members.edit!
        const readOnly = yield* alice.api.collections.createCollection({ params: { organizationId }, payload: { title: "Read only" } })
        yield* alice.api.collections.updateCollectionById({ params: { collectionId: readOnly.id }, payload: { defaultLevel: "read" } })
        const open = yield* alice.api.spaces.createSpace({ params: { organizationId }, payload: { title: "Open" } })
        const guarded = yield* alice.api.spaces.createSpace({ params: { organizationId }, payload: { title: "Guarded", parent: readOnly.id } })
        const secret = yield* alice.api.spaces.createSpace({ params: { organizationId }, payload: { title: "Secret" } })
        yield* alice.api.spaces.updateSpaceById({ params: { spaceId: secret.id }, payload: { defaultLevel: null } })

        const listed = yield* alice.api.spaces.listSpacesForOrganizationMember({
          params: { organizationId, userId: editor.user.id },
          query: { order: "asc" }
        })
        assert.deepStrictEqual(listed.items.map((i) => [i.space.id, i.permission]), [[open.id, "edit"], [guarded.id, "read"]])
        assert.isTrue(listed.items[1]!.space.permissions.admin)
        const own = yield* editor.api.spaces.listSpacesForOrganizationMember({
          params: { organizationId, userId: editor.user.id },
          query: {}
        })
        assert.deepStrictEqual(own.items.map((i) => i.space.id), [guarded.id, open.id])
        assert.isFalse(own.items[0]!.space.permissions.edit)
        const paged = yield* alice.api.spaces.listSpacesForOrganizationMember({
          params: { organizationId, userId: editor.user.id },
          query: { limit: 1, order: "asc" }
        })
        assert.strictEqual(paged.count, 1)
        const rest = yield* alice.api.spaces.listSpacesForOrganizationMember({
          params: { organizationId, userId: editor.user.id },
          query: { limit: 1, order: "asc", page: paged.next!.page }
        })
        assert.deepStrictEqual(rest.items.map((i) => i.space.id), [guarded.id])
        assert.isUndefined(rest.next)
        const stranger = yield* newUser("Stan")
        const unknown = yield* alice.api.spaces.listSpacesForOrganizationMember({
          params: { organizationId, userId: stranger.user.id },
          query: {}
        }).pipe(Effect.flip)
        assert.strictEqual(errorCode(unknown), 404)
      }))

    it.effect("gives a collection's level precedence over the organization role", () =>
      Effect.gen(function*() {
        const { alice, members, organizationId } = yield* organizationWith(["edit"])
        const editor = members.edit!
        const folder = yield* alice.api.collections.createCollection({ params: { organizationId }, payload: { title: "Folder" } })
        const space = yield* alice.api.spaces.createSpace({ params: { organizationId }, payload: { title: "Doc", parent: folder.id } })
        const before = yield* editor.api.spaces.getSpaceById({ params: { spaceId: space.id }, query: {} })
        assert.isTrue(before.permissions.edit)
        yield* alice.api.collections.updateCollectionById({ params: { collectionId: folder.id }, payload: { defaultLevel: "read" } })
        const after = yield* editor.api.spaces.getSpaceById({ params: { spaceId: space.id }, query: {} })
        assert.isTrue(after.permissions.view)
        assert.isFalse(after.permissions.edit)
        assert.isFalse(after.permissions.comment)
        yield* alice.api.spaces.updateSpaceById({ params: { spaceId: space.id }, payload: { defaultLevel: "admin" } })
        const promoted = yield* editor.api.spaces.updateSpaceById({ params: { spaceId: space.id }, payload: { title: "Mine now" } })
        assert.strictEqual(promoted.title, "Mine now")
      }))

    it.effect("answers bad input with a 400 naming the field", () =>
      Effect.gen(function*() {
        const { alice, organizationId } = yield* organizationWith([])
        const space = yield* alice.api.spaces.createSpace({ params: { organizationId }, payload: { title: "Ok" } })
        const cases: ReadonlyArray<readonly [string, string, unknown, RegExp]> = [
          ["POST", `/v1/orgs/${organizationId}/spaces`, { title: "x".repeat(51) }, /title/],
          ["POST", `/v1/orgs/${organizationId}/spaces`, { emoji: "not an emoji" }, /emoji/],
          ["POST", `/v1/orgs/${organizationId}/spaces`, { language: "klingon" }, /language/],
          ["POST", `/v1/orgs/${organizationId}/spaces`, { editMode: "frozen" }, /editMode/],
          ["POST", `/v1/orgs/${organizationId}/spaces`, { parent: "not/an/id" }, /parent/],
          ["PATCH", `/v1/spaces/${space.id}`, { defaultLevel: "owner" }, /defaultLevel/],
          ["PATCH", `/v1/spaces/${space.id}`, { visibility: "everyone" }, /visibility/],
          ["PATCH", `/v1/spaces/${space.id}`, { visibility: "in-collection" }, /visibility/],
          ["POST", `/v1/spaces/${space.id}/move`, { position: { before: { type: "page", page: "x" } } }, /position/],
          ["POST", `/v1/spaces/${space.id}/transfer`, {}, /organization/]
        ]
        for (const [method, path, body, field] of cases) {
          const answer = yield* raw(method, path, { token: alice.token, body: JSON.stringify(body) })
          assert.strictEqual(answer.status, 400, `${method} ${path} ${JSON.stringify(body)}`)
          assert.match(errorMessage(answer.body), field, `${method} ${path} ${JSON.stringify(body)}`)
        }
        // GitBook's body is optional on creation.
        const bodiless = yield* raw("POST", `/v1/orgs/${organizationId}/spaces`, { token: alice.token })
        assert.strictEqual(bodiless.status, 201)
        assert.strictEqual((bodiless.body as { title: string }).title, "Untitled")
      }))
  })
}
