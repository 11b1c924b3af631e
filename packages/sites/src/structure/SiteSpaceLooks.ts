/**
 * Use cases on a variant's look (the fields of the site's customization a site space overrides),
 * on duplicating a variant, on applying the template to a site and on warming its search.
 */
import { Effect, Option, Schema } from "effect"
import { Errors } from "@quire/kernel"
import { Spaces } from "@quire/content"
import { PublishedSites } from "../PublishedSites.ts"
import * as Model from "../StructureModel.ts"
import { SiteCustomization } from "../domain/Customization.ts"
import { withDefaults } from "../domain/CustomizationDefaults.ts"
import { applyPatch, type CustomizationPatch, overlay } from "../domain/StructureExtras.ts"
import { siteSpaceIn, type StructureEdit } from "./StructureEdit.ts"

const decodeSettings = Schema.decodeUnknownOption(SiteCustomization)

/** The first field of an override that GitBook's schema refuses (`styling.primaryColor`), as an InvalidInput. */
const invalidField = (settings: Record<string, unknown>): Errors.InvalidInput => {
  for (const [key, value] of Object.entries(settings)) {
    if (Option.isNone(decodeSettings({ [key]: value }))) {
      if (typeof value === "object" && value !== null && !Array.isArray(value)) {
        for (const [inner, v] of Object.entries(value)) {
          if (Option.isNone(decodeSettings({ [key]: { [inner]: v } }))) return new Errors.InvalidInput({ field: `${key}.${inner}`, reason: "is not a value GitBook's customization accepts" })
        }
      }
      return new Errors.InvalidInput({ field: key, reason: "is not a value GitBook's customization accepts" })
    }
  }
  return new Errors.InvalidInput({ field: "customization", reason: "is not a customization GitBook accepts" })
}

export const siteSpaceLooks = (edit: StructureEdit) => {
  const { guard, repo, sites, transactor, changed, now, forWrite, insertSiteSpace, siteSpaceAfter } = edit

  /** The site space's look: the site's customization with its override over it, and when either last changed. */
  const lookOf = Effect.fnUntraced(function*(siteId: string, siteSpaceId: string) {
    const site = yield* sites.customization(siteId)
    const own = (yield* repo.siteSpaceCustomizations(siteId)).find((c) => c.siteSpaceId === siteSpaceId)
    const updatedAt = own === undefined ? site.updatedAt : site.updatedAt === null || own.updatedAt > site.updatedAt ? own.updatedAt : site.updatedAt
    return { settings: overlay(site.settings, own?.settings), override: own?.settings ?? {}, updatedAt }
  })

  const siteSpaceOf = Effect.fnUntraced(function*(siteId: string, siteSpaceId: string) {
    return yield* siteSpaceIn(yield* Model.load(repo, siteId), siteSpaceId)
  })

  const getSiteSpaceCustomization = Effect.fn("SiteStructure.getSiteSpaceCustomization")(function*(organizationId: string, siteId: string, siteSpaceId: string) {
    yield* guard.site(organizationId, siteId)
    yield* siteSpaceOf(siteId, siteSpaceId)
    return yield* lookOf(siteId, siteSpaceId)
  })

  const overrideSiteSpaceCustomization = Effect.fn("SiteStructure.overrideSiteSpaceCustomization")(function*(
    organizationId: string,
    siteId: string,
    siteSpaceId: string,
    patch: CustomizationPatch
  ) {
    yield* guard.editor(organizationId, siteId, "customize this site's variants")
    yield* siteSpaceOf(siteId, siteSpaceId)
    const current = (yield* repo.siteSpaceCustomizations(siteId)).find((c) => c.siteSpaceId === siteSpaceId)
    const next = applyPatch((current?.settings ?? {}) as Record<string, unknown>, patch)
    const decoded = decodeSettings(next)
    if (Option.isNone(decoded)) return yield* invalidField(next)
    yield* repo.putSiteSpaceCustomization({ siteSpaceId, siteId, settings: decoded.value, updatedAt: yield* now })
    return yield* lookOf(siteId, siteSpaceId)
  }, transactor.transaction, changed)

  /** Whether the site space had an override. */
  const deleteSiteSpaceCustomization = Effect.fn("SiteStructure.deleteSiteSpaceCustomization")(function*(organizationId: string, siteId: string, siteSpaceId: string) {
    yield* guard.editor(organizationId, siteId, "customize this site's variants")
    yield* siteSpaceOf(siteId, siteSpaceId)
    return yield* repo.removeSiteSpaceCustomization(siteSpaceId)
  }, transactor.transaction, changed)

  /** A copy of the variant's space, added as a new variant of the same section (with the original's look). */
  const duplicateSiteSpace = Effect.fn("SiteStructure.duplicateSiteSpace")(function*(organizationId: string, siteId: string, siteSpaceId: string) {
    yield* guard.editor(organizationId, siteId, "change this site")
    const original = yield* siteSpaceOf(siteId, siteSpaceId)
    const copy = yield* (yield* Spaces).duplicate(original.spaceId)
    const added = yield* transactor.transaction(Effect.gen(function*() {
      const { model, site } = yield* forWrite(organizationId, siteId, "change this site")
      const siteSpace = yield* insertSiteSpace(site, model, copy.space, original.sectionId, yield* now)
      const look = (yield* repo.siteSpaceCustomizations(siteId)).find((c) => c.siteSpaceId === siteSpaceId)
      if (look !== undefined) yield* repo.putSiteSpaceCustomization({ ...look, siteSpaceId: siteSpace.id, updatedAt: yield* now })
      return siteSpace
    }))
    return yield* siteSpaceAfter(organizationId, siteId, added.id)
  }, changed)

  /** Fills every setting the site's customization leaves unset with the template's (a new site's) value. */
  const applyTemplate = Effect.fn("SiteStructure.applyTemplate")(function*(organizationId: string, siteId: string) {
    yield* guard.editor(organizationId, siteId, "customize this site")
    const current = yield* sites.customization(siteId)
    yield* sites.putCustomization(siteId, { settings: withDefaults(current.settings), updatedAt: yield* now })
  }, transactor.transaction, changed)

  /** Reads the published site once, so that its first reader's search finds it ready. */
  const prewarmSearch = Effect.fn("SiteStructure.prewarmSearch")(function*(organizationId: string, siteId: string) {
    yield* guard.site(organizationId, siteId)
    yield* (yield* PublishedSites).byId(siteId)
  })

  return { getSiteSpaceCustomization, overrideSiteSpaceCustomization, deleteSiteSpaceCustomization, duplicateSiteSpace, applyTemplate, prewarmSearch }
}
