/**
 * Use cases of `Sites` on what a site keeps beside its record: the adaptive schema, the
 * visitor-auth key and the customization.
 */
import { Clock, Effect, Option, Schema } from "effect"
import { Errors } from "@quire/kernel"
import * as AdaptiveSchema from "./AdaptiveSchema.ts"
import * as Condition from "./Condition.ts"
import { SiteCustomization, type SiteCustomizationRecord } from "./domain/Customization.ts"
import type { SiteAdaptiveSchema } from "./domain/Site.ts"
import type { SiteChangesShape } from "./SiteChanges.ts"
import type * as SiteGuard from "./SiteGuard.ts"
import type { SitesRepo } from "./SitesRepo.ts"
import * as VisitorToken from "./VisitorToken.ts"

const decodeCustomization = Schema.decodeUnknownEffect(SiteCustomization)

/** Conditions inside a customization (header links), parsed as the structure's are. */
const customizationConditions = (settings: SiteCustomization): Effect.Effect<void, Errors.InvalidInput> =>
  Effect.forEach(settings.header?.links ?? [], (link, i) => {
    if (link.condition === undefined || link.condition === "") return Effect.void
    const parsed = Condition.parse(link.condition)
    return parsed.ok ? Effect.void : Effect.fail(new Errors.InvalidInput({ field: `header.links[${i}].condition`, reason: parsed.message }))
  }, { discard: true })

/** The settings' use cases over the site guard and the sites' port. */
export const siteSettings = (guard: Effect.Success<typeof SiteGuard.make>, repo: SitesRepo["Service"], changed: SiteChangesShape["after"]) => {
  const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))

  const getAdaptiveSchema = Effect.fn("Sites.getAdaptiveSchema")(function*(organizationId: string, siteId: string) {
    yield* guard.site(organizationId, siteId)
    const found = yield* repo.adaptiveSchema(siteId)
    if (Option.isNone(found)) return yield* new Errors.NotFound({ resource: "SiteAdaptiveSchema", id: siteId })
    return found.value
  })

  const putAdaptiveSchema = Effect.fn("Sites.putAdaptiveSchema")(function*(organizationId: string, siteId: string, jsonSchema: unknown) {
    yield* guard.admin(organizationId, siteId, "change this site's adaptive schema")
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

  const getPublishingAuth = Effect.fn("Sites.getPublishingAuth")(function*(organizationId: string, siteId: string) {
    yield* guard.admin(organizationId, siteId, "see this site's visitor authentication key")
    const key = yield* repo.visitorKey(siteId)
    if (Option.isSome(key)) return { privateKey: key.value }
    const fresh = VisitorToken.newKey()
    yield* repo.putVisitorKey(siteId, fresh)
    return { privateKey: fresh }
  }, changed)

  const regeneratePublishingAuth = Effect.fn("Sites.regeneratePublishingAuth")(function*(organizationId: string, siteId: string) {
    yield* guard.admin(organizationId, siteId, "regenerate this site's visitor authentication key")
    const fresh = VisitorToken.newKey()
    yield* repo.putVisitorKey(siteId, fresh)
    return { privateKey: fresh }
  }, changed)

  const getCustomization = Effect.fn("Sites.getCustomization")(function*(organizationId: string, siteId: string) {
    yield* guard.site(organizationId, siteId)
    return yield* repo.customization(siteId)
  })

  const putCustomization = Effect.fn("Sites.putCustomization")(function*(organizationId: string, siteId: string, settings: SiteCustomization) {
    yield* guard.admin(organizationId, siteId, "customize this site")
    const decoded = yield* decodeCustomization(settings).pipe(
      Effect.mapError((e) => new Errors.InvalidInput({ field: "customization", reason: e.message }))
    )
    yield* customizationConditions(decoded)
    const record: SiteCustomizationRecord = { settings: decoded, updatedAt: yield* now }
    yield* repo.putCustomization(siteId, record)
    return record
  }, changed)

  return {
    getAdaptiveSchema,
    putAdaptiveSchema,
    templateConditions,
    getPublishingAuth,
    regeneratePublishingAuth,
    getCustomization,
    putCustomization
  }
}
