/** Users and their API tokens. */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import * as ApiErrors from "./ApiErrors.ts"
import { Authentication } from "./Authentication.ts"
import { MemberInvite } from "./OrganizationsApi.ts"
import { requestExample } from "./RequestExample.ts"
import { DateTime, ListOf, PageQuery, Text, Url, User } from "./Schemas.ts"

/** A user's API token as listings show it (GitBook's UserAPIToken): never its secret. */
export const UserApiToken = Schema.Struct({
  object: Schema.Literal("api-token"),
  id: Schema.String,
  label: Schema.optionalKey(Schema.String),
  createdAt: Schema.String,
  /** When it last authenticated a request, to the minute; absent if never. */
  lastUsedAt: Schema.optionalKey(Schema.String),
  /** After this instant the token is refused; absent if it never expires. */
  expiresAt: Schema.optionalKey(Schema.String),
  /** Quire's addition: the one organization a single sign-on token reaches; absent for the account's own tokens. */
  organization: Schema.optionalKey(Schema.String)
}).annotate({ identifier: "UserApiToken" })

/** A token just created: the listing's fields and the secret, shown only in this answer. */
export const ApiToken = Schema.Struct({
  ...UserApiToken.fields,
  /** The secret (`quire_pat_...`): shown only in this answer. */
  token: Schema.String
})

const Email = Text.check(Schema.isMaxLength(254), Schema.isPattern(/^[^\s@]+@[^\s@]+\.[^\s@]+$/))
const DisplayName = Text.check(Schema.isMinLength(1), Schema.isMaxLength(64))

export class UsersApi extends HttpApiGroup.make("users")
  .add(
    /** The user behind the token. */
    HttpApiEndpoint.get("getAuthenticatedUser", "/user", { success: User, error: ApiErrors.Common })
      .annotateMerge(OpenApi.annotations({
        summary: "Get the authenticated user",
        description: "Answers the user whose API token made the request."
      })),
    /** The caller's pending invitations to organizations. */
    HttpApiEndpoint.get("listInvitesForAuthenticatedUser", "/user/invites", { success: ListOf(MemberInvite), error: ApiErrors.Common })
      .annotateMerge(OpenApi.annotations({
        summary: "List my pending invitations",
        description: "Quire's addition: the invitations to organizations waiting for the caller to accept or decline them. A single sign-on token sees those of its organization only."
      })),
    HttpApiEndpoint.get("getUserById", "/users/:userId", {
      params: { userId: Text },
      success: User,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Get a user",
        description: "Answers a user's public profile by id. Any authenticated caller may read it."
      })),
    HttpApiEndpoint.patch("updateUserById", "/users/:userId", {
      params: { userId: Text },
      payload: Schema.Struct({
        displayName: Schema.optionalKey(DisplayName),
        photoURL: Schema.optionalKey(Url)
      }),
      success: User,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Update a user",
        description: "Changes a user's display name or photo. Only the user themselves or an instance administrator may call it.",
        transform: requestExample({ displayName: "Ada Lovelace" })
      })),
    /** Creates a user account (instance administrators only). */
    HttpApiEndpoint.post("createUser", "/users", {
      payload: Schema.Struct({ email: Email, displayName: DisplayName }),
      success: User.pipe(HttpApiSchema.status(201)),
      error: [...ApiErrors.Common, ApiErrors.Conflict]
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Create a user",
        description: "Creates a user account on this instance. Only instance administrators may call it.",
        transform: requestExample({ email: "ada@example.com", displayName: "Ada Lovelace" })
      })),
    /** Issues an API token for a user (the user or an instance administrator). */
    HttpApiEndpoint.post("createUserToken", "/users/:userId/tokens", {
      params: { userId: Text },
      payload: Schema.Struct({
        label: Schema.optionalKey(Text.check(Schema.isMaxLength(100))),
        /** When the token stops working (in the future); without it, it never expires. */
        expiresAt: Schema.optionalKey(DateTime)
      }),
      success: ApiToken.pipe(HttpApiSchema.status(201)),
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Issue an API token",
        description: "Issues a new API token for a user; the secret is shown in this answer only and stored as a hash. A user issues their own; instance administrators may issue one for anyone."
      })),
    /** A user's API tokens, oldest first, without their secrets (the user or an instance administrator). */
    HttpApiEndpoint.get("listUserTokens", "/users/:userId/tokens", {
      params: { userId: Text },
      query: PageQuery,
      success: ListOf(UserApiToken),
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "List a user's API tokens",
        description: "Lists the tokens of a user, without their secrets, with when each was last used. For the user and instance administrators; others get 404."
      })),
    /** Revokes a user's API token: it stops working at once (the user or an instance administrator). */
    HttpApiEndpoint.delete("deleteUserTokenById", "/users/:userId/tokens/:tokenId", {
      params: { userId: Text, tokenId: Text },
      success: HttpApiSchema.NoContent,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Revoke an API token",
        description: "Revokes a token at once on every server of the instance. For the token's owner and instance administrators; others get 404."
      }))
  )
  .middleware(Authentication)
  .prefix("/v1")
{}
