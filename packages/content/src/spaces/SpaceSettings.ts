/** The use case that changes a space's settings, with the checks of its merge rules. */
import { Effect } from "effect"
import { Errors } from "@quire/kernel"
import * as Access from "../Access.ts"
import type { MergeRules } from "../domain/Space.ts"
import type { SpaceUpdate } from "./SpaceTypes.ts"
import type { SpacePatch } from "../SpacesRepo.ts"
import type { SpaceEdit } from "./SpaceEdit.ts"

/** GitBook's merge rules that Quire cannot evaluate: there are no agents, and change requests have no description. */
const unsupportedMergeRules: Readonly<Record<string, string>> = {
  require_agent_review: "Quire has no review agents",
  require_change_request_description: "Quire's change requests have no description"
}

/** Merge rules Quire can enforce, each rule once; a 400 names the rule that is not. */
const checkMergeRules = (rules: MergeRules): Effect.Effect<void, Errors.InvalidInput> => {
  if (rules.type !== "rules") return Effect.void
  const seen = new Set<string>()
  for (const [index, rule] of rules.rules.entries()) {
    const field = `mergeRules.rules[${index}]`
    const unsupported = unsupportedMergeRules[rule.rule]
    if (unsupported !== undefined) {
      return Effect.fail(new Errors.InvalidInput({ field, reason: `${rule.rule} is not supported: ${unsupported}` }))
    }
    if (seen.has(rule.rule)) return Effect.fail(new Errors.InvalidInput({ field, reason: `${rule.rule} is given twice` }))
    seen.add(rule.rule)
    if ("users" in rule && rule.rule !== "allow_bypass" && rule.users.length === 0) {
      return Effect.fail(new Errors.InvalidInput({ field: `${field}.users`, reason: `${rule.rule} needs at least one user` }))
    }
  }
  return Effect.void
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
