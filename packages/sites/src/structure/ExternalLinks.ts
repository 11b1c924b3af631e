/**
 * Use cases on a site's external links (tabs that open a URL, at the top level or in a section
 * group) and on the order of every item of the structure (`sortSiteStructure`).
 */
import { Effect, Option } from "effect"
import { Errors } from "@quire/kernel"
import * as Positions from "../Positions.ts"
import * as SiteGuard from "../SiteGuard.ts"
import * as Model from "../StructureModel.ts"
import type { SiteExternalLink } from "../domain/StructureExtras.ts"
import { checkCondition, checkIcon, given } from "./Checks.ts"
import type { StructureEdit } from "./StructureEdit.ts"

export interface AddExternalLinkInput {
  readonly title: string
  readonly url: string
  readonly description?: string | null | undefined
  readonly icon?: string | null | undefined
  /** The section group to put it in; absent: the top level. */
  readonly parent?: string | undefined
  readonly draft?: boolean | undefined
  readonly condition?: string | null | undefined
}

export interface ExternalLinkUpdate {
  readonly title?: string | undefined
  readonly url?: string | undefined
  readonly description?: string | null | undefined
  readonly icon?: string | null | undefined
  /** null: to the top level. */
  readonly parent?: string | null | undefined
  readonly draft?: boolean | undefined
  readonly condition?: string | null | undefined
}

export type StructurePointer = { readonly type: "site-space" | "site-section" | "site-section-group" | "site-external-link"; readonly id: string }

/** What a sort answers: the moved item, read again. */
export type SortedItem =
  | { readonly type: "site-space"; readonly view: Effect.Success<ReturnType<StructureEdit["siteSpaceAfter"]>> }
  | { readonly type: "site-section"; readonly view: Effect.Success<ReturnType<StructureEdit["sectionAfter"]>> }
  | { readonly type: "site-section-group"; readonly view: Effect.Success<ReturnType<StructureEdit["groupAfter"]>> }
  | { readonly type: "site-external-link"; readonly view: SiteExternalLink }

/** Why `url` cannot be an external link's destination, or undefined. */
export const linkUrlProblem = (url: string): string | undefined => {
  if (url.length > 2048) return "must be at most 2048 characters"
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return "must be an absolute URL"
  }
  return parsed.protocol === "https:" || parsed.protocol === "http:" ? undefined : "must be an http or https URL"
}

const linkIn = (model: Model.Model, linkId: string) => {
  const link = model.externalLinks.find((l) => l.id === linkId)
  return link === undefined ? Effect.fail(new Errors.NotFound({ resource: "SiteExternalLink", id: linkId })) : Effect.succeed(link)
}

const checkFields = Effect.fnUntraced(function*(input: ExternalLinkUpdate) {
  if (input.title !== undefined) yield* SiteGuard.checkLength("title", input.title, 2, 128)
  if (input.url !== undefined) {
    const problem = linkUrlProblem(input.url)
    if (problem !== undefined) return yield* new Errors.InvalidInput({ field: "url", reason: problem })
  }
  if (input.description != null) yield* SiteGuard.checkLength("description", input.description, 0, 256)
  yield* checkIcon("icon", input.icon)
  if (input.condition != null && input.condition !== "") yield* checkCondition("condition", input.condition)
})

const parentIn = (model: Model.Model, parent: string | null | undefined) =>
  parent == null || model.groups.some((g) => g.id === parent)
    ? Effect.void
    : Effect.fail(new Errors.InvalidInput({ field: "parent", reason: `${JSON.stringify(parent)} is not a section group of this site` }))

