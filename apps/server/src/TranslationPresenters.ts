/** Translations to GitBook's `Translation` shape. */
import type { Translation as TranslationResponse } from "@quire/api"
import type { TranslationAccess } from "@quire/translations"
import type { PublicUrl } from "./PublicUrl.ts"

type Urls = PublicUrl["Service"]

/** A JSON document with every text leaf whole as GitBook's schema has it (`object: "leaf"`, `marks`), however it was sent. */
const wholeLeaves = (node: unknown): unknown => {
  if (Array.isArray(node)) return node.map(wholeLeaves)
  if (typeof node !== "object" || node === null) return node
  const out: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(node)) {
    out[key] = key === "leaves" && Array.isArray(value)
      ? value.map((leaf: unknown) => typeof leaf === "object" && leaf !== null ? { object: "leaf", marks: [], ...leaf } : leaf)
      : wholeLeaves(value)
  }
  return out
}

export const translation = (urls: Urls, access: TranslationAccess): TranslationResponse => {
  const t = access.translation
  return {
    object: "translation",
    id: t.id,
    // A failed run ended: GitBook's `completed`, with why in `failure`.
    status: t.status === "failed" ? "completed" : t.status,
    ...(t.failure === null ? {} : { failure: t.failure }),
    source: { space: t.sourceSpaceId, language: t.sourceLanguage },
    language: t.language,
    instructions: wholeLeaves(t.instructions) as typeof t.instructions,
    ...(t.resultRevisionId === null ? {} : { result: { space: t.resultSpaceId, revision: t.resultRevisionId, language: t.language } }),
    createdAt: t.createdAt.toISOString(),
    updatedAt: t.updatedAt.toISOString(),
    stats: t.stats,
    permissions: access.permissions,
    urls: { location: urls.api(`/orgs/${t.organizationId}/translations/${t.id}`) }
  }
}
