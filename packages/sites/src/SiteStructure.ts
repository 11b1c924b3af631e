/**
 * Use cases on a site's structure: sections (tabs), section groups and site spaces (the spaces a
 * site publishes, as variants of a section or at the root of a site without sections).
 */
import { Clock, Context, Effect, Layer, Option } from "effect"
import { type Actor, Errors, Ids, Pagination, Transactor } from "@quire/kernel"
import { ContentAccess, type OrganizationAccessResolver, type Space, type SpaceAccess, SpacesRepo } from "@quire/content"
import * as Condition from "./Condition.ts"
import * as Positions from "./Positions.ts"
import * as SiteChanges from "./SiteChanges.ts"
import * as SiteGuard from "./SiteGuard.ts"
import { SitesRepo } from "./SitesRepo.ts"
import { SiteStructureRepo } from "./SiteStructureRepo.ts"
import * as Model from "./StructureModel.ts"
import type { Site } from "./domain/Site.ts"
import {
  type SectionGroupPosition,
  type SectionPosition,
  type SiteSection,
  type SiteSectionGroup,
  type SiteSpace,
  type SiteSpacePosition,
  slugify,
  uniquePath
} from "./domain/Structure.ts"

type Denied = Errors.NotFound | Errors.Forbidden

/** A site space with its space (as the caller sees it) and whether it is its parent's default. */
export interface SiteSpaceView {
  readonly site: Site
  readonly siteSpace: SiteSpace
  readonly space: SpaceAccess
  readonly default: boolean
}

/** A section with its site spaces in order, and whether it is the site's default. */
export interface SectionView {
  readonly site: Site
  readonly section: SiteSection
  readonly default: boolean
  readonly siteSpaces: ReadonlyArray<SiteSpaceView>
}

export interface SectionGroupView {
  readonly site: Site
  readonly group: SiteSectionGroup
  /** Its sections in order. */
  readonly sections: ReadonlyArray<SectionView>
}

/** The top level of a site with sections: ungrouped sections and groups, in order. */
export type StructureItem =
  | { readonly type: "section"; readonly section: SectionView }
  | { readonly type: "group"; readonly group: SectionGroupView }

/** GitBook's `SiteStructure`: sections (and groups) when the site has sections, else its root site spaces. */
export type SiteStructureView =
  | { readonly type: "sections"; readonly structure: ReadonlyArray<StructureItem> }
  | { readonly type: "siteSpaces"; readonly structure: ReadonlyArray<SiteSpaceView> }

export interface AddSectionInput {
  /** The space the new section starts with, as its default site space. */
  readonly spaceId: string
  /** Absent or null: the space's title. */
  readonly title?: string | null | undefined
  readonly icon?: string | null | undefined
}

export interface SectionUpdate {
  readonly title?: string | undefined
  readonly path?: string | undefined
  readonly defaultSiteSpace?: string | undefined
  /** null removes it. */
  readonly condition?: string | null | undefined
  readonly icon?: string | null | undefined
  readonly description?: string | null | undefined
}

export interface AddSectionGroupInput {
  readonly title: string
  readonly icon?: string | null | undefined
  /** Sections moved into the group, in order. */
  readonly sections?: ReadonlyArray<string> | undefined
}

export interface SectionGroupUpdate {
  readonly title?: string | undefined
  readonly icon?: string | null | undefined
}

export interface AddSiteSpaceInput {
  readonly spaceId: string
  /** Absent: the default section, or the root when the site has no sections. */
  readonly sectionId?: string | undefined
}

export interface SiteSpaceUpdate {
  readonly path?: string | undefined
  /** null removes it. */
  readonly condition?: string | null | undefined
  /** Points the site space at another space of the organization. */
  readonly spaceId?: string | undefined
}

export interface SiteStructureShape {
  /** The site's sections in order (grouped ones where their group stands). */
  readonly listSections: (organizationId: string, siteId: string, page: Pagination.PageRequest) => Effect.Effect<Pagination.Page<SectionView>, Errors.NotFound | Errors.InvalidInput, Actor.Actor>
  /** Adds a section at the end, its space as the default site space; the site's first section becomes its default. */
  readonly addSection: (organizationId: string, siteId: string, input: AddSectionInput) => Effect.Effect<SectionView, Denied | Errors.InvalidInput, Actor.Actor>
  readonly updateSection: (organizationId: string, siteId: string, sectionId: string, update: SectionUpdate) => Effect.Effect<SectionView, Denied | Errors.InvalidInput, Actor.Actor>
  /** Deletes the section and its site spaces; the next section becomes default when it was. Nothing happens when it does not exist. */
  readonly removeSection: (organizationId: string, siteId: string, sectionId: string) => Effect.Effect<void, Errors.Forbidden, Actor.Actor>
  /** Deprecated `moveSiteSection`. */
  readonly moveSection: (organizationId: string, siteId: string, sectionId: string, position: SectionPosition) => Effect.Effect<SectionView, Denied | Errors.InvalidInput, Actor.Actor>

