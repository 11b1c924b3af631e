/**
 * Use cases on docs sites: creation (with spaces, or a new space), settings, publishing, the
 * adaptive schema, the visitor-auth key, customization (those three in `SiteSettings.ts`) and the
 * published profile.
 */
import { AuditLog, type AuditLogShape, caller as auditCaller } from "@quire/audit"
import { Clock, Context, Effect, Layer, Option } from "effect"
import { Actor, Errors, Ids, Pagination, Transactor } from "@quire/kernel"
import { type Space, Spaces, SpacesRepo } from "@quire/content"
import { SiteCustomization, type SiteCustomizationRecord } from "./domain/Customization.ts"
import { hostnameProblem, proxyPattern, type Site, type SiteAdaptiveSchema, type TemplateCondition } from "./domain/Site.ts"
import { slugify, type SiteSpace, uniquePath } from "./domain/Structure.ts"
import * as Positions from "./Positions.ts"
import { SiteChanges } from "./SiteChanges.ts"
import { type SiteAccess, sitePermissions as sitePermissionsOf } from "./SiteAccess.ts"
import { SitePermissionsRepo } from "./SitePermissionsRepo.ts"
import * as SiteGuard from "./SiteGuard.ts"
import { siteSettings } from "./SiteSettings.ts"
import { siteKeyShape, SitesRepo } from "./SitesRepo.ts"
import type { CreateSiteInput, PublishedProfile, SiteListFilter, SitePublishingAuth, SitePublishingAuthUpdate, SiteUpdate } from "./SiteTypes.ts"
import { type SectionGroupView, type SectionView, SiteStructure, type SiteSpaceView, type SiteStructureView, type StructureItem } from "./SiteStructure.ts"
import { SiteStructureRepo } from "./SiteStructureRepo.ts"
import { SiteChannelsRepo } from "./SiteChannelsRepo.ts"
import { overlay } from "./domain/StructureExtras.ts"
import { RedirectsRepo } from "./RedirectsRepo.ts"
import { SiteEventsRepo } from "./insights/SiteEventsRepo.ts"
import { SiteQuestionsRepo } from "./questions/SiteQuestionsRepo.ts"
import { ShareLinksRepo } from "./ShareLinksRepo.ts"
import { SiteAgentRepo } from "./agents/SiteAgentRepo.ts"
import { SiteContextRepo } from "./findings/SiteContextRepo.ts"
import { StyleguideRepo } from "./styleguides/StyleguideRepo.ts"
import * as Model from "./StructureModel.ts"
import * as VisitorKeys from "./VisitorKeys.ts"
import * as VisitorToken from "./VisitorToken.ts"

export type * from "./SiteTypes.ts"

type Denied = Errors.NotFound | Errors.Forbidden

