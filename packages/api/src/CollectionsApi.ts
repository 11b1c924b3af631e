/** Collections: nested folders of spaces whose `defaultLevel` applies to what they contain. */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import * as ApiErrors from "./ApiErrors.ts"
import { Authentication } from "./Authentication.ts"
import { requestExample } from "./RequestExample.ts"
import { EntityId, ListOf, PageQuery, Text } from "./Schemas.ts"
import { DefaultLevel, MovePayload, Space, TransferPayload } from "./SpacesApi.ts"

export const CollectionTitle = Text.check(Schema.isMaxLength(50))
export const CollectionDescription = Text.check(Schema.isMaxLength(100))

export const Collection = Schema.Struct({
  object: Schema.Literal("collection"),
  id: Schema.String,
  title: Schema.String,
  description: Schema.optionalKey(Schema.String),
  organization: Schema.String,
  parent: Schema.optionalKey(Schema.String),
  defaultLevel: DefaultLevel,
  urls: Schema.Struct({ location: Schema.String, app: Schema.String }),
  permissions: Schema.Struct({
    view: Schema.Boolean,
    admin: Schema.Boolean,
    viewInviteLinks: Schema.Boolean,
    create: Schema.Boolean
  })
}).annotate({ identifier: "Collection" })
export type Collection = typeof Collection.Type

const collectionId = { collectionId: EntityId }

export class CollectionsApi extends HttpApiGroup.make("collections")
  .add(
    /** The organization's collections the caller can see: every level unless `nested` is false. */
    HttpApiEndpoint.get("listCollectionsInOrganizationById", "/orgs/:organizationId/collections", {
      params: { organizationId: EntityId },
      query: { ...PageQuery, nested: Schema.optional(Schema.Boolean) },
      success: ListOf(Collection),
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "List collections",
        description: "Lists the collections of an organization the caller can view, paginated."
      })),
    /** Creates a collection at the organization's root or inside another one. */
    HttpApiEndpoint.post("createCollection", "/orgs/:organizationId/collections", {
      params: { organizationId: EntityId },
      // GitBook's body is optional: an empty body (null) creates an untitled collection.
      payload: [Schema.Struct({
        title: Schema.optionalKey(CollectionTitle),
        description: Schema.optionalKey(CollectionDescription),
        parent: Schema.optionalKey(EntityId)
      }), Schema.Null],
      success: Collection.pipe(HttpApiSchema.status(201)),
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Create a collection",
        description: "Creates a collection at the root or inside another collection. Needs the create permission where it goes.",
        transform: requestExample({ title: "Guides" })
      })),
    HttpApiEndpoint.get("getCollectionById", "/collections/:collectionId", {
      params: collectionId,
      success: Collection,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Get a collection",
        description: "Answers a collection and the caller's permissions on it. Callers who cannot view it get 404."
      })),
    /** Changes the title, the description (an empty string removes it) or the default level. */
    HttpApiEndpoint.patch("updateCollectionById", "/collections/:collectionId", {
      params: collectionId,
      payload: Schema.Struct({
        title: Schema.optionalKey(CollectionTitle),
        description: Schema.optionalKey(CollectionDescription),
        defaultLevel: Schema.optionalKey(DefaultLevel)
      }),
      success: Collection,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Update a collection",
        description: "Changes a collection's title, description or default access level. Needs the admin permission on it.",
        transform: requestExample({ title: "Product guides", description: "Everything a new user reads first" })
      })),
    /**
     * Deletes the collection; its spaces and sub-collections move up to its parent with the
     * access they had. 204 also when it does not exist.
     */
    HttpApiEndpoint.delete("deleteCollectionById", "/collections/:collectionId", {
      params: collectionId,
      success: HttpApiSchema.NoContent,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Delete a collection",
        description: "Deletes a collection but keeps its content: its spaces and sub-collections move up to its parent. Needs the admin permission."
      })),
    /** The spaces directly in the collection that the caller can see. */
    HttpApiEndpoint.get("listSpacesInCollectionById", "/collections/:collectionId/spaces", {
      params: collectionId,
      query: PageQuery,
      success: ListOf(Space),
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "List a collection's spaces",
        description: "Lists the spaces directly inside a collection that the caller can view, paginated."
      })),
    /** Moves the collection into another one (or the root) and/or beside a sibling. */
    HttpApiEndpoint.post("moveCollection", "/collections/:collectionId/move", {
      params: collectionId,
      payload: MovePayload,
      success: Collection,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Move a collection",
        description: "Moves a collection into another collection or to the root, never into itself. Needs the admin permission on it."
      })),
    /** Moves the collection, with everything inside, to another organization where the caller is an admin. */
    HttpApiEndpoint.post("transferCollection", "/collections/:collectionId/transfer", {
      params: collectionId,
      payload: TransferPayload,
      success: Collection,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Transfer a collection to another organization",
        description: "Moves a collection with everything in it to another organization's root. Needs admin on the collection and its content and the admin role in the target."
      }))
  )
  .middleware(Authentication)
  .prefix("/v1")
{}
