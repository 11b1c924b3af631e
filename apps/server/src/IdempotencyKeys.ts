/**
 * `Idempotency-Key` on API writes (POST, PUT, PATCH): the first answer (status and body, unless a
 * 5xx) is replayed, marked `Idempotent-Replayed: true`, to the same caller sending the same key
 * with the same method, URL and body for 24 hours; the same key with another request is a 422; a
 * duplicate that arrives while the first still runs is a 409 and does not run. Multipart uploads
 * and file uploads (FileUploadRoute) are not read here (their handlers stream them), so the header
 * is ignored on them.
 */
import { ByteSize, Context, Effect, Exit } from "effect"
import { HttpIncomingMessage, HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { createHash } from "node:crypto"
import { Idempotency, maxKeyLength, type StoredResponse } from "@quire/gateway"
import { MaxBodyBytes } from "./BodyLimit.ts"
import { envelope } from "./ErrorEnvelope.ts"
import { isUpload } from "./FileUploadRoute.ts"
import { callerKey, TrustProxy } from "./RateLimits.ts"

const writes = new Set(["POST", "PUT", "PATCH"])

/** The answer to keep, or none when it is not worth replaying (a 5xx, a streamed body). */
const stored = (response: HttpServerResponse.HttpServerResponse): StoredResponse | undefined => {
  if (response.status >= 500) return undefined
  const body = response.body
  if (body._tag === "Empty") return { status: response.status, contentType: "", body: "" }
  if (body._tag === "Uint8Array") {
    return { status: response.status, contentType: body.contentType, body: Buffer.from(body.body).toString("base64") }
  }
  return undefined
}

const replay = (response: StoredResponse) => {
  const headers = { "idempotent-replayed": "true" }
  return response.contentType === ""
    ? HttpServerResponse.empty({ status: response.status, headers })
    : HttpServerResponse.uint8Array(Buffer.from(response.body, "base64"), { status: response.status, contentType: response.contentType, headers })
}

/** A global router middleware: API writes carrying an `Idempotency-Key` run once per key. */
export const layer = HttpRouter.middleware(
  Effect.gen(function*() {
    const idempotency = yield* Idempotency
    const max = yield* Effect.orDie(MaxBodyBytes)
    const trustProxy = yield* Effect.orDie(TrustProxy)
    const once = <E, R>(httpEffect: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>, request: HttpServerRequest.HttpServerRequest, key: string) =>
      Effect.gen(function*() {
        if (key.trim() === "" || key.length > maxKeyLength) {
          return envelope(400, `Invalid header: Idempotency-Key must hold 1 to ${maxKeyLength} characters`)
        }
        const contentType = request.headers["content-type"] ?? ""
        const declared = Number(request.headers["content-length"] ?? "0")
        // Uploads are streamed by their handler; a body over the bound is answered 413 by BodyLimit.
        if (contentType.startsWith("multipart/") || isUpload(request) || !Number.isFinite(declared) || declared > max) return yield* httpEffect
        const body = yield* Effect.exit(Effect.provideService(request.arrayBuffer, HttpIncomingMessage.MaxBodySize, ByteSize.bytes(max)))
        if (Exit.isFailure(body)) return yield* httpEffect
        const fingerprint = createHash("sha256")
          .update(`${request.method}\n${request.url}\n${contentType}\n`)
          .update(new Uint8Array(body.value))
          .digest("base64url")
        const caller = callerKey(request, trustProxy)
        const claim = yield* idempotency.claim(caller, key, fingerprint)
        switch (claim._tag) {
          case "Mismatch":
            return envelope(422, "This Idempotency-Key was used with a different request in the last 24 hours")
          case "InProgress":
            return envelope(409, "A request with this Idempotency-Key is still running; retry once it has answered")
          case "Replay":
            return replay(claim.response)
          case "Started":
            return yield* httpEffect.pipe(
              Effect.onExit((exit) => {
                const response = Exit.isSuccess(exit) ? stored(exit.value) : undefined
                return response === undefined
                  ? idempotency.abandon(caller, key, fingerprint)
                  : idempotency.complete(caller, key, fingerprint, response)
              })
            )
        }
      })
    return (httpEffect) =>
      Effect.withFiber((fiber) => {
        const request = Context.getUnsafe(fiber.context, HttpServerRequest.HttpServerRequest)
        const key = request.headers["idempotency-key"]
        if (key === undefined || !writes.has(request.method) || !request.url.startsWith("/v1/")) return httpEffect
        return once(httpEffect, request, key)
      })
  }),
  { global: true }
)
