/** Spaces: creation, settings, listings, the trash, duplication, moves and transfers. */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import * as ApiErrors from "./ApiErrors.ts"
import { Authentication } from "./Authentication.ts"
import { requestExample } from "./RequestExample.ts"
import { DefaultLevel, EditMode, Language, MergeRule, MergeRules, Visibility } from "@quire/content/domain/Space"
import { EntityId, ListOf, MemberRole, Order, PageQuery, Text, Timestamp } from "./Schemas.ts"

/** The domain's literal sets of spaces: a level for members (a role, null for no access, or "inherit"), visibility, edit mode, GitBook's TranslationLanguage. */
export { DefaultLevel, EditMode, Language, MergeRule, MergeRules, Visibility }

export const SpaceTitle = Text.check(Schema.isMaxLength(50))

/** GitBook's Emoji: the character(s) of an emoji, or its codepoints in hex (`1f389`, `1f468-200d-1f4bb`). */
export const Emoji = Text.check(
  Schema.isMaxLength(50),
  Schema.isPattern(/^(?:[0-9a-fA-F]{4,6}(?:-[0-9a-fA-F]{4,6})*|[\p{Extended_Pictographic}\p{Emoji_Component}\u{20e3}\u{fe0f}\u{200d}]+)$/u)
)

/** A sibling a move is relative to. */
export const ContentPointer = Schema.Union([
  Schema.Struct({ type: Schema.Literal("space"), space: EntityId }),
  Schema.Struct({ type: Schema.Literal("collection"), collection: EntityId })
])

/** Where to move: just before or just after a sibling (one of the two); absent: at the end. */
export const ContentPosition = Schema.Struct({
  before: Schema.optionalKey(ContentPointer),
  after: Schema.optionalKey(ContentPointer)
})

/** The body of the move operations. */
export const MovePayload = Schema.Struct({
  /** The new parent collection; null: the organization's root; absent: unchanged. */
  parent: Schema.optionalKey(Schema.NullOr(EntityId)),
  position: Schema.optionalKey(ContentPosition)
})

/** The body of the transfer operations. */
export const TransferPayload = Schema.Struct({ organization: EntityId })

export const SpacePermissions = Schema.Struct({
  view: Schema.Boolean,
  access: Schema.Boolean,
  admin: Schema.Boolean,
  viewInviteLinks: Schema.Boolean,
  edit: Schema.Boolean,
  triggerGitSync: Schema.Boolean,
  comment: Schema.Boolean,
  merge: Schema.Boolean,
  review: Schema.Boolean,
  installIntegration: Schema.Boolean
})

/** The seed's `gitSync`: the repository the space is synchronised with (without credentials). */
export const SpaceGitSync = Schema.Struct({
  repoName: Schema.String,
  /** GitBook's provider: `gitlab` for a GitLab host, `github` for any other. */
  installationProvider: Schema.Literals(["github", "gitlab", "github-legacy"]),
  /** The host's kind: `github`, `gitlab` or `git` (any other Git server). */
  integration: Schema.String,
  /** The space's id: Quire has one installation per space. */
  installationId: Schema.String,
  installationStatus: Schema.Literals(["unauthenticated", "active", "pending"]),
  url: Schema.String,
  updatedAt: Timestamp
})

export const Space = Schema.Struct({
  object: Schema.Literal("space"),
  id: Schema.String,
  title: Schema.String,
  emoji: Schema.String,
  visibility: Visibility,
  createdAt: Timestamp,
  updatedAt: Timestamp,
  deletedAt: Schema.optionalKey(Timestamp),
  editMode: Schema.optionalKey(EditMode),
  /** GitBook's kind of space: `styleguide` for a site's style guide (answered where the style guide operations answer it). */
  type: Schema.optionalKey(Schema.Literal("styleguide")),
  mergeRules: MergeRules,
  urls: Schema.Struct({
    location: Schema.String,
    app: Schema.String,
    published: Schema.optionalKey(Schema.String),
    public: Schema.optionalKey(Schema.String),
    icon: Schema.optionalKey(Schema.String)
  }),
  organization: Schema.String,
  parent: Schema.optionalKey(Schema.String),
  language: Schema.optionalKey(Language),
  gitSync: Schema.optionalKey(SpaceGitSync),
  revision: Schema.String,
  defaultLevel: DefaultLevel,
  comments: Schema.Finite,
  changeRequests: Schema.Finite,
  changeRequestsOpen: Schema.Finite,
  changeRequestsDraft: Schema.Finite,
  permissions: SpacePermissions
}).annotate({ identifier: "Space" })
export type Space = typeof Space.Type

const spaceId = { spaceId: EntityId }

