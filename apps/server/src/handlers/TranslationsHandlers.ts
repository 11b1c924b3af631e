/** Handlers of the translations group. */
import { Effect, Option } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "@quire/api"
import { Translations } from "@quire/translations"
import * as DomainErrors from "../DomainErrors.ts"
import * as Presenters from "../Presenters.ts"
import { PublicUrl } from "../PublicUrl.ts"
import * as TranslationPresenters from "../TranslationPresenters.ts"

export const layer = HttpApiBuilder.group(Api, "translations", Effect.fn(function*(handlers) {
  const translations = yield* Translations
  const urls = yield* PublicUrl
  const present = Effect.map((access: Parameters<typeof TranslationPresenters.translation>[1]) => TranslationPresenters.translation(urls, access))
  return handlers
    .handle("listTranslations", ({ params, query }) =>
      translations.list(params.organizationId, query).pipe(
        DomainErrors.api,
        Effect.map((page) => Presenters.list(page, (access) => TranslationPresenters.translation(urls, access)))
      ))
    .handle("createTranslation", ({ params, payload }) =>
      translations.create(params.organizationId, payload).pipe(DomainErrors.api, present))
    .handle("getTranslation", ({ params }) =>
      translations.get(params.organizationId, params.translationId).pipe(DomainErrors.api, present))
    .handle("updateTranslation", ({ params, payload }) =>
      translations.update(params.organizationId, params.translationId, payload.instructions).pipe(DomainErrors.api, present))
    .handle("runTranslation", ({ params }) =>
      translations.run(params.organizationId, params.translationId).pipe(DomainErrors.api))
    .handle("deleteTranslation", ({ params }) =>
      translations.remove(params.organizationId, params.translationId).pipe(DomainErrors.api))
    .handle("getTranslationsProvider", ({ params }) =>
      translations.provider(params.organizationId).pipe(
        DomainErrors.api,
        Effect.map((reason) => ({
          object: "translations-provider" as const,
          configured: Option.isNone(reason),
          setting: "QUIRE_TRANSLATE_URL",
          ...(Option.isSome(reason) ? { message: reason.value } : {})
        }))
      ))
}))