export const externalLinks = (edit: StructureEdit) => {
  const { repo, ids, transactor, changed, now, forWrite, forChange, removal, sectionAfter, groupAfter, siteSpaceAfter } = edit

  const addExternalLink = Effect.fn("SiteStructure.addExternalLink")(function*(organizationId: string, siteId: string, input: AddExternalLinkInput) {
    const { model } = yield* forWrite(organizationId, siteId, "add external links to this site")
    if (model.sections.length === 0) {
      return yield* new Errors.InvalidInput({ field: "parent", reason: "this site has no sections: external links stand among its sections" })
    }
    yield* checkFields(input)
    yield* parentIn(model, input.parent)
    const at = yield* now
    const groupId = input.parent ?? null
    const link: SiteExternalLink = {
      id: yield* ids.make,
      siteId,
      title: input.title,
      description: input.description ?? null,
      icon: input.icon ?? null,
      url: input.url,
      groupId,
      draft: input.draft ?? false,
      condition: input.condition == null || input.condition === "" ? null : input.condition,
      position: Positions.endAfter(Model.levelOf(model, groupId)),
      createdAt: at,
      updatedAt: at
    }
    yield* repo.insertExternalLink(link)
    return link
  }, transactor.transaction, changed)

  const updateExternalLink = Effect.fn("SiteStructure.updateExternalLink")(function*(organizationId: string, siteId: string, linkId: string, update: ExternalLinkUpdate) {
    const { model, record } = yield* forChange(organizationId, siteId, linkIn, linkId)
    yield* checkFields(update)
    yield* parentIn(model, update.parent)
    const moved = update.parent !== undefined && update.parent !== record.groupId
    const updated = yield* repo.updateExternalLink(linkId, {
      ...given(update, ["title", "url", "description", "icon", "draft"]),
      ...(update.condition === undefined ? {} : { condition: update.condition === "" ? null : update.condition }),
      ...(moved ? { groupId: update.parent ?? null, position: Positions.endAfter(Model.levelOf(model, update.parent ?? null)) } : {}),
      updatedAt: yield* now
    })
    return Option.getOrThrow(updated)
  }, transactor.transaction, changed)

  /** Whether the link was there. */
  const removeExternalLink = Effect.fn("SiteStructure.removeExternalLink")(function*(organizationId: string, siteId: string, linkId: string) {
    let existed = false
    yield* removal(organizationId, siteId, ({ model }) =>
      Effect.suspend(() => {
        if (!model.externalLinks.some((l) => l.id === linkId)) return Effect.void
        existed = true
        return repo.removeExternalLink(linkId)
      }))
    return existed
  }, transactor.transaction, changed)

  /** Writes a position (and the level's group) to whichever record an item is. */
  const writePosition = (item: Model.LevelItem | { readonly type: "space"; readonly id: string }, position: number, groupId: string | null, at: Date) => {
    switch (item.type) {
      case "section":
        return Effect.asVoid(repo.updateSection(item.id, { position, groupId, updatedAt: at }))
      case "group":
        return Effect.asVoid(repo.updateGroup(item.id, { position, updatedAt: at }))
      case "link":
        return Effect.asVoid(repo.updateExternalLink(item.id, { position, groupId, updatedAt: at }))
      case "space":
        return Effect.asVoid(repo.updateSiteSpace(item.id, { position, updatedAt: at }))
    }
  }

  /** Places `mover` at `index` among `siblings` of the level of `groupId`, renumbering them when needed. */
  const place = Effect.fnUntraced(function*(
    mover: Model.LevelItem | { readonly type: "space"; readonly id: string },
    siblings: ReadonlyArray<(Model.LevelItem | { readonly type: "space"; readonly id: string; readonly position: number })>,
    index: number,
    groupId: string | null
  ) {
    const at = yield* now
    const placement = Positions.placeAt(siblings, index)
    yield* Effect.forEach(placement.renumbered, (change) => {
      const sibling = siblings.find((s) => s.id === change.id)!
      return writePosition(sibling, change.position, groupId, at)
    }, { discard: true })
    yield* writePosition(mover, placement.position, groupId, at)
  })

  const sortSiteStructure = Effect.fn("SiteStructure.sortSiteStructure")(function*(
    organizationId: string,
    siteId: string,
    item: StructurePointer,
    position: { readonly before?: StructurePointer | undefined; readonly after?: StructurePointer | undefined }
  ) {
    const { model } = yield* forWrite(organizationId, siteId, "change this site")
    const target = position.before ?? position.after
    const ids = { before: position.before?.id, after: position.after?.id }
    if (item.type === "site-space") {
      const siteSpace = model.siteSpaces.find((s) => s.id === item.id)
      if (siteSpace === undefined) return yield* new Errors.NotFound({ resource: "SiteSpace", id: item.id })
      const siblings = Model.siteSpacesOf(model, siteSpace.sectionId).filter((s) => s.id !== item.id).map((s) => ({ type: "space" as const, id: s.id, position: s.position }))
      if (target !== undefined && target.type !== "site-space") {
        return yield* new Errors.InvalidInput({ field: position.before === undefined ? "position.after" : "position.before", reason: "a site space moves among the site spaces of its section" })
      }
      const index = yield* Positions.indexFor(item.id, siblings, ids, "site space")
      yield* place({ type: "space", id: item.id }, siblings, index, siteSpace.sectionId)
      return { type: "site-space", view: yield* siteSpaceAfter(organizationId, siteId, item.id) } satisfies SortedItem
    }
    const kind = item.type === "site-section" ? "section" : item.type === "site-section-group" ? "group" : "link"
    const all = [...Model.levelOf(model, null), ...model.groups.flatMap((g) => Model.levelOf(model, g.id))]
    const mover = all.find((i) => i.id === item.id && i.type === kind)
    if (mover === undefined) {
      return yield* new Errors.NotFound({ resource: item.type === "site-section" ? "SiteSection" : item.type === "site-section-group" ? "SiteSectionGroup" : "SiteExternalLink", id: item.id })
    }
    // The mover joins the level of the item it is placed beside (groups stay at the top level).
    const targetGroup = target === undefined ? null : yield* Effect.suspend(() => {
      const found = model.sections.find((s) => s.id === target.id)?.groupId ?? model.externalLinks.find((l) => l.id === target.id)?.groupId ?? null
      return Effect.succeed(found !== null && model.groups.some((g) => g.id === found) ? found : null)
    })
    if (kind === "group" && targetGroup !== null) {
      return yield* new Errors.InvalidInput({ field: position.before === undefined ? "position.after" : "position.before", reason: "a section group stays at the site's top level" })
    }
    const siblings = Model.levelOf(model, targetGroup).filter((i) => i.id !== item.id)
    const index = yield* Positions.indexFor(item.id, siblings, ids, "site structure item")
    yield* place(mover, siblings, index, targetGroup)
    switch (kind) {
      case "section":
        return { type: "site-section", view: yield* sectionAfter(organizationId, siteId, item.id) } satisfies SortedItem
      case "group":
        return { type: "site-section-group", view: yield* groupAfter(organizationId, siteId, item.id) } satisfies SortedItem
      case "link":
        return { type: "site-external-link", view: Option.getOrThrow(Option.fromNullishOr((yield* Model.load(repo, siteId)).externalLinks.find((l) => l.id === item.id))) } satisfies SortedItem
    }
  }, transactor.transaction, changed)

  return { addExternalLink, updateExternalLink, removeExternalLink, sortSiteStructure }
}
