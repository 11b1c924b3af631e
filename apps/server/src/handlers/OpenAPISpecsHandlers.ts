/** Handlers of the OpenAPI specs group. Specs queues processing on the JobQueue its layer was given. */
import { Effect, Option } from "effect"
import { HttpServerResponse } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "@quire/api"
import { SpecUsages } from "@quire/sites"
import { Spaces } from "@quire/content"
import { Actor, Errors } from "@quire/kernel"
import { Specs } from "@quire/specs"
import * as DomainErrors from "../DomainErrors.ts"
import * as Presenters from "../Presenters.ts"
import { PublicUrl } from "../PublicUrl.ts"
import * as SpecPresenters from "../SpecPresenters.ts"

const versionRef = (versionId: string) => ({ id: versionId })

export const layer = HttpApiBuilder.group(Api, "openAPISpecs", Effect.fn(function*(handlers) {
  const specs = yield* Specs
  const usages = yield* SpecUsages
  const spaces = yield* Spaces
  const urls = yield* PublicUrl
  /**
   * A spec as a published site's reader reads it (GitBook's renderer, drawing an OpenAPI block): a
   * public spec of the site's organization, or one a page of the spaces it shows names, as the site
   * itself draws it; any other is not found, which the renderer draws as nothing.
   */
  const readerSpec = Effect.fnUntraced(function*(reader: Actor.SiteReader, organizationId: string, slug: string) {
    const missing = new Errors.NotFound({ resource: "OpenAPISpec", id: slug })
    if (reader.organizationId !== organizationId) return yield* missing
    const published = yield* Effect.option(specs.published(organizationId, slug))
    if (Option.isSome(published)) return published.value
    const revisionIds: Array<string> = []
    for (const spaceId of reader.spaceIds) {
      const space = yield* Effect.option(spaces.get(spaceId))
      if (Option.isSome(space)) revisionIds.push(space.value.space.revisionId)
    }
    if (!(yield* usages.shownIn(revisionIds, slug))) return yield* missing
    return yield* specs.shownOnSite(organizationId, slug)
  })
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
      Effect.gen(function*() {
        const reader = (yield* Actor.Actor).siteReader
        const found = reader === undefined
          ? yield* specs.version(params.organizationId, params.specSlug, "latest")
          : yield* readerSpec(reader, params.organizationId, params.specSlug)
        return SpecPresenters.content(urls, found.spec, found.version)
      }).pipe(DomainErrors.api))
    .handle("getLatestOpenAPISpecVersionContentRaw", ({ params }) =>
      Effect.gen(function*() {
        const { spec, version } = yield* specs.version(params.organizationId, params.specSlug, "latest")
        // Only text given as is keeps its bytes; it is the latest version's only while that text parsed into it.
        const current = spec.lastVersionId === version.id && spec.lastProcessErrorCode === null
        if (!("text" in spec.source) || !current) {
          return yield* new Errors.NotFound({ resource: "Raw text of OpenAPI spec", id: params.specSlug })
        }
        const text = spec.source.text
        return { text, format: /^\s*[{[]/.test(text) ? "json" as const : "yaml" as const }
      }).pipe(DomainErrors.api))
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
