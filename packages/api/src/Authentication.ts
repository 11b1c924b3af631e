/** Bearer-token authentication: every `/v1` operation requires it and gets the acting user. */
import { HttpApiMiddleware, HttpApiSecurity } from "effect/http-api"
import { Actor } from "@quire/kernel"
import { Unauthorized } from "./ApiErrors.ts"

export class Authentication extends HttpApiMiddleware.Service<Authentication, {
  provides: Actor.Actor
  requires: never
}>()("@quire/api/Authentication", {
  requiredForClient: true,
  security: { bearer: HttpApiSecurity.bearer },
  error: Unauthorized
}) {}
