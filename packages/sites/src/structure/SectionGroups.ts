/** Use cases on a site's section groups: groups of sections at the top level of its tabs. */
import { Effect } from "effect"
import { Errors, Pagination } from "@quire/kernel"
import * as Positions from "../Positions.ts"
import * as SiteGuard from "../SiteGuard.ts"
import * as Model from "../StructureModel.ts"
import { type SectionGroupPosition, type SiteSectionGroup } from "../domain/Structure.ts"
import type { AddSectionGroupInput, SectionGroupUpdate } from "./StructureTypes.ts"
import { checkIcon, given } from "./Checks.ts"
import { groupIn, type StructureEdit } from "./StructureEdit.ts"

export const sectionGroups = (edit: StructureEdit) => {
  const { repo, ids, transactor, changed, now, forWrite, forChange, removal, listing, groupAfter, writeTopLevel, placeTopLevel } = edit

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
      position: Positions.endAfter(Model.levelOf(model, null)),
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
      // Its sections and external links take the group's place at the top level, in their order.
      type Top = Positions.Positioned & { readonly type: "section" | "group" | "link" }
      const order = Model.levelOf(model, null).flatMap((item): ReadonlyArray<Top> =>
        item.type === "group" && item.id === groupId
          ? Model.levelOf(model, groupId).map((child) => ({ id: child.id, position: Number.NaN, type: child.type === "link" ? "link" as const : "section" as const }))
          : [{ id: item.id, position: item.position, type: item.type }]
      )
      yield* Effect.forEach(Model.sectionsOf(model, groupId), (s) => repo.updateSection(s.id, { groupId: null, updatedAt: at }), { discard: true })
      const changes = Positions.renumber(order)
      const links = new Set(order.filter((o) => o.type === "link").map((o) => o.id))
      yield* writeTopLevel(order.flatMap((o) => (o.type === "link" ? [] : [{ ...o, type: o.type }])), changes.filter((c) => !links.has(c.id)), at)
      yield* Effect.forEach(changes.filter((c) => links.has(c.id)), (c) => repo.updateExternalLink(c.id, { groupId: null, position: c.position, updatedAt: at }), { discard: true })
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

  return { listSectionGroups, addSectionGroup, updateSectionGroup, removeSectionGroup, addSectionToGroup, removeSectionFromGroup, moveSectionGroup }
}