export interface SitesShape {
  /** The organization's sites (members only), oldest first. */
  readonly list: (organizationId: string, filter: SiteListFilter, page: Pagination.PageRequest) => Effect.Effect<Pagination.Page<SiteAccess>, Errors.NotFound | Errors.InvalidInput, Actor.Actor>
  /** Creates an unpublished site (admins). */
  readonly create: (organizationId: string, input: CreateSiteInput) => Effect.Effect<SiteAccess, Denied | Errors.InvalidInput, Actor.Actor>
  readonly get: (organizationId: string, siteId: string) => Effect.Effect<SiteAccess, Errors.NotFound, Actor.Actor>
  readonly update: (organizationId: string, siteId: string, update: SiteUpdate) => Effect.Effect<SiteAccess, Denied | Errors.InvalidInput | Errors.Conflict, Actor.Actor>
  /** Deletes the site and everything under it; nothing happens when it does not exist or the caller cannot see it. */
  readonly remove: (organizationId: string, siteId: string) => Effect.Effect<void, Errors.Forbidden, Actor.Actor>
  readonly publish: (organizationId: string, siteId: string) => Effect.Effect<SiteAccess, Denied, Actor.Actor>
  readonly unpublish: (organizationId: string, siteId: string) => Effect.Effect<SiteAccess, Denied, Actor.Actor>
  /** NotFound when the site has no adaptive schema. */
  readonly getAdaptiveSchema: (organizationId: string, siteId: string) => Effect.Effect<SiteAdaptiveSchema, Errors.NotFound, Actor.Actor>
  /** Validates (draft-07, an adaptive schema's shape) and stores; InvalidInput on `jsonSchema` naming the problem. */
  readonly putAdaptiveSchema: (organizationId: string, siteId: string, jsonSchema: unknown) => Effect.Effect<SiteAdaptiveSchema, Denied | Errors.InvalidInput, Actor.Actor>
  /** Suggested conditions from the adaptive schema (empty without one). */
  readonly templateConditions: (organizationId: string, siteId: string) => Effect.Effect<ReadonlyArray<TemplateCondition>, Errors.NotFound, Actor.Actor>
  /** The visitor-auth signing key (admins; created on first use). */
  readonly getPublishingAuth: (organizationId: string, siteId: string) => Effect.Effect<SitePublishingAuth, Denied, Actor.Actor>
  /** A new visitor-auth key; tokens signed with the old one stop working at once (admins). */
  readonly regeneratePublishingAuth: (organizationId: string, siteId: string) => Effect.Effect<SitePublishingAuth, Denied, Actor.Actor>
  /** Sets or removes the sign-in fallback URL (admins); InvalidInput on `fallbackURL` unless an https URL. */
  readonly updatePublishingAuth: (
    organizationId: string,
    siteId: string,
    update: SitePublishingAuthUpdate
  ) => Effect.Effect<SitePublishingAuth, Denied | Errors.InvalidInput, Actor.Actor>
  readonly getCustomization: (organizationId: string, siteId: string) => Effect.Effect<SiteCustomizationRecord, Errors.NotFound, Actor.Actor>
  /** Replaces the customization (admins). */
  readonly putCustomization: (organizationId: string, siteId: string, settings: SiteCustomization) => Effect.Effect<SiteCustomizationRecord, Denied | Errors.InvalidInput, Actor.Actor>
  /** The site with its structure and customizations (members). */
  readonly published: (organizationId: string, siteId: string) => Effect.Effect<PublishedProfile, Errors.NotFound, Actor.Actor>
  /** `getSiteStructure`: sections and groups in order, or the root site spaces. */
  readonly structure: (organizationId: string, siteId: string) => Effect.Effect<SiteStructureView, Errors.NotFound, Actor.Actor>
}

/**
 * The names this server answers to besides loopback ones (its public URL's host, the address it
 * listens on): no site may take one as its hostname. The server provides them; by default none.
 */
export const ServerHostnames = Context.Reference<ReadonlyArray<string>>("@quire/sites/ServerHostnames", { defaultValue: () => [] })

/** The spaces a new site lists, in order: each a space of the organization, listed once. */
const listedSpaces = Effect.fnUntraced(function*(spacesRepo: SpacesRepo["Service"], organizationId: string, spaceIds: ReadonlyArray<string>) {
  const listed: Array<Space> = []
  for (const [i, spaceId] of spaceIds.entries()) {
    const space = yield* spacesRepo.find(spaceId)
    if (Option.isNone(space) || space.value.organizationId !== organizationId || space.value.deletedAt !== null) {
      return yield* new Errors.InvalidInput({ field: `spaces[${i}]`, reason: `${JSON.stringify(spaceId)} is not a space of this organization` })
    }
    if (listed.some((s) => s.id === spaceId)) return yield* new Errors.InvalidInput({ field: `spaces[${i}]`, reason: "is listed twice" })
    listed.push(space.value)
  }
  return listed
})

/** A new site: unpublished, without hostname, basename, proxy or default site space. */
const newSite = (organizationId: string, input: CreateSiteInput, title: string, id: string, at: Date): Site => ({
  id,
  organizationId,
  type: input.type ?? "basic",
  title,
  hostname: null,
  basename: null,
  proxy: null,
  visibility: input.visibility ?? "public",
  published: false,
  adaptiveContent: false,
  agentsContext: "included",
  defaultSectionId: null,
  defaultSiteSpaceId: null,
  createdAt: at,
  updatedAt: at
})