export class SpacesApi extends HttpApiGroup.make("spaces")
  .add(
    /** Creates a space (on an empty first revision) at the organization's root or in a collection. */
    HttpApiEndpoint.post("createSpace", "/orgs/:organizationId/spaces", {
      params: { organizationId: EntityId },
      // GitBook's body is optional: an empty body (null) creates an untitled space.
      payload: [Schema.Struct({
        title: Schema.optionalKey(SpaceTitle),
        emoji: Schema.optionalKey(Emoji),
        parent: Schema.optionalKey(EntityId),
        language: Schema.optionalKey(Language),
        editMode: Schema.optionalKey(EditMode)
      }), Schema.Null],
      success: Space.pipe(HttpApiSchema.status(201)),
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Create a space",
        description: "Creates an empty space at the organization's root or in a collection. Needs the create permission where the space goes.",
        transform: requestExample({ title: "User guide", emoji: "1f4d8" })
      })),
    /** The organization's spaces the caller can see, in their order. */
    HttpApiEndpoint.get("listSpacesInOrganizationById", "/orgs/:organizationId/spaces", {
      params: { organizationId: EntityId },
      query: PageQuery,
      success: ListOf(Space),
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "List spaces",
        description: "Lists the spaces of an organization the caller can view, paginated."
      })),
    /** The spaces a member can access (among those the caller can see), with the member's role on each. */
    HttpApiEndpoint.get("listSpacesForOrganizationMember", "/orgs/:organizationId/members/:userId/spaces", {
      params: { organizationId: EntityId, userId: EntityId },
      query: { ...PageQuery, order: Schema.optional(Order) },
      success: ListOf(Schema.Struct({ permission: MemberRole, space: Space })),
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "List a member's spaces",
        description: "Lists the spaces a member of the organization can access, with the permission they hold on each."
      })),
    /** A space; `shareKey` resolves published URLs of share-link content and grants no access. */
    HttpApiEndpoint.get("getSpaceById", "/spaces/:spaceId", {
      params: spaceId,
      query: { shareKey: Schema.optional(Text.check(Schema.isMaxLength(256))) },
      success: Space,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Get a space",
        description: "Answers a space with its URLs and the caller's permissions. Callers who cannot view it get 404."
      })),
    HttpApiEndpoint.patch("updateSpaceById", "/spaces/:spaceId", {
      params: spaceId,
      payload: Schema.Struct({
        title: Schema.optionalKey(SpaceTitle),
        emoji: Schema.optionalKey(Schema.NullOr(Emoji)),
        editMode: Schema.optionalKey(EditMode),
        defaultLevel: Schema.optionalKey(DefaultLevel),
        language: Schema.optionalKey(Language),
        visibility: Schema.optionalKey(Visibility),
        /** What a change request must meet to merge; admins only. */
        mergeRules: Schema.optionalKey(MergeRules)
      }),
      success: Space,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Update a space",
        description: "Changes a space's title, emoji, visibility, default access level or lock. Needs the admin permission on the space.",
        transform: requestExample({ title: "User guide (v2)", visibility: "public" })
      })),
    /** Moves the space to the trash (restorable for 7 days); 204 also when it does not exist. */
    HttpApiEndpoint.delete("deleteSpaceById", "/spaces/:spaceId", {
      params: spaceId,
      success: HttpApiSchema.NoContent,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Move a space to the trash",
        description: "Moves a space to the trash, from which it can be restored for 7 days. Needs the admin permission; a space the caller cannot see answers 204 as well."
      })),
    /** A copy "<title> (copy)" in the same place, sharing the source's current content. */
    HttpApiEndpoint.post("duplicateSpace", "/spaces/:spaceId/duplicate", {
      params: spaceId,
      success: Space.pipe(HttpApiSchema.status(201)),
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Duplicate a space",
        description: "Copies a space and its current content beside it. Needs view permission on the space and create where the copy goes."
      })),
    /** Takes a space out of the trash: only within 7 days of its deletion. */
    HttpApiEndpoint.post("restoreSpace", "/spaces/:spaceId/restore", {
      params: spaceId,
      success: Space,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Restore a space",
        description: "Brings a space back from the trash within 7 days of its deletion. Needs the admin permission."
      })),
    /** Moves the space to another collection (or the root) and/or beside a sibling. */
    HttpApiEndpoint.post("moveSpace", "/spaces/:spaceId/move", {
      params: spaceId,
      payload: MovePayload,
      success: Space,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Move a space",
        description: "Moves a space into another collection or to the root, optionally before or after a sibling. Needs the admin permission on the space.",
        transform: requestExample({ parent: null, position: { before: { type: "space", space: "spc_0123456789abcdef" } } })
      })),
    /** Moves the space to the root of another organization where the caller is an admin. */
    HttpApiEndpoint.post("transferSpace", "/spaces/:spaceId/transfer", {
      params: spaceId,
      payload: TransferPayload,
      success: Space,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Transfer a space to another organization",
        description: "Moves a space to the root of another organization. Needs the admin permission on the space and the admin role in the target organization."
      }))
  )
  .middleware(Authentication)
  .prefix("/v1")
{}
