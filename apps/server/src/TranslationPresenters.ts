/** Translations to GitBook's `Translation` shape. */
import type { Translation as TranslationResponse } from "@quire/api"
import type { TranslationAccess } from "@quire/translations"
import type { PublicUrl } from "./PublicUrl.ts"

type Urls = PublicUrl["Service"]

export const translation = (urls: Urls, access: TranslationAccess): TranslationResponse => {
  const t = access.translation
  return {
    object: "translation",
    id: t.id,
    status: t.status,
    ...(t.failure === null ? {} : { failure: t.failure }),
    source: { space: t.sourceSpaceId, language: t.sourceLanguage },
    language: t.language,
    instructions: t.instructions,
    ...(t.resultRevisionId === null ? {} : { result: { space: t.resultSpaceId, revision: t.resultRevisionId, language: t.language } }),
    createdAt: t.createdAt.toISOString(),
    updatedAt: t.updatedAt.toISOString(),
    stats: t.stats,
    permissions: access.permissions,
    urls: { location: urls.api(`/orgs/${t.organizationId}/translations/${t.id}`) }
  }
}
