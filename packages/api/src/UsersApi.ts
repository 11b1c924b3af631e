/** Users and their API tokens. */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema } from "effect/http-api"
import * as ApiErrors from "./ApiErrors.ts"
import { Authentication } from "./Authentication.ts"
import { MemberInvite } from "./OrganizationsApi.ts"
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
})

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
    HttpApiEndpoint.get("getAuthenticatedUser", "/user", { success: User, error: ApiErrors.Common }),
    /** The caller's pending invitations to organizations. */
    HttpApiEndpoint.get("listInvitesForAuthenticatedUser", "/user/invites", { success: ListOf(MemberInvite), error: ApiErrors.Common }),
    HttpApiEndpoint.get("getUserById", "/users/:userId", {
      params: { userId: Text },
      success: User,
      error: ApiErrors.Common
    }),
    HttpApiEndpoint.patch("updateUserById", "/users/:userId", {
      params: { userId: Text },
      payload: Schema.Struct({
        displayName: Schema.optionalKey(DisplayName),
        photoURL: Schema.optionalKey(Url)
      }),
      success: User,
      error: ApiErrors.Common
    }),
    /** Creates a user account (instance administrators only). */
    HttpApiEndpoint.post("createUser", "/users", {
      payload: Schema.Struct({ email: Email, displayName: DisplayName }),
      success: User.pipe(HttpApiSchema.status(201)),
      error: [...ApiErrors.Common, ApiErrors.Conflict]
    }),
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
    }),
    /** A user's API tokens, oldest first, without their secrets (the user or an instance administrator). */
    HttpApiEndpoint.get("listUserTokens", "/users/:userId/tokens", {
      params: { userId: Text },
      query: PageQuery,
      success: ListOf(UserApiToken),
      error: ApiErrors.Common
    }),
    /** Revokes a user's API token: it stops working at once (the user or an instance administrator). */
    HttpApiEndpoint.delete("deleteUserTokenById", "/users/:userId/tokens/:tokenId", {
      params: { userId: Text, tokenId: Text },
      success: HttpApiSchema.NoContent,
      error: ApiErrors.Common
    })
  )
  .middleware(Authentication)
  .prefix("/v1")
{}
