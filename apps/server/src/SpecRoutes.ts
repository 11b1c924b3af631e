/**
 * `GET /~openapi/<organization>/<slug>/openapi.json` and `.yaml`: a public spec's latest version,
 * for anyone (no token). A private spec, one without a version, or an unknown one is a 404.
 */
import { Effect, Option } from "effect"
import { HttpRouter, HttpServerResponse } from "effect/http"
import { Processing, Specs } from "@quire/specs"
import { envelope } from "./ErrorEnvelope.ts"

const notFound = envelope(404, "No public OpenAPI specification here")

export const layer = HttpRouter.use(Effect.fn(function*(router) {
  const specs = yield* Specs
  yield* router.add("GET", "/~openapi/:organizationId/:slug/:file", Effect.gen(function*() {
    const { file, organizationId, slug } = yield* HttpRouter.params
    const format = file === "openapi.json" ? "json" : file === "openapi.yaml" ? "yaml" : undefined
    if (format === undefined || organizationId === undefined || slug === undefined) return notFound
    const found = yield* Effect.option(specs.published(organizationId, slug))
    if (Option.isNone(found)) return notFound
    const entry = found.value.version.filesystem.find((f) => f.isEntrypoint)?.specification ?? {}
    const headers = { "access-control-allow-origin": "*", "cache-control": "public, max-age=60", "x-content-type-options": "nosniff" }
    return HttpServerResponse.text(Processing.render(entry, format), { contentType: `application/${format}`, headers })
  }))
}))
