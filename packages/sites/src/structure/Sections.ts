/** Use cases on a site's sections (its tabs); a section starts with a space as its default site space. */
import { Effect, Option } from "effect"
import { Errors, Pagination } from "@quire/kernel"
import * as Positions from "../Positions.ts"
import * as SiteGuard from "../SiteGuard.ts"
import * as Model from "../StructureModel.ts"
import { type SectionPosition, type SiteSection, slugify, uniquePath } from "../domain/Structure.ts"
import type { AddSectionInput, SectionUpdate } from "./StructureTypes.ts"
import { checkCondition, checkIcon, checkUniquePath, given, sectionTitleOf } from "./Checks.ts"
import { sectionIn, type StructureEdit } from "./StructureEdit.ts"

export const sections = (edit: StructureEdit) => {
  const { repo, sites, spaces, ids, transactor, changed, now, spaceIn, forWrite, forChange, removal, listing, sectionAfter, placeTopLevel, insertSiteSpace } = edit

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
      position: Positions.endAfter(Model.levelOf(current.model, null)),
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

  return { listSections, addSection, updateSection, removeSection, moveSection }
}