  readonly listSectionGroups: (organizationId: string, siteId: string, page: Pagination.PageRequest) => Effect.Effect<Pagination.Page<SectionGroupView>, Errors.NotFound | Errors.InvalidInput, Actor.Actor>
  readonly addSectionGroup: (organizationId: string, siteId: string, input: AddSectionGroupInput) => Effect.Effect<SectionGroupView, Denied | Errors.InvalidInput, Actor.Actor>
  readonly updateSectionGroup: (organizationId: string, siteId: string, groupId: string, update: SectionGroupUpdate) => Effect.Effect<SectionGroupView, Denied | Errors.InvalidInput, Actor.Actor>
  /** Deletes the group; its sections stay, at the group's place. Nothing happens when it does not exist. */
  readonly removeSectionGroup: (organizationId: string, siteId: string, groupId: string) => Effect.Effect<void, Errors.Forbidden, Actor.Actor>
  /** Moves a section into the group, at its end. */
  readonly addSectionToGroup: (organizationId: string, siteId: string, groupId: string, sectionId: string) => Effect.Effect<SectionGroupView, Denied | Errors.InvalidInput, Actor.Actor>
  /** Moves the section out of the group, just after it; nothing happens when it is not in the group. */
  readonly removeSectionFromGroup: (organizationId: string, siteId: string, groupId: string, sectionId: string) => Effect.Effect<void, Denied, Actor.Actor>
  /** Deprecated `moveSiteSectionGroup`. */
  readonly moveSectionGroup: (organizationId: string, siteId: string, groupId: string, position: SectionGroupPosition) => Effect.Effect<SectionGroupView, Denied | Errors.InvalidInput, Actor.Actor>

  /** The site's site spaces in order (section by section); `default` true: only defaults, false: only the others. */
  readonly listSiteSpaces: (organizationId: string, siteId: string, filter: { readonly default?: boolean | undefined }, page: Pagination.PageRequest) => Effect.Effect<Pagination.Page<SiteSpaceView>, Errors.NotFound | Errors.InvalidInput, Actor.Actor>
  readonly addSiteSpace: (organizationId: string, siteId: string, input: AddSiteSpaceInput) => Effect.Effect<SiteSpaceView, Denied | Errors.InvalidInput, Actor.Actor>
  readonly updateSiteSpace: (organizationId: string, siteId: string, siteSpaceId: string, update: SiteSpaceUpdate) => Effect.Effect<SiteSpaceView, Denied | Errors.InvalidInput, Actor.Actor>
  /** Deletes the site space; the next one becomes default when it was. Nothing happens when it does not exist. */
  readonly removeSiteSpace: (organizationId: string, siteId: string, siteSpaceId: string) => Effect.Effect<void, Errors.Forbidden, Actor.Actor>
  /** Deprecated `moveSiteSpace`: among the site spaces of its section (or the root). */
  readonly moveSiteSpace: (organizationId: string, siteId: string, siteSpaceId: string, position: SiteSpacePosition) => Effect.Effect<SiteSpaceView, Denied | Errors.InvalidInput, Actor.Actor>

  /** `getSiteStructure`. */
  readonly structure: (organizationId: string, siteId: string) => Effect.Effect<SiteStructureView, Errors.NotFound, Actor.Actor>
}

/** Ordinal keys of listings computed in order (structures are small; the cursor holds the place and the id). */
const ordinalShape: Pagination.KeyShape = ["number", "string"]

const paginateOrdered = <A>(items: ReadonlyArray<A>, idOf: (a: A) => string, after: Pagination.CursorKey | undefined, limit: number) =>
  Pagination.paginateArray(items.map((item, i) => ({ item, key: [i, idOf(item)] as const })), (x) => x.key, {
    order: "asc",
    after,
    limit
  })

