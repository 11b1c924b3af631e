/** Handlers of the translation glossary group. */
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api, type GlossaryEntry as GlossaryEntryResponse } from "@quire/api"
import { Glossaries, type GlossaryEntry } from "@quire/translations"
import * as DomainErrors from "../DomainErrors.ts"
import * as Presenters from "../Presenters.ts"
import { PublicUrl } from "../PublicUrl.ts"

export const layer = HttpApiBuilder.group(Api, "translationsGlossary", Effect.fn(function*(handlers) {
  const glossaries = yield* Glossaries
  const urls = yield* PublicUrl
  const present = (entry: GlossaryEntry): GlossaryEntryResponse => ({
    object: "glossary-entry",
    id: entry.id,
    translations: entry.translations,
    createdAt: entry.createdAt.toISOString(),
    updatedAt: entry.updatedAt.toISOString(),
    urls: { location: urls.api(`/orgs/${entry.organizationId}/translations-glossary/${entry.id}`) }
  })
  return handlers
    .handle("listGlossaryEntries", ({ params, query }) =>
      glossaries.list(params.organizationId, query).pipe(DomainErrors.api, Effect.map((page) => Presenters.list(page, present))))
    .handle("updateGlossaryEntries", ({ params, payload }) =>
      glossaries.update(params.organizationId, payload.operations).pipe(DomainErrors.api))
    .handle("getGlossaryEntry", ({ params }) =>
      glossaries.get(params.organizationId, params.glossaryEntryId).pipe(DomainErrors.api, Effect.map(present)))
}))
