/** Users and their API tokens. */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema } from "effect/http-api"
import * as ApiErrors from "./ApiErrors.ts"
import { Authentication } from "./Authentication.ts"
import { Text, Url, User } from "./Schemas.ts"

export const ApiToken = Schema.Struct({
  object: Schema.Literal("api-token"),
  id: Schema.String,
  label: Schema.optionalKey(Schema.String),
  /** The secret: shown only in this answer. */
  token: Schema.String,
  createdAt: Schema.String
})

const Email = Text.check(Schema.isMaxLength(254), Schema.isPattern(/^[^\s@]+@[^\s@]+\.[^\s@]+$/))
const DisplayName = Text.check(Schema.isMinLength(1), Schema.isMaxLength(64))

export class UsersApi extends HttpApiGroup.make("users")
  .add(
    /** The user behind the token. */
    HttpApiEndpoint.get("getAuthenticatedUser", "/user", { success: User, error: ApiErrors.Common }),
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
      payload: Schema.Struct({ label: Schema.optionalKey(Text.check(Schema.isMaxLength(100))) }),
      success: ApiToken.pipe(HttpApiSchema.status(201)),
      error: ApiErrors.Common
    })
  )
  .middleware(Authentication)
  .prefix("/v1")
{}