/** Checks a path: 1 to 100 characters, no slash (paths are URL segments). */
export const checkPath = (field: string, path: string) =>
  Effect.andThen(
    SiteGuard.checkLength(field, path, 1, 100),
    /[/?#\\]|^\.{1,2}$/.test(path) || path.trim() !== path
      ? Effect.fail(new Errors.InvalidInput({ field, reason: "must be a single URL segment (no '/', '?', '#', surrounding spaces, '.' or '..')" }))
      : Effect.void
  )

/** Checks a condition: 1 to 1024 characters of a valid expression. */
export const checkCondition = (field: string, condition: string) =>
  Effect.andThen(SiteGuard.checkLength(field, condition, 1, 1024), () => {
    const parsed = Condition.parse(condition)
    return parsed.ok ? Effect.void : Effect.fail(new Errors.InvalidInput({ field, reason: parsed.message }))
  })

const checkIcon = (field: string, icon: string | null | undefined) =>
  icon == null ? Effect.void : SiteGuard.checkLength(field, icon, 0, 50)

/** A section title from a space's title (sections need 2 to 128 characters). */
const sectionTitleOf = (title: string): string => {
  const trimmed = title.trim().slice(0, 128)
  return trimmed.length >= 2 ? trimmed : "Untitled"
}

/** The fields of an update that are given; absent ones stay as they are. */
const given = <T, K extends keyof T>(update: T, keys: ReadonlyArray<K>): { [P in K]?: Exclude<T[P], undefined> } => {
  const out: Partial<Record<K, unknown>> = {}
  for (const key of keys) if (update[key] !== undefined) out[key] = update[key]
  return out as { [P in K]?: Exclude<T[P], undefined> }
}

/** An InvalidInput when another sibling already has the path. */
const checkUniquePath = (path: string | undefined, others: ReadonlyArray<{ readonly path: string }>, what: string) =>
  path === undefined
    ? Effect.void
    : Effect.andThen(
      checkPath("path", path),
      others.some((o) => o.path === path)
        ? Effect.fail(new Errors.InvalidInput({ field: "path", reason: `${JSON.stringify(path)} is already the path of another ${what}` }))
        : Effect.void
    )

const sectionIn = (model: Model.Model, sectionId: string) => {
  const section = model.sections.find((s) => s.id === sectionId)
  return section === undefined ? Effect.fail(new Errors.NotFound({ resource: "SiteSection", id: sectionId })) : Effect.succeed(section)
}
const groupIn = (model: Model.Model, groupId: string) => {
  const group = model.groups.find((g) => g.id === groupId)
  return group === undefined ? Effect.fail(new Errors.NotFound({ resource: "SiteSectionGroup", id: groupId })) : Effect.succeed(group)
}
const siteSpaceIn = (model: Model.Model, siteSpaceId: string) => {
  const siteSpace = model.siteSpaces.find((s) => s.id === siteSpaceId)
  return siteSpace === undefined ? Effect.fail(new Errors.NotFound({ resource: "SiteSpace", id: siteSpaceId })) : Effect.succeed(siteSpace)
}

export class SiteStructure extends Context.Service<SiteStructure, SiteStructureShape>()("@quire/sites/SiteStructure") {
  static readonly layer = Layer.effect(
    SiteStructure,
    Effect.gen(function*() {
      const guard = yield* SiteGuard.make
      const repo = yield* SiteStructureRepo
      const sites = yield* SitesRepo
      const spaces = yield* SpacesRepo
      const access = yield* ContentAccess
      const ids = yield* Ids.Ids
      const transactor = yield* Transactor.Transactor
      const changed = SiteChanges.after
      const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))

      /** A space of the organization (not in the trash), or an InvalidInput on `field`. */
      const spaceIn = Effect.fnUntraced(function*(organizationId: string, spaceId: string, field: string) {
        const found = yield* spaces.find(spaceId)
        if (Option.isNone(found) || found.value.organizationId !== organizationId || found.value.deletedAt !== null) {
          return yield* new Errors.InvalidInput({ field, reason: `space ${JSON.stringify(spaceId)} is not a space of this organization` })
        }
        return found.value
      })

      /** The site for an admin, locked against concurrent structure writes, with its structure. */
      const forWrite = Effect.fnUntraced(function*(organizationId: string, siteId: string, what: string) {
        const { site } = yield* guard.admin(organizationId, siteId, what)
        yield* sites.lock(siteId)
        const fresh = Option.getOrElse(yield* sites.find(siteId), () => site)
        return { site: fresh, model: yield* Model.load(repo, siteId) }
      })

      /** forWrite to change one record of the structure, with that record (NotFound when it is not there). */
      const forChange = Effect.fnUntraced(function*<A>(organizationId: string, siteId: string, recordIn: (model: Model.Model, id: string) => Effect.Effect<A, Errors.NotFound>, id: string) {
        const current = yield* forWrite(organizationId, siteId, "change this site")
        return { ...current, record: yield* recordIn(current.model, id) }
      })

      /** A removal: for an admin, and nothing happens when what it removes does not exist. */
      const removal = <E>(organizationId: string, siteId: string, remove: (current: { readonly site: Site; readonly model: Model.Model }) => Effect.Effect<void, E>) =>
        SiteGuard.quietly(Effect.flatMap(forWrite(organizationId, siteId, "change this site"), remove))

      // Views -----------------------------------------------------------------------------------

      const viewer = Effect.fnUntraced(function*(organizationId: string) {
        const resolver: OrganizationAccessResolver = yield* access.inOrganization(organizationId)
        const cache = new Map<string, Option.Option<Space>>()
        const spaceOf = (spaceId: string) =>
          cache.has(spaceId)
            ? Effect.succeed(cache.get(spaceId)!)
            : Effect.tap(spaces.find(spaceId), (found) => Effect.sync(() => cache.set(spaceId, found)))

        const siteSpaceView = (site: Parameters<typeof Model.defaultOf>[0], model: Model.Model, siteSpace: SiteSpace) =>
          Effect.gen(function*() {
            const space = yield* spaceOf(siteSpace.spaceId)
            if (Option.isNone(space)) return Option.none<SiteSpaceView>()
            const spaceAccess = yield* resolver.ofSpace(space.value)
            return Option.some<SiteSpaceView>({
              site,
              siteSpace,
              space: spaceAccess,
              default: Model.defaultOf(site, model, siteSpace.sectionId) === siteSpace.id
            })
          })

        const siteSpacesView = (site: Parameters<typeof Model.defaultOf>[0], model: Model.Model, list: ReadonlyArray<SiteSpace>) =>
          Effect.map(Effect.forEach(list, (s) => siteSpaceView(site, model, s)), (views) => views.flatMap(Option.toArray))

        const sectionView = (site: Parameters<typeof Model.defaultOf>[0], model: Model.Model, section: SiteSection) =>
          Effect.map(siteSpacesView(site, model, Model.siteSpacesOf(model, section.id)), (siteSpaces): SectionView => ({
            site,
            section,
            default: site.defaultSectionId === section.id,
            siteSpaces
          }))

        const groupView = (site: Parameters<typeof Model.defaultOf>[0], model: Model.Model, group: SiteSectionGroup) =>
          Effect.map(Effect.forEach(Model.sectionsOf(model, group.id), (s) => sectionView(site, model, s)), (sections): SectionGroupView => ({
            site,
            group,
            sections
          }))

        const structureView = (site: Parameters<typeof Model.defaultOf>[0], model: Model.Model) =>
          model.sections.length === 0
            ? Effect.map(siteSpacesView(site, model, Model.siteSpacesOf(model, null)), (structure): SiteStructureView => ({
              type: "siteSpaces",
              structure
            }))
            : Effect.map(
              Effect.forEach(Model.topLevel(model), (item) =>
                item.type === "section"
                  ? Effect.map(sectionView(site, model, item.section), (section): StructureItem => ({ type: "section", section }))
                  : Effect.map(groupView(site, model, item.group), (group): StructureItem => ({ type: "group", group }))),
              (structure): SiteStructureView => ({ type: "sections", structure })
            )

        return { siteSpaceView, siteSpacesView, sectionView, groupView, structureView }
      })

      /** A page of views of the records `itemsOf` lists in order, for a reader of the site. */
      const listing = Effect.fnUntraced(function*<A extends { readonly id: string }, V, E>(
        organizationId: string,
        siteId: string,
        page: Pagination.PageRequest,
        itemsOf: (site: Site, model: Model.Model) => ReadonlyArray<A>,
        viewsOf: (view: Effect.Success<ReturnType<typeof viewer>>, site: Site, model: Model.Model, items: ReadonlyArray<A>) => Effect.Effect<ReadonlyArray<V>, E>
      ) {
        const { site } = yield* guard.site(organizationId, siteId)
        const after = yield* Pagination.afterOf(page, ordinalShape)
        const model = yield* Model.load(repo, siteId)
        const view = yield* viewer(organizationId)
        const listed = paginateOrdered(itemsOf(site, model), (a) => a.id, after, Pagination.limitOf(page))
        const items = yield* viewsOf(view, site, model, listed.items.map((x) => x.item))
        return { items, ...(listed.next === undefined ? {} : { next: listed.next }) }
      })

      /** Views of the site's records after a write, read again. */
      const reread = Effect.fnUntraced(function*(organizationId: string, siteId: string) {
        const site = Option.getOrThrow(yield* sites.find(siteId))
        const model = yield* Model.load(repo, siteId)
        return { site, model, view: yield* viewer(organizationId) }
      })

      /** The view of one record after a write, read again; NotFound when it is gone or not visible. */
      const viewAfter = <A extends { readonly id: string }, V, E>(
        resource: string,
        recordsOf: (model: Model.Model) => ReadonlyArray<A>,
        viewOf: (view: Effect.Success<ReturnType<typeof viewer>>, site: Site, model: Model.Model, record: A) => Effect.Effect<Option.Option<V>, E>
      ) =>
        Effect.fnUntraced(function*(organizationId: string, siteId: string, id: string) {
          const { model, site, view } = yield* reread(organizationId, siteId)
          const record = recordsOf(model).find((r) => r.id === id)
          const found = record === undefined ? Option.none<V>() : yield* viewOf(view, site, model, record)
          if (Option.isNone(found)) return yield* new Errors.NotFound({ resource, id })
          return found.value
        })

      const sectionAfter = viewAfter("SiteSection", (model) => model.sections, (view, site, model, section) =>
        Effect.map(view.sectionView(site, model, section), Option.some))
      const groupAfter = viewAfter("SiteSectionGroup", (model) => model.groups, (view, site, model, group) =>
        Effect.map(view.groupView(site, model, group), Option.some))
      const siteSpaceAfter = viewAfter("SiteSpace", (model) => model.siteSpaces, (view, site, model, siteSpace) =>
        view.siteSpaceView(site, model, siteSpace))

      /** Writes new positions of sections and groups of the top level. */
      const writeTopLevel = (items: ReadonlyArray<Positions.Positioned & { readonly type: "section" | "group" }>, changes: ReadonlyArray<Positions.Positioned>, at: Date) =>
        Effect.forEach(changes, (change) => {
          const item = items.find((i) => i.id === change.id)
          return item?.type === "group"
            ? repo.updateGroup(change.id, { position: change.position, updatedAt: at })
            : repo.updateSection(change.id, { position: change.position, updatedAt: at })
        }, { discard: true })

      /** Places an item at `index` among its top-level siblings, moving them when needed; its new position. */
      const placeTopLevel = (siblings: ReadonlyArray<Positions.Positioned & { readonly type: "section" | "group" }>, index: number, at: Date) => {
        const placement = Positions.placeAt(siblings, index)
        return Effect.as(writeTopLevel(siblings, placement.renumbered, at), placement.position)
      }

      // Site spaces -----------------------------------------------------------------------------

      /** Inserts a site space at the end of its parent; the first of a parent becomes its default. */
      const insertSiteSpace = Effect.fnUntraced(function*(
        site: Parameters<typeof Model.defaultOf>[0],
        model: Model.Model,
        space: Space,
        sectionId: string | null,
        at: Date
      ) {
        const siblings = Model.siteSpacesOf(model, sectionId)
        const siteSpace: SiteSpace = {
          id: yield* ids.make,
          siteId: site.id,
          sectionId,
          spaceId: space.id,
          path: uniquePath(slugify(space.title), new Set(siblings.map((s) => s.path))),
          condition: null,
          position: Positions.endAfter(siblings),
          createdAt: at,
          updatedAt: at
        }
        yield* repo.insertSiteSpace(siteSpace)
        if (Model.defaultOf(site, model, sectionId) === null) {
          if (sectionId === null) yield* sites.update(site.id, { defaultSiteSpaceId: siteSpace.id, updatedAt: at }).pipe(Effect.orDie)
          else yield* repo.updateSection(sectionId, { defaultSiteSpaceId: siteSpace.id, updatedAt: at })
        }
        return siteSpace
      })

      const listSiteSpaces = Effect.fn("SiteStructure.listSiteSpaces")(function*(
        organizationId: string,
        siteId: string,
        filter: { readonly default?: boolean | undefined },
        page: Pagination.PageRequest
      ) {
        return yield* listing(organizationId, siteId, page, (site, model) =>
          [null, ...Model.readingOrder(model).map((s) => s.id)].flatMap((sectionId) =>
            Model.siteSpacesOf(model, sectionId).filter((s) =>
              filter.default === undefined || (Model.defaultOf(site, model, sectionId) === s.id) === filter.default
            )
          ), (view, site, model, items) => view.siteSpacesView(site, model, items))
      })

      const addSiteSpace = Effect.fn("SiteStructure.addSiteSpace")(function*(organizationId: string, siteId: string, input: AddSiteSpaceInput) {
        const { site, model } = yield* forWrite(organizationId, siteId, "add spaces to this site")
        const space = yield* spaceIn(organizationId, input.spaceId, "spaceId")
        let sectionId: string | null
        if (input.sectionId === undefined) {
          sectionId = model.sections.length === 0 ? null : site.defaultSectionId ?? Model.readingOrder(model)[0]!.id
        } else {
          if (!model.sections.some((s) => s.id === input.sectionId)) {
            return yield* new Errors.InvalidInput({ field: "sectionId", reason: `${JSON.stringify(input.sectionId)} is not a section of this site` })
          }
          sectionId = input.sectionId
        }
        if (Model.siteSpacesOf(model, sectionId).some((s) => s.spaceId === space.id)) {
          return yield* new Errors.InvalidInput({ field: "spaceId", reason: `the space is already in this ${sectionId === null ? "site" : "section"}` })
        }
        const siteSpace = yield* insertSiteSpace(site, model, space, sectionId, yield* now)
        return yield* siteSpaceAfter(organizationId, siteId, siteSpace.id)
      }, transactor.transaction, changed)

      const updateSiteSpace = Effect.fn("SiteStructure.updateSiteSpace")(function*(
        organizationId: string,
        siteId: string,
        siteSpaceId: string,
        update: SiteSpaceUpdate
      ) {
        const { model, record: siteSpace } = yield* forChange(organizationId, siteId, siteSpaceIn, siteSpaceId)
        yield* checkUniquePath(update.path, Model.siteSpacesOf(model, siteSpace.sectionId).filter((s) => s.id !== siteSpaceId), "site space here")
        if (update.condition != null) yield* checkCondition("condition", update.condition)
        if (update.spaceId !== undefined) yield* spaceIn(organizationId, update.spaceId, "spaceId")
        yield* repo.updateSiteSpace(siteSpaceId, { ...given(update, ["path", "condition", "spaceId"]), updatedAt: yield* now })
        return yield* siteSpaceAfter(organizationId, siteId, siteSpaceId)
      }, transactor.transaction, changed)

      const removeSiteSpace = Effect.fn("SiteStructure.removeSiteSpace")(function*(organizationId: string, siteId: string, siteSpaceId: string) {
        yield* removal(organizationId, siteId, Effect.fnUntraced(function*({ site, model }) {
          const siteSpace = model.siteSpaces.find((s) => s.id === siteSpaceId)
          if (siteSpace === undefined) return
          yield* Model.removeSiteSpace(site, model, siteSpace, yield* now).pipe(
            Effect.provideService(SiteStructureRepo, repo),
            Effect.provideService(SitesRepo, sites)
          )
        }))
      }, transactor.transaction, changed)

      const moveSiteSpace = Effect.fn("SiteStructure.moveSiteSpace")(function*(
        organizationId: string,
        siteId: string,
        siteSpaceId: string,
        position: SiteSpacePosition
      ) {
        const { model, record: siteSpace } = yield* forChange(organizationId, siteId, siteSpaceIn, siteSpaceId)
        const siblings = Model.siteSpacesOf(model, siteSpace.sectionId).filter((s) => s.id !== siteSpaceId)
        const index = yield* Positions.indexFor(siteSpaceId, siblings, {
          before: position.before?.siteSpace,
          after: position.after?.siteSpace
        }, "site space")
        const placement = Positions.placeAt(siblings, index)
        const at = yield* now
        yield* Effect.forEach(placement.renumbered, (r) => repo.updateSiteSpace(r.id, { position: r.position, updatedAt: at }), { discard: true })
        yield* repo.updateSiteSpace(siteSpaceId, { position: placement.position, updatedAt: at })
        return yield* siteSpaceAfter(organizationId, siteId, siteSpaceId)
      }, transactor.transaction, changed)

      // Sections --------------------------------------------------------------------------------

      const listSections = Effect.fn("SiteStructure.listSections")(function*(organizationId: string, siteId: string, page: Pagination.PageRequest) {
        return yield* listing(organizationId, siteId, page, (_, model) => Model.readingOrder(model), (view, site, model, items) =>
          Effect.forEach(items, (section) => view.sectionView(site, model, section)))
      })

      const addSection = Effect.fn("SiteStructure.addSection")(function*(organizationId: string, siteId: string, input: AddSectionInput) {
        const { site, model } = yield* forWrite(organizationId, siteId, "add sections to this site")
        const space = yield* spaceIn(organizationId, input.spaceId, "spaceId")
        if (input.title != null) yield* SiteGuard.checkLength("title", input.title, 2, 128)
        yield* checkIcon("icon", input.icon)
        const at = yield* now
        let current = { site, model }
        const rootSpaces = Model.siteSpacesOf(model, null)
        if (model.sections.length === 0 && rootSpaces.length > 0) {
          // The site's content so far becomes its first (default) section.
          const defaultRoot = rootSpaces.find((s) => s.id === site.defaultSiteSpaceId) ?? rootSpaces[0]!
          const firstSpace = yield* spaces.find(defaultRoot.spaceId)
          const title = sectionTitleOf(Option.match(firstSpace, { onNone: () => site.title, onSome: (s) => s.title }))
          const first: SiteSection = {
            id: yield* ids.make,
            siteId,
            title,
            description: null,
            path: slugify(title),
            condition: null,
            icon: null,
            groupId: null,
            position: Positions.gap,
            defaultSiteSpaceId: defaultRoot.id,
            createdAt: at,
            updatedAt: at
          }
          yield* repo.insertSection(first)
          yield* Effect.forEach(rootSpaces, (s) => repo.updateSiteSpace(s.id, { sectionId: first.id, updatedAt: at }), { discard: true })
          yield* sites.update(siteId, { defaultSectionId: first.id, defaultSiteSpaceId: null, updatedAt: at }).pipe(Effect.orDie)
          current = { site: Option.getOrThrow(yield* sites.find(siteId)), model: yield* Model.load(repo, siteId) }
        }
        const title = input.title ?? sectionTitleOf(space.title)
        const section: SiteSection = {
          id: yield* ids.make,
          siteId,
          title,
          description: null,
          path: uniquePath(slugify(title), new Set(current.model.sections.map((s) => s.path))),
          condition: null,
          icon: input.icon ?? null,
          groupId: null,
          position: Positions.endAfter(Model.topLevel(current.model)),
          defaultSiteSpaceId: null,
          createdAt: at,
          updatedAt: at
        }
        yield* repo.insertSection(section)
        if (current.site.defaultSectionId === null) {
          yield* sites.update(siteId, { defaultSectionId: section.id, updatedAt: at }).pipe(Effect.orDie)
        }
        const withSection = { site: Option.getOrThrow(yield* sites.find(siteId)), model: yield* Model.load(repo, siteId) }
        yield* insertSiteSpace(withSection.site, withSection.model, space, section.id, at)
        return yield* sectionAfter(organizationId, siteId, section.id)
      }, transactor.transaction, changed)

      const updateSection = Effect.fn("SiteStructure.updateSection")(function*(
        organizationId: string,
        siteId: string,
        sectionId: string,
        update: SectionUpdate
      ) {
        const { model } = yield* forChange(organizationId, siteId, sectionIn, sectionId)
        if (update.title !== undefined) yield* SiteGuard.checkLength("title", update.title, 2, 128)
        yield* checkUniquePath(update.path, model.sections.filter((s) => s.id !== sectionId), "section")
        if (update.defaultSiteSpace !== undefined && !Model.siteSpacesOf(model, sectionId).some((s) => s.id === update.defaultSiteSpace)) {
          return yield* new Errors.InvalidInput({
            field: "defaultSiteSpace",
            reason: `${JSON.stringify(update.defaultSiteSpace)} is not a site space of this section`
          })
        }
        if (update.condition != null) yield* checkCondition("condition", update.condition)
        yield* checkIcon("icon", update.icon)
        if (update.description != null) yield* SiteGuard.checkLength("description", update.description, 0, 256)
        yield* repo.updateSection(sectionId, {
          ...given(update, ["title", "path", "condition", "icon", "description"]),
          ...(update.defaultSiteSpace === undefined ? {} : { defaultSiteSpaceId: update.defaultSiteSpace }),
          updatedAt: yield* now
        })
        return yield* sectionAfter(organizationId, siteId, sectionId)
      }, transactor.transaction, changed)

      const removeSection = Effect.fn("SiteStructure.removeSection")(function*(organizationId: string, siteId: string, sectionId: string) {
        yield* removal(organizationId, siteId, Effect.fnUntraced(function*({ site, model }) {
          const section = model.sections.find((s) => s.id === sectionId)
          if (section === undefined) return
          const at = yield* now
          yield* Effect.forEach(Model.siteSpacesOf(model, sectionId), (s) => repo.removeSiteSpace(s.id), { discard: true })
          yield* repo.removeSection(sectionId)
          if (site.defaultSectionId === sectionId) {
            yield* sites.update(siteId, { defaultSectionId: Model.successor(Model.readingOrder(model), sectionId), updatedAt: at }).pipe(Effect.orDie)
          }
        }))
      }, transactor.transaction, changed)

      const moveSection = Effect.fn("SiteStructure.moveSection")(function*(
        organizationId: string,
        siteId: string,
        sectionId: string,
        position: SectionPosition
      ) {
        const { model } = yield* forChange(organizationId, siteId, sectionIn, sectionId)
        const targetId = position.before?.siteSection ?? position.after?.siteSection
        const target = model.sections.find((s) => s.id === targetId)
        // The mover joins the container of the section it is placed beside.
        const groupId = target?.groupId != null && model.groups.some((g) => g.id === target.groupId) ? target.groupId : null
        const siblings = groupId === null
          ? Model.topLevel(model).filter((i) => i.id !== sectionId)
          : Model.sectionsOf(model, groupId).filter((s) => s.id !== sectionId).map((s) => ({ ...s, type: "section" as const }))
        const index = yield* Positions.indexFor(sectionId, siblings, {
          before: position.before?.siteSection,
          after: position.after?.siteSection
        }, "section")
        const at = yield* now
        yield* repo.updateSection(sectionId, { position: yield* placeTopLevel(siblings, index, at), groupId, updatedAt: at })
        return yield* sectionAfter(organizationId, siteId, sectionId)
      }, transactor.transaction, changed)

      // Section groups --------------------------------------------------------------------------

      const listSectionGroups = Effect.fn("SiteStructure.listSectionGroups")(function*(
        organizationId: string,
        siteId: string,
        page: Pagination.PageRequest
      ) {
        return yield* listing(organizationId, siteId, page, (_, model) => Model.topLevel(model).flatMap((i) => (i.type === "group" ? [i.group] : [])), (view, site, model, items) =>
          Effect.forEach(items, (group) => view.groupView(site, model, group)))
      })

      /** Moves sections to the end of a group, in the given order. */
      const intoGroup = Effect.fnUntraced(function*(model: Model.Model, groupId: string, sectionIds: ReadonlyArray<string>, field: (i: number) => string, at: Date) {
        let end = Positions.endAfter(Model.sectionsOf(model, groupId).filter((s) => !sectionIds.includes(s.id)))
        for (const [i, sectionId] of sectionIds.entries()) {
          if (!model.sections.some((s) => s.id === sectionId)) {
            return yield* new Errors.InvalidInput({ field: field(i), reason: `${JSON.stringify(sectionId)} is not a section of this site` })
          }
          if (sectionIds.indexOf(sectionId) !== i) {
            return yield* new Errors.InvalidInput({ field: field(i), reason: "is listed twice" })
          }
          yield* repo.updateSection(sectionId, { groupId, position: end, updatedAt: at })
          end += Positions.gap
        }
      })

      const addSectionGroup = Effect.fn("SiteStructure.addSectionGroup")(function*(
        organizationId: string,
        siteId: string,
        input: AddSectionGroupInput
      ) {
        const { model } = yield* forWrite(organizationId, siteId, "change this site")
        yield* SiteGuard.checkLength("title", input.title, 1, 100)
        yield* checkIcon("icon", input.icon)
        const at = yield* now
        const group: SiteSectionGroup = {
          id: yield* ids.make,
          siteId,
          title: input.title,
          icon: input.icon ?? null,
          position: Positions.endAfter(Model.topLevel(model)),
          createdAt: at,
          updatedAt: at
        }
        yield* repo.insertGroup(group)
        yield* intoGroup(model, group.id, input.sections ?? [], (i) => `sections[${i}]`, at)
        return yield* groupAfter(organizationId, siteId, group.id)
      }, transactor.transaction, changed)

      const updateSectionGroup = Effect.fn("SiteStructure.updateSectionGroup")(function*(
        organizationId: string,
        siteId: string,
        groupId: string,
        update: SectionGroupUpdate
      ) {
        yield* forChange(organizationId, siteId, groupIn, groupId)
        if (update.title !== undefined) yield* SiteGuard.checkLength("title", update.title, 1, 100)
        yield* checkIcon("icon", update.icon)
        yield* repo.updateGroup(groupId, { ...given(update, ["title", "icon"]), updatedAt: yield* now })
        return yield* groupAfter(organizationId, siteId, groupId)
      }, transactor.transaction, changed)

      const removeSectionGroup = Effect.fn("SiteStructure.removeSectionGroup")(function*(organizationId: string, siteId: string, groupId: string) {
        yield* removal(organizationId, siteId, Effect.fnUntraced(function*({ model }) {
          if (!model.groups.some((g) => g.id === groupId)) return
          const at = yield* now
          // Its sections take the group's place at the top level, in their order.
          type Top = Positions.Positioned & { readonly type: "section" | "group" }
          const order = Model.topLevel(model).flatMap((item): ReadonlyArray<Top> =>
            item.type === "section"
              ? [{ id: item.id, position: item.position, type: "section" as const }]
              : item.id === groupId
              ? Model.sectionsOf(model, groupId).map((s) => ({ id: s.id, position: Number.NaN, type: "section" as const }))
              : [{ id: item.id, position: item.position, type: "group" as const }]
          )
          yield* Effect.forEach(Model.sectionsOf(model, groupId), (s) => repo.updateSection(s.id, { groupId: null, updatedAt: at }), { discard: true })
          yield* writeTopLevel(order, Positions.renumber(order), at)
          yield* repo.removeGroup(groupId)
        }))
      }, transactor.transaction, changed)

      const addSectionToGroup = Effect.fn("SiteStructure.addSectionToGroup")(function*(
        organizationId: string,
        siteId: string,
        groupId: string,
        sectionId: string
      ) {
        const { model } = yield* forChange(organizationId, siteId, groupIn, groupId)
        const section = model.sections.find((s) => s.id === sectionId)
        if (section?.groupId !== groupId) yield* intoGroup(model, groupId, [sectionId], () => "sectionId", yield* now)
        return yield* groupAfter(organizationId, siteId, groupId)
      }, transactor.transaction, changed)

      const removeSectionFromGroup = Effect.fn("SiteStructure.removeSectionFromGroup")(function*(
        organizationId: string,
        siteId: string,
        groupId: string,
        sectionId: string
      ) {
        const { model } = yield* forChange(organizationId, siteId, groupIn, groupId)
        const section = model.sections.find((s) => s.id === sectionId)
        if (section === undefined || section.groupId !== groupId) return
        // Out of the group, just after it.
        const top = Model.topLevel(model)
        const at = yield* now
        yield* repo.updateSection(sectionId, { groupId: null, position: yield* placeTopLevel(top, top.findIndex((i) => i.id === groupId) + 1, at), updatedAt: at })
      }, transactor.transaction, changed)

      const moveSectionGroup = Effect.fn("SiteStructure.moveSectionGroup")(function*(
        organizationId: string,
        siteId: string,
        groupId: string,
        position: SectionGroupPosition
      ) {
        const { model } = yield* forChange(organizationId, siteId, groupIn, groupId)
        const siblings = Model.topLevel(model).filter((i) => i.id !== groupId)
        const index = yield* Positions.indexFor(groupId, siblings, { before: position.before?.id, after: position.after?.id }, "top-level section or group")
        const at = yield* now
        yield* repo.updateGroup(groupId, { position: yield* placeTopLevel(siblings, index, at), updatedAt: at })
        return yield* groupAfter(organizationId, siteId, groupId)
      }, transactor.transaction, changed)

      const structure = Effect.fn("SiteStructure.structure")(function*(organizationId: string, siteId: string) {
        const { site } = yield* guard.site(organizationId, siteId)
        const model = yield* Model.load(repo, siteId)
        const view = yield* viewer(organizationId)
        return yield* view.structureView(site, model)
      })

      return SiteStructure.of({
        listSections,
        addSection,
        updateSection,
        removeSection,
        moveSection,
        listSectionGroups,
        addSectionGroup,
        updateSectionGroup,
        removeSectionGroup,
        addSectionToGroup,
        removeSectionFromGroup,
        moveSectionGroup,
        listSiteSpaces,
        addSiteSpace,
        updateSiteSpace,
        removeSiteSpace,
        moveSiteSpace,
        structure
      })
    })
  )
}
