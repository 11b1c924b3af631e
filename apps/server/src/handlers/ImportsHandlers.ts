/** Handlers of the imports group. */
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "@quire/api"
import { Imports } from "@quire/content"
import { SiteStructure } from "@quire/sites"
import * as DomainErrors from "../DomainErrors.ts"
import * as ImportPresenters from "../ImportPresenters.ts"
import * as Presenters from "../Presenters.ts"
import { PublicUrl } from "../PublicUrl.ts"

export const layer = HttpApiBuilder.group(Api, "imports", Effect.fn(function*(handlers) {
  const imports = yield* Imports
  const structure = yield* SiteStructure
  const urls = yield* PublicUrl
  const present = Effect.map((run: Parameters<typeof ImportPresenters.importRun>[1]) => ImportPresenters.importRun(urls, run))
  return handlers
    .handle("listImportRuns", ({ params, query }) =>
      Effect.gen(function*() {
        const spaces = query.site === undefined
          ? undefined
          : (yield* structure.listSiteSpaces(params.organizationId, query.site, {}, { limit: 1000 })).items.map((view) => view.space.space.id)
        return yield* imports.list(params.organizationId, { ...query, spaces })
      }).pipe(
        DomainErrors.api,
        Effect.map((page) => Presenters.list(page, (run) => ImportPresenters.importRun(urls, run)))
      ))
    .handle("startImportRun", ({ params, payload }) =>
      imports.start(params.organizationId, { source: payload.source, target: payload.target, newChangeRequest: payload.newChangeRequest }).pipe(DomainErrors.api, present))
    .handle("getImportRun", ({ params }) => imports.get(params.organizationId, params.importRunId).pipe(DomainErrors.api, present))
    .handle("cancelImportRun", ({ params }) => imports.cancel(params.organizationId, params.importRunId).pipe(DomainErrors.api, present))
}))
