/** Use cases on a site's site spaces: the spaces it publishes, as variants of a section or at the root of a site without sections. */
import { Effect } from "effect"
import { Errors, Pagination } from "@quire/kernel"
import * as Positions from "../Positions.ts"
import { SitesRepo } from "../SitesRepo.ts"
import { SiteStructureRepo } from "../SiteStructureRepo.ts"
import * as Model from "../StructureModel.ts"
import { type SiteSpacePosition } from "../domain/Structure.ts"
import type { AddSiteSpaceInput, SiteSpaceUpdate } from "./StructureTypes.ts"
import { checkCondition, checkUniquePath, given } from "./Checks.ts"
import { siteSpaceIn, type StructureEdit } from "./StructureEdit.ts"

export const siteSpaces = (edit: StructureEdit) => {
  const { repo, sites, transactor, changed, now, spaceIn, forWrite, forChange, removal, listing, siteSpaceAfter, insertSiteSpace } = edit

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

  return { listSiteSpaces, addSiteSpace, updateSiteSpace, removeSiteSpace, moveSiteSpace }
}
