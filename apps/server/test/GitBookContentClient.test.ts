/** GitBook's own client (`@gitbook/api`) on spaces and collections: the compatibility promise. */
import { assert, layer } from "@effect/vitest"
import { GitBookAPI } from "@gitbook/api"
import { Effect } from "effect"
import { adminToken, backends, baseUrl } from "./Harness.ts"

interface Space {
  readonly id: string
  readonly title: string
  readonly parent?: string
  readonly deletedAt?: string
  readonly permissions: { readonly admin: boolean }
}

interface Collection {
  readonly id: string
  readonly title: string
}

/** The part of GitBook's client this test uses (its published typings cannot be resolved under NodeNext). */
interface GitBookClient {
  readonly orgs: {
    createOrganization(body: { title: string }): Promise<{ data: { id: string } }>
    createSpace(organizationId: string, body: { title?: string; parent?: string }): Promise<{ status: number; data: Space }>
    listSpacesInOrganizationById(organizationId: string): Promise<{ data: { items: Array<Space> } }>
    createCollection(organizationId: string, body: { title?: string }): Promise<{ status: number; data: Collection }>
    listCollectionsInOrganizationById(organizationId: string, query?: { nested?: boolean }): Promise<{ data: { items: Array<Collection> } }>
  }
  readonly spaces: {
    getSpaceById(spaceId: string): Promise<{ data: Space }>
    updateSpaceById(spaceId: string, body: { title?: string }): Promise<{ data: Space }>
    deleteSpaceById(spaceId: string): Promise<{ status: number }>
    restoreSpace(spaceId: string): Promise<{ data: Space }>
    duplicateSpace(spaceId: string): Promise<{ status: number; data: Space }>
    moveSpace(spaceId: string, body: { parent?: string | null }): Promise<{ data: Space }>
  }
  readonly collections: {
    listSpacesInCollectionById(collectionId: string): Promise<{ data: { items: Array<Space> } }>
    deleteCollectionById(collectionId: string): Promise<{ status: number }>
  }
}

const connect = (endpoint: string): GitBookClient =>
  new GitBookAPI({ endpoint, authToken: adminToken }) as unknown as GitBookClient

for (const backend of backends) {
  layer(backend.layer, { timeout: 120_000, excludeTestServices: true })(`@gitbook/api content on ${backend.name}`, (it) => {
    it.effect("creates, moves, duplicates, deletes and restores spaces and collections", () =>
      Effect.gen(function*() {
        const gitbook = connect(yield* baseUrl)
        const result = yield* Effect.promise(async () => {
          const { data: org } = await gitbook.orgs.createOrganization({ title: "Compat Content" })
          const created = await gitbook.orgs.createSpace(org.id, { title: "Guide" })
          const folder = await gitbook.orgs.createCollection(org.id, { title: "Folder" })
          const moved = await gitbook.spaces.moveSpace(created.data.id, { parent: folder.data.id })
          const inFolder = await gitbook.collections.listSpacesInCollectionById(folder.data.id)
          const renamed = await gitbook.spaces.updateSpaceById(created.data.id, { title: "Handbook" })
          const copy = await gitbook.spaces.duplicateSpace(created.data.id)
          const deleted = await gitbook.spaces.deleteSpaceById(copy.data.id)
          const listed = await gitbook.orgs.listSpacesInOrganizationById(org.id)
          const restored = await gitbook.spaces.restoreSpace(copy.data.id)
          const collections = await gitbook.orgs.listCollectionsInOrganizationById(org.id, { nested: true })
          const removed = await gitbook.collections.deleteCollectionById(folder.data.id)
          const afterRemoval = await gitbook.spaces.getSpaceById(created.data.id)
          return { created, folder, moved, inFolder, renamed, copy, deleted, listed, restored, collections, removed, afterRemoval }
        })
        assert.strictEqual(result.created.status, 201)
        assert.isTrue(result.created.data.permissions.admin)
        assert.strictEqual(result.folder.status, 201)
        assert.strictEqual(result.moved.data.parent, result.folder.data.id)
        assert.deepStrictEqual(result.inFolder.data.items.map((s) => s.id), [result.created.data.id])
        assert.strictEqual(result.renamed.data.title, "Handbook")
        assert.strictEqual(result.copy.status, 201)
        assert.strictEqual(result.copy.data.title, "Handbook (copy)")
        assert.strictEqual(result.deleted.status, 204)
        assert.deepStrictEqual(result.listed.data.items.map((s) => s.id), [result.created.data.id])
        assert.isUndefined(result.restored.data.deletedAt)
        assert.deepStrictEqual(result.collections.data.items.map((c) => c.title), ["Folder"])
        assert.strictEqual(result.removed.status, 204)
        assert.isUndefined(result.afterRemoval.data.parent)
      }))
  })
}
