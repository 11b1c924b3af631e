/** The use case that changes a space's settings, with the checks of its merge rules. */
import { Effect } from "effect"
import { Errors, MergeRules as MergeRules_ } from "@quire/kernel"
import * as Access from "../Access.ts"
import type { SpaceUpdate } from "./SpaceTypes.ts"
import type { SpacePatch } from "../SpacesRepo.ts"
import type { SpaceEdit } from "./SpaceEdit.ts"

/** Merge rules Quire can enforce (kernel's MergeRules.refusal); a 400 names the rule that is not. */
const checkMergeRules = (rules: MergeRules_.SpaceConfiguration): Effect.Effect<void, Errors.InvalidInput> => {
  const refused = MergeRules_.refusal(rules)
  return refused === undefined ? Effect.void : Effect.fail(new Errors.InvalidInput(refused))
}

export const spaceSettings = (edit: SpaceEdit) => {
  const { access, now, updated } = edit

  const update = Effect.fn("Spaces.update")(function*(spaceId: string, input: SpaceUpdate) {
    const { space, permissions } = yield* access.space(spaceId)
    yield* Access.ensure(permissions.admin, "change this space's settings")
    if (input.visibility === "in-collection" && space.parentId === null) {
      return yield* new Errors.InvalidInput({
        field: "visibility",
        reason: "in-collection is only for spaces in a collection"
      })
    }
    if (input.mergeRules !== undefined) yield* checkMergeRules(input.mergeRules)
    const patch: SpacePatch = {
      ...(input.title === undefined ? {} : { title: input.title }),
      ...(input.emoji === undefined ? {} : { emoji: input.emoji ?? "" }),
      ...(input.editMode === undefined ? {} : { editMode: input.editMode }),
      ...(input.defaultLevel === undefined ? {} : { defaultLevel: input.defaultLevel }),
      ...(input.language === undefined ? {} : { language: input.language }),
      ...(input.visibility === undefined ? {} : { visibility: input.visibility }),
      ...(input.mergeRules === undefined ? {} : { mergeRules: input.mergeRules }),
      updatedAt: yield* now
    }
    return yield* updated(spaceId, patch)
  })

  return { update }
}
