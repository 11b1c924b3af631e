/**
 * What the structure's use cases (sections, section groups, site spaces) share: the admin's locked
 * read of a site and its structure, listings and views after a write, top-level positions and the
 * insertion of a site space.
 */
import { Clock, Effect, Option } from "effect"
import { Errors, Ids, Pagination, Transactor } from "@quire/kernel"
import { ContentAccess, type Space, SpacesRepo } from "@quire/content"
import * as Positions from "../Positions.ts"
import { SiteChanges } from "../SiteChanges.ts"
import * as SiteGuard from "../SiteGuard.ts"
import { SitesRepo } from "../SitesRepo.ts"
import { SiteStructureRepo } from "../SiteStructureRepo.ts"
import * as Model from "../StructureModel.ts"
import type { Site } from "../domain/Site.ts"
import { type SiteSpace, slugify, uniquePath } from "../domain/Structure.ts"
import { viewerOf } from "./StructureViews.ts"

/** Ordinal keys of listings computed in order (structures are small; the cursor holds the place and the id). */
const ordinalShape: Pagination.KeyShape = ["number", "string"]

const paginateOrdered = <A>(items: ReadonlyArray<A>, idOf: (a: A) => string, after: Pagination.CursorKey | undefined, limit: number) =>
  Pagination.paginateArray(items.map((item, i) => ({ item, key: [i, idOf(item)] as const })), (x) => x.key, {
    order: "asc",
    after,
    limit
  })

/** A record of the structure by id, or NotFound. */
export const sectionIn = (model: Model.Model, sectionId: string) => {
  const section = model.sections.find((s) => s.id === sectionId)
  return section === undefined ? Effect.fail(new Errors.NotFound({ resource: "SiteSection", id: sectionId })) : Effect.succeed(section)
}
export const groupIn = (model: Model.Model, groupId: string) => {
  const group = model.groups.find((g) => g.id === groupId)
  return group === undefined ? Effect.fail(new Errors.NotFound({ resource: "SiteSectionGroup", id: groupId })) : Effect.succeed(group)
}
export const siteSpaceIn = (model: Model.Model, siteSpaceId: string) => {
  const siteSpace = model.siteSpaces.find((s) => s.id === siteSpaceId)
  return siteSpace === undefined ? Effect.fail(new Errors.NotFound({ resource: "SiteSpace", id: siteSpaceId })) : Effect.succeed(siteSpace)
}

/** Built once by the SiteStructure layer and handed to each group of use cases. */
export const make = Effect.gen(function*() {
  const guard = yield* SiteGuard.make
  const repo = yield* SiteStructureRepo
  const sites = yield* SitesRepo
  const spaces = yield* SpacesRepo
  const access = yield* ContentAccess
  const ids = yield* Ids.Ids
  const transactor = yield* Transactor.Transactor
  const changed = (yield* SiteChanges).after
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
    const { site } = yield* guard.editor(organizationId, siteId, what)
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
  const viewer = viewerOf(access, spaces)

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
    const listed = yield* paginateOrdered(itemsOf(site, model), (a) => a.id, after, Pagination.limitOf(page))
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

  return {
    guard, repo, sites, spaces, ids, transactor, changed, now, spaceIn, forWrite, forChange, removal, viewer, listing,
    sectionAfter, groupAfter, siteSpaceAfter, writeTopLevel, placeTopLevel, insertSiteSpace
  }
})

export type StructureEdit = Effect.Success<typeof make>
