/**
 * A bound on the bytes of a request body (`QUIRE_MAX_BODY_BYTES`): a larger declared body is
 * answered 413 before it is read, and a body that grows past the bound while it is read is cut
 * off and answered 413 too, so one request never makes the server hold an unbounded body. A file
 * upload (FileUploadRoute), which is streamed to storage, has its own bound.
 */
import { ByteSize, Config, Context, Effect } from "effect"
import { HttpIncomingMessage, HttpRouter, HttpServerRequest } from "effect/http"
import { envelope } from "./ErrorEnvelope.ts"
import { isUpload } from "./FileUploadRoute.ts"

/** The default bound: 32 MiB, room for a batch of large pages. */
export const defaultMaxBodyBytes = 32 * 1024 * 1024

/** `QUIRE_MAX_BODY_BYTES`: the largest request body the server reads. */
export const MaxBodyBytes = Config.Int("QUIRE_MAX_BODY_BYTES").pipe(Config.withDefault(defaultMaxBodyBytes))

/** The answer to a body over the bound. */
export const tooLarge = (max: number) => envelope(413, `The request body is larger than the ${max} bytes this server accepts`)

/** A global router middleware that bounds every request's body. */
export const layer = HttpRouter.middleware(
  Effect.gen(function*() {
    const max = yield* Effect.orDie(MaxBodyBytes)
    const size = ByteSize.bytes(max)
    return (httpEffect) =>
      Effect.withFiber((fiber) => {
        const request = Context.getUnsafe(fiber.context, HttpServerRequest.HttpServerRequest)
        // A file upload streams its body under its own bound (FileUploadRoute).
        if (isUpload(request)) return httpEffect
        const declared = Number(request.headers["content-length"] ?? "0")
        if (Number.isFinite(declared) && declared > max) return Effect.succeed(tooLarge(max))
        return Effect.provideService(httpEffect, HttpIncomingMessage.MaxBodySize, size)
      })
  }),
  { global: true }
)
