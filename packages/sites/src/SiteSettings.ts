/**
 * Use cases of `Sites` on what a site keeps beside its record: the adaptive schema, the
 * visitor-auth key and the customization.
 */
import { type AuditLogShape, caller as auditCaller } from "@quire/audit"
import { Clock, Effect, Option, Schema } from "effect"
import { Errors, type Transactor } from "@quire/kernel"
import * as AdaptiveSchema from "./AdaptiveSchema.ts"
import * as Condition from "./Condition.ts"
import { SiteCustomization, type SiteCustomizationRecord } from "./domain/Customization.ts"
import { withoutDefaults } from "./domain/CustomizationDefaults.ts"
import type { SiteAdaptiveSchema } from "./domain/Site.ts"
import type { SiteChangesShape } from "./SiteChanges.ts"
import type { SitePublishingAuthUpdate } from "./SiteTypes.ts"
import type * as SiteGuard from "./SiteGuard.ts"
import type { SitesRepo } from "./SitesRepo.ts"
import type * as VisitorKeys from "./VisitorKeys.ts"
import * as VisitorToken from "./VisitorToken.ts"

const decodeCustomization = Schema.decodeUnknownEffect(SiteCustomization)

/** Conditions inside a customization (header links), parsed as the structure's are. */
const customizationConditions = (settings: SiteCustomization): Effect.Effect<void, Errors.InvalidInput> =>
  Effect.forEach(settings.header?.links ?? [], (link, i) => {
    if (link.condition === undefined || link.condition === "") return Effect.void
    const parsed = Condition.parse(link.condition)
    return parsed.ok ? Effect.void : Effect.fail(new Errors.InvalidInput({ field: `header.links[${i}].condition`, reason: parsed.message }))
  }, { discard: true })

/**
 * Why `url` cannot be a sign-in fallback URL, or `undefined` when it can: an absolute https URL
 * without credentials, at most 2048 characters (readers' browsers are sent there).
 */
export const fallbackUrlProblem = (url: string): string | undefined => {
  if (url.length > 2048) return "must be at most 2048 characters"
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return "must be an absolute URL"
  }
  if (parsed.protocol !== "https:") return "must be an https URL"
  if (parsed.username !== "" || parsed.password !== "") return "must not hold a user name or password"
  return undefined
}