/** The fields of a site update checked on their own: lengths, the hostname, the proxy and the default section. */
const checkUpdate = Effect.fnUntraced(function*(input: SiteUpdate, model: Model.Model) {
  if (input.title !== undefined) yield* SiteGuard.checkLength("title", input.title, 2, 128)
  if (input.basename != null) yield* SiteGuard.checkLength("basename", input.basename, 1, 100)
  if (input.hostname != null) {
    const problem = hostnameProblem(input.hostname, yield* ServerHostnames)
    if (problem !== undefined) return yield* new Errors.InvalidInput({ field: "hostname", reason: problem })
  }
  if (input.proxy != null && (input.proxy.length > 512 || !proxyPattern.test(input.proxy))) {
    return yield* new Errors.InvalidInput({ field: "proxy", reason: "must be a host followed by one or more path segments (example.com/docs)" })
  }
  if (input.defaultSiteSection !== undefined && !model.sections.some((s) => s.id === input.defaultSiteSection)) {
    return yield* new Errors.InvalidInput({ field: "defaultSiteSection", reason: `${JSON.stringify(input.defaultSiteSection)} is not a section of this site` })
  }
})

/** A structure narrowed to the site spaces of `spaceIds`: sections and groups left empty are left out. */
const readersStructure = (view: SiteStructureView, spaceIds: ReadonlyArray<string>): SiteStructureView => {
  const shown = (s: SiteSpaceView) => spaceIds.includes(s.space.space.id)
  if (view.type === "siteSpaces") return { type: "siteSpaces", structure: view.structure.filter(shown) }
  const section = (s: SectionView): SectionView | undefined => {
    const siteSpaces = s.siteSpaces.filter(shown)
    return siteSpaces.length === 0 ? undefined : { ...s, siteSpaces }
  }
  const structure = view.structure.flatMap((item): Array<StructureItem> => {
    if (item.type === "section") {
      const kept = section(item.section)
      return kept === undefined ? [] : [{ type: "section", section: kept }]
    }
    // Readers of some spaces only see what is live: no draft links.
    if (item.type === "link") return item.link.draft ? [] : [item]
    const sections = item.group.sections.flatMap((s) => section(s) ?? [])
    const children = item.group.children.flatMap((c): Array<SectionGroupView["children"][number]> => {
      if (c.type === "link") return c.link.draft ? [] : [c]
      const kept = section(c.section)
      return kept === undefined ? [] : [{ type: "section", section: kept }]
    })
    return sections.length === 0 ? [] : [{ type: "group", group: { ...item.group, sections, children } }]
  })
  return { type: "sections", structure }
}

/** What a published site shows its reader: the site, its structure as the reader sees it, its customization. */
const publishedProfile = (guard: Effect.Success<typeof SiteGuard.make>, structure: SiteStructure["Service"], repo: SitesRepo["Service"], structureRepo: SiteStructureRepo["Service"]) =>
  Effect.fn("Sites.published")(function*(organizationId: string, siteId: string) {
    const site = yield* guard.site(organizationId, siteId)
    const reader = (yield* Actor.Actor).siteReader
    const whole = yield* structure.structure(organizationId, siteId)
    const customization = (yield* repo.customization(siteId)).settings
    return {
      site,
      // A site's reader is shown the site spaces its visitor sees, and the sections holding one.
      structure: reader === undefined ? whole : readersStructure(whole, reader.spaceIds),
      customization,
      // Each variant's look: the site's with the variant's own settings over it.
      siteSpaceCustomizations: Object.fromEntries(
        (yield* structureRepo.siteSpaceCustomizations(siteId)).map((c) => [c.siteSpaceId, overlay(customization, c.settings)])
      )
    } satisfies PublishedProfile
  })

/** A change of a site in the audit log, in the change's transaction. */
const siteEvent = (audit: AuditLogShape) =>
  (site: Site, action: "site.visibility-changed" | "site.hostname-changed" | "site.published" | "site.unpublished" | "site.deleted", payload?: Record<string, string | null>) =>
    Effect.flatMap(auditCaller, (actor) => audit.record({ organizationId: site.organizationId, action, actor, target: { type: "site", id: site.id, label: site.title }, payload }))

