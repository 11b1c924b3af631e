/**
 * Use cases on a site's structure: sections (tabs), section groups and site spaces (the spaces a
 * site publishes, as variants of a section or at the root of a site without sections).
 */
import { Context, Effect, Layer } from "effect"
import type { Actor, Errors, Pagination } from "@quire/kernel"
import * as Model from "./StructureModel.ts"
import type { SectionGroupPosition, SectionPosition, SiteSpacePosition } from "./domain/Structure.ts"
import { sectionGroups } from "./structure/SectionGroups.ts"
import { sections } from "./structure/Sections.ts"
import { siteSpaces } from "./structure/SiteSpaces.ts"
import * as StructureEdit from "./structure/StructureEdit.ts"
import type {
  AddSectionGroupInput,
  AddSectionInput,
  AddSiteSpaceInput,
  SectionGroupUpdate,
  SectionGroupView,
  SectionUpdate,
  SectionView,
  SiteSpaceUpdate,
  SiteSpaceView,
  SiteStructureView
} from "./structure/StructureTypes.ts"

export type * from "./structure/StructureTypes.ts"

type Denied = Errors.NotFound | Errors.Forbidden

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

export { checkCondition, checkPath } from "./structure/Checks.ts"

export class SiteStructure extends Context.Service<SiteStructure, SiteStructureShape>()("@quire/sites/SiteStructure") {
  static readonly layer = Layer.effect(
    SiteStructure,
    Effect.gen(function*() {
      const edit = yield* StructureEdit.make
      const { guard, repo, viewer } = edit

      const structure = Effect.fn("SiteStructure.structure")(function*(organizationId: string, siteId: string) {
        const { site } = yield* guard.site(organizationId, siteId)
        const model = yield* Model.load(repo, siteId)
        const view = yield* viewer(organizationId)
        return yield* view.structureView(site, model)
      })

      return SiteStructure.of({ ...sections(edit), ...sectionGroups(edit), ...siteSpaces(edit), structure })
    })
  )
}
