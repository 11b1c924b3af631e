/** Handlers of the OpenAPI specs group. Specs queues processing on the JobQueue its layer was given. */
import { Effect } from "effect"
import { HttpServerResponse } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "@quire/api"
import { SpecUsages } from "@quire/sites"
import { Specs } from "@quire/specs"
import * as DomainErrors from "../DomainErrors.ts"
import * as Presenters from "../Presenters.ts"
import { PublicUrl } from "../PublicUrl.ts"
import * as SpecPresenters from "../SpecPresenters.ts"

const versionRef = (versionId: string) => ({ id: versionId })

export const layer = HttpApiBuilder.group(Api, "openAPISpecs", Effect.fn(function*(handlers) {
  const specs = yield* Specs
  const usages = yield* SpecUsages
  const urls = yield* PublicUrl
  const present = Effect.map((access: Parameters<typeof SpecPresenters.spec>[1]) => SpecPresenters.spec(urls, access))
  return handlers
    .handle("listOpenAPISpecs", ({ params, query }) =>
      specs.list(params.organizationId, query).pipe(
        DomainErrors.api,
        Effect.map((page) => Presenters.list(page, (access) => SpecPresenters.spec(urls, access)))
      ))
    .handle("createOpenAPISpec", ({ params, payload }) =>
      specs.create(params.organizationId, payload.slug, payload.source).pipe(DomainErrors.api, present))
    .handle("getOpenAPISpecBySlug", ({ params }) =>
      specs.get(params.organizationId, params.specSlug).pipe(DomainErrors.api, present))
    .handle("createOrUpdateOpenAPISpecBySlug", ({ params, payload }) =>
      specs.put(params.organizationId, params.specSlug, payload.source).pipe(
        DomainErrors.api,
        Effect.map(({ access, created }) => {
          const body = SpecPresenters.spec(urls, access)
          return created ? HttpServerResponse.jsonUnsafe(body, { status: 201 }) : body
        })
      ))
    .handle("updateOpenAPISpecBySlug", ({ params, payload }) =>
      specs.update(params.organizationId, params.specSlug, payload.visibility).pipe(DomainErrors.api, present))
    .handle("deleteOpenAPISpecBySlug", ({ params }) => specs.remove(params.organizationId, params.specSlug).pipe(DomainErrors.api))
    .handle("listOpenAPISpecUsages", ({ params }) =>
      specs.get(params.organizationId, params.specSlug).pipe(
        Effect.andThen(usages.list(params.organizationId, params.specSlug)),
        DomainErrors.api,
        Effect.map((found) => ({ items: found.map((usage) => SpecPresenters.usage(urls, usage)) }))
      ))
    .handle("listOpenAPISpecVersions", ({ params, query }) =>
      Effect.gen(function*() {
        const found = yield* specs.get(params.organizationId, params.specSlug)
        const page = yield* specs.versions(params.organizationId, params.specSlug, query)
        return Presenters.list(page, (v) => SpecPresenters.version(urls, found.spec, v))
      }).pipe(DomainErrors.api))
    .handle("getLatestOpenAPISpecVersion", ({ params }) =>
      specs.version(params.organizationId, params.specSlug, "latest").pipe(
        DomainErrors.api,
        Effect.map(({ spec, version }) => SpecPresenters.version(urls, spec, version))
      ))
    .handle("getLatestOpenAPISpecVersionContent", ({ params }) =>
      specs.version(params.organizationId, params.specSlug, "latest").pipe(
        DomainErrors.api,
        Effect.map(({ spec, version }) => SpecPresenters.content(urls, spec, version))
      ))
    .handle("getOpenAPISpecVersionById", ({ params }) =>
      specs.version(params.organizationId, params.specSlug, versionRef(params.versionId)).pipe(
        DomainErrors.api,
        Effect.map(({ spec, version }) => SpecPresenters.version(urls, spec, version))
      ))
    .handle("getOpenAPISpecVersionContentById", ({ params }) =>
      specs.version(params.organizationId, params.specSlug, versionRef(params.versionId)).pipe(
        DomainErrors.api,
        Effect.map(({ spec, version }) => SpecPresenters.content(urls, spec, version))
      ))
}))