export class Sites extends Context.Service<Sites, SitesShape>()("@quire/sites/Sites") {
  static readonly layer = Layer.effect(
    Sites,
    Effect.gen(function*() {
      const guard = yield* SiteGuard.make
      const repo = yield* SitesRepo
      // Visitor keys are sealed under the instance secret; those an older Quire stored in clear are sealed now.
      const visitorKeys = yield* VisitorKeys.box
      yield* VisitorKeys.sealLegacy(repo, visitorKeys)
      const structureRepo = yield* SiteStructureRepo
      const shareLinks = yield* ShareLinksRepo
      const redirects = yield* RedirectsRepo
      const sitePermissions = yield* SitePermissionsRepo
      const siteEvents = yield* SiteEventsRepo
      const agents = yield* SiteAgentRepo
      const styleguides = yield* StyleguideRepo
      const channels = yield* SiteChannelsRepo
      const siteQuestions = yield* SiteQuestionsRepo
      const siteContext = yield* SiteContextRepo
      const structure = yield* SiteStructure
      const spacesRepo = yield* SpacesRepo
      const spaces = yield* Spaces
      const ids = yield* Ids.Ids
      const transactor = yield* Transactor.Transactor
      const changed = (yield* SiteChanges).after
      const audit = yield* AuditLog
      const recordSite = siteEvent(audit)
      const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))

      const reread = Effect.fnUntraced(function*(siteId: string, { role, siteRole }: Pick<SiteAccess, "role" | "siteRole">) {
        const site = yield* repo.find(siteId)
        if (Option.isNone(site)) return yield* new Errors.NotFound({ resource: "Site", id: siteId })
        return yield* guard.accessOf(site.value, role, siteRole)
      })

      const list = Effect.fn("Sites.list")(function*(organizationId: string, filter: SiteListFilter, page: Pagination.PageRequest) {
        const { role, siteRoleOf } = yield* guard.standing(organizationId)
        const after = yield* Pagination.afterOf(page, siteKeyShape)
        const siteIds = filter.spaceId === undefined
          ? undefined
          : Array.from(new Set((yield* structureRepo.siteSpacesOfSpace(filter.spaceId)).map((s) => s.siteId)))
        const found = yield* repo.list({ organizationId, title: filter.title, published: filter.published, siteIds }, after, Pagination.limitOf(page))
        const counts = yield* structureRepo.countSiteSpaces(found.items.map((s) => s.id))
        const items = found.items.map((site): SiteAccess => {
          const siteRole = siteRoleOf(site.id)
          return { site, role, siteRole, permissions: sitePermissionsOf(siteRole), siteSpaces: counts.get(site.id) ?? 0 }
        })
        return { items, ...(found.next === undefined ? {} : { next: found.next }) }
      })

      const create = Effect.fn("Sites.create")(function*(organizationId: string, input: CreateSiteInput) {
        const role = yield* guard.member(organizationId)
        if (role !== "admin") return yield* SiteGuard.forbidden("create sites")
        const title = input.title ?? "Docs"
        yield* SiteGuard.checkLength("title", title, 2, 128)
        const listed = yield* listedSpaces(spacesRepo, organizationId, input.spaces ?? [])
        if (input.emptySpace === true) listed.push((yield* spaces.create(organizationId, { title: title.slice(0, 50) })).space)
        const at = yield* now
        const site = newSite(organizationId, input, title, yield* ids.make, at)
        const rows: Array<SiteSpace> = []
        for (const space of listed) {
          rows.push({
            id: yield* ids.make,
            siteId: site.id,
            sectionId: null,
            spaceId: space.id,
            path: uniquePath(slugify(space.title), new Set(rows.map((r) => r.path))),
            condition: null,
            position: (rows.length + 1) * Positions.gap,
            createdAt: at,
            updatedAt: at
          })
        }
        yield* repo.insert({ ...site, defaultSiteSpaceId: rows[0]?.id ?? null }).pipe(Effect.orDie)
        yield* repo.putVisitorKey(site.id, visitorKeys.seal(VisitorToken.newKey()))
        yield* Effect.forEach(rows, (row) => structureRepo.insertSiteSpace(row), { discard: true })
        return yield* reread(site.id, { role, siteRole: role })
      }, transactor.transaction, changed)

      const get = Effect.fn("Sites.get")(function*(organizationId: string, siteId: string) {
        return yield* guard.site(organizationId, siteId)
      })

      const update = Effect.fn("Sites.update")(function*(organizationId: string, siteId: string, input: SiteUpdate) {
        const { role, site, siteRole } = yield* guard.editor(organizationId, siteId, "change this site")
        yield* repo.lock(siteId)
        const model = yield* Model.load(structureRepo, siteId)
        yield* checkUpdate(input, model)
        const at = yield* now
        if (input.defaultSiteSpace !== undefined) {
          // The root's default, or the default section's (the one this update makes default).
          const sectionId = model.sections.length === 0 ? null : input.defaultSiteSection ?? site.defaultSectionId
          if (!Model.siteSpacesOf(model, sectionId).some((s) => s.id === input.defaultSiteSpace)) {
            return yield* new Errors.InvalidInput({
              field: "defaultSiteSpace",
              reason: `${JSON.stringify(input.defaultSiteSpace)} is not a site space of ${sectionId === null ? "the site's root" : "the default section"}`
            })
          }
          if (sectionId !== null) yield* structureRepo.updateSection(sectionId, { defaultSiteSpaceId: input.defaultSiteSpace, updatedAt: at })
        }
        yield* repo.update(siteId, {
          ...(input.title === undefined ? {} : { title: input.title }),
          ...(input.visibility === undefined ? {} : { visibility: input.visibility }),
          ...(input.basename === undefined ? {} : { basename: input.basename }),
          ...(input.adaptiveContent === undefined ? {} : { adaptiveContent: input.adaptiveContent.enabled }),
          ...(input.agentsContext === undefined ? {} : { agentsContext: input.agentsContext }),
          ...(input.defaultSiteSection === undefined ? {} : { defaultSectionId: input.defaultSiteSection }),
          ...(input.defaultSiteSpace !== undefined && model.sections.length === 0 ? { defaultSiteSpaceId: input.defaultSiteSpace } : {}),
          ...(input.proxy === undefined ? {} : { proxy: input.proxy }),
          ...(input.hostname === undefined ? {} : { hostname: input.hostname }),
          updatedAt: at
        })
        if (input.visibility !== undefined && input.visibility !== site.visibility) yield* recordSite(site, "site.visibility-changed", { from: site.visibility, to: input.visibility })
        if (input.hostname !== undefined && input.hostname !== site.hostname) yield* recordSite(site, "site.hostname-changed", { from: site.hostname, to: input.hostname })
        return yield* reread(siteId, { role, siteRole })
      }, transactor.transaction, changed)

      const remove = Effect.fn("Sites.remove")(function*(organizationId: string, siteId: string) {
        yield* SiteGuard.quietly(Effect.gen(function*() {
          const { site } = yield* guard.manager(organizationId, siteId, "delete this site")
          // What the site owns goes with it, in its transaction.
          for (const owned of [sitePermissions, structureRepo, shareLinks, redirects, siteEvents, agents, siteQuestions, siteContext, styleguides, channels]) yield* owned.removeSite(siteId)
          yield* repo.remove(siteId)
          yield* recordSite(site, "site.deleted")
        }))
      }, transactor.transaction, changed)

      const setPublished = (published: boolean) =>
        Effect.fnUntraced(function*(organizationId: string, siteId: string) {
          const standing = yield* guard.editor(organizationId, siteId, published ? "publish this site" : "unpublish this site")
          yield* repo.update(siteId, { published, updatedAt: yield* now }).pipe(Effect.orDie)
          if (standing.site.published !== published) yield* recordSite(standing.site, published ? "site.published" : "site.unpublished")
          return yield* reread(siteId, standing)
        })

      const settings = siteSettings(guard, repo, changed, visitorKeys, audit, transactor)

      const published = publishedProfile(guard, structure, repo, structureRepo)

      return Sites.of({
        list,
        create,
        get,
        update,
        remove,
        publish: Effect.fn("Sites.publish")(setPublished(true), transactor.transaction, changed),
        unpublish: Effect.fn("Sites.unpublish")(setPublished(false), transactor.transaction, changed),
        ...settings,
        published,
        structure: (organizationId, siteId) => structure.structure(organizationId, siteId)
      })
    })
  )
}