/** The settings' use cases over the site guard and the sites' port. */
export const siteSettings = (
  guard: Effect.Success<typeof SiteGuard.make>,
  repo: SitesRepo["Service"],
  changed: SiteChangesShape["after"],
  visitorKeys: VisitorKeys.Box,
  audit: AuditLogShape,
  transactor: Transactor.Transactor["Service"]
) => {
  const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))
  const recordAuth = Effect.fnUntraced(function*(site: { readonly id: string; readonly organizationId: string; readonly title: string }, action: "site.visitor-key-rotated" | "site.visitor-auth-changed" | "site.visitor-key-read", payload?: Record<string, string | null>) {
    yield* audit.record({ organizationId: site.organizationId, action, actor: yield* auditCaller, target: { type: "site", id: site.id, label: site.title }, payload })
  })

  const getAdaptiveSchema = Effect.fn("Sites.getAdaptiveSchema")(function*(organizationId: string, siteId: string) {
    yield* guard.site(organizationId, siteId)
    const found = yield* repo.adaptiveSchema(siteId)
    if (Option.isNone(found)) return yield* new Errors.NotFound({ resource: "SiteAdaptiveSchema", id: siteId })
    return found.value
  })

  const putAdaptiveSchema = Effect.fn("Sites.putAdaptiveSchema")(function*(organizationId: string, siteId: string, jsonSchema: unknown) {
    yield* guard.editor(organizationId, siteId, "change this site's adaptive schema")
    const problem = AdaptiveSchema.problem(jsonSchema)
    if (problem !== undefined) {
      // The message names the field first (`jsonSchema.properties.plan: ...`).
      const at = problem.indexOf(": ")
      return yield* new Errors.InvalidInput(
        at > 0 && problem.startsWith("jsonSchema")
          ? { field: problem.slice(0, at), reason: problem.slice(at + 2) }
          : { field: "jsonSchema", reason: problem }
      )
    }
    const schema: SiteAdaptiveSchema = { siteId, jsonSchema, updatedAt: yield* now }
    yield* repo.putAdaptiveSchema(schema)
    return schema
  }, changed)

  const templateConditions = Effect.fn("Sites.templateConditions")(function*(organizationId: string, siteId: string) {
    yield* guard.site(organizationId, siteId)
    const found = yield* repo.adaptiveSchema(siteId)
    return Option.isNone(found) ? [] : AdaptiveSchema.templateConditions(found.value.jsonSchema)
  })

  /** The key (created on first use, or when it no longer opens under this instance secret) with the fallback URL. */
  const publishingAuth = Effect.fnUntraced(function*(siteId: string) {
    const key = Option.flatMap(yield* repo.visitorKey(siteId), visitorKeys.open)
    let privateKey: string
    if (Option.isSome(key)) privateKey = key.value
    else {
      privateKey = VisitorToken.newKey()
      yield* repo.putVisitorKey(siteId, visitorKeys.seal(privateKey))
    }
    const fallbackURL = Option.getOrUndefined(yield* repo.fallbackUrl(siteId))
    return { privateKey, ...(fallbackURL === undefined ? {} : { fallbackURL }) }
  })

  const getPublishingAuth = Effect.fn("Sites.getPublishingAuth")(function*(organizationId: string, siteId: string) {
    const { site } = yield* guard.editor(organizationId, siteId, "see this site's visitor authentication key")
    // The answer holds the key in full (GitBook's API masks none of it): each read is recorded.
    yield* recordAuth(site, "site.visitor-key-read")
    return yield* publishingAuth(siteId)
  }, transactor.transaction, changed)

  const regeneratePublishingAuth = Effect.fn("Sites.regeneratePublishingAuth")(function*(organizationId: string, siteId: string) {
    const { site } = yield* guard.editor(organizationId, siteId, "regenerate this site's visitor authentication key")
    yield* repo.putVisitorKey(siteId, visitorKeys.seal(VisitorToken.newKey()))
    yield* recordAuth(site, "site.visitor-key-rotated")
    return yield* publishingAuth(siteId)
  }, transactor.transaction, changed)

  const updatePublishingAuth = Effect.fn("Sites.updatePublishingAuth")(function*(
    organizationId: string,
    siteId: string,
    update: SitePublishingAuthUpdate
  ) {
    const { site } = yield* guard.editor(organizationId, siteId, "change this site's visitor authentication")
    const url = update.fallbackURL
    if (typeof url === "string") {
      const problem = fallbackUrlProblem(url)
      if (problem !== undefined) return yield* new Errors.InvalidInput({ field: "fallbackURL", reason: problem })
    }
    const before = yield* publishingAuth(siteId)
    if (url !== undefined) yield* repo.putFallbackUrl(siteId, url)
    if (url !== undefined && (before.fallbackURL ?? null) !== url) yield* recordAuth(site, "site.visitor-auth-changed", { fallbackURL: url })
    return yield* publishingAuth(siteId)
  }, transactor.transaction, changed)

  const getCustomization = Effect.fn("Sites.getCustomization")(function*(organizationId: string, siteId: string) {
    yield* guard.site(organizationId, siteId)
    return yield* repo.customization(siteId)
  })

  const putCustomization = Effect.fn("Sites.putCustomization")(function*(organizationId: string, siteId: string, settings: SiteCustomization) {
    yield* guard.editor(organizationId, siteId, "customize this site")
    const decoded = yield* decodeCustomization(settings).pipe(
      Effect.mapError((e) => new Errors.InvalidInput({ field: "customization", reason: e.message }))
    )
    yield* customizationConditions(decoded)
    // A default that a read filled in and the client sent back is no setting of the site's.
    const record: SiteCustomizationRecord = { settings: withoutDefaults(decoded), updatedAt: yield* now }
    yield* repo.putCustomization(siteId, record)
    return record
  }, changed)

  return {
    getAdaptiveSchema,
    putAdaptiveSchema,
    templateConditions,
    getPublishingAuth,
    regeneratePublishingAuth,
    updatePublishingAuth,
    getCustomization,
    putCustomization
  }
}
