/** The merge rules that apply to a space: its own, or its organization's when it follows them (GitBook's `inherit`). */
import type { Organization, Space } from "@quire/api"
import { AsyncResult, Atom } from "effect/reactivity"
import { organizationAtom } from "../../api/queries.ts"
import { useAtomValue } from "../../api/react.ts"

const noOrganization: Atom.Atom<AsyncResult.AsyncResult<Organization, unknown>> = Atom.make(AsyncResult.initial<Organization, unknown>())

/**
 * The rules that apply to `space`: undefined while the space, or the organization it follows, is
 * read; `failed` when the organization could not be read.
 */
export const useEffectiveRules = (space: Space | undefined): { readonly rules: Organization["mergeRules"] | undefined; readonly failed: boolean } => {
  const inherits = space?.mergeRules.type === "inherit"
  const org = useAtomValue<AsyncResult.AsyncResult<Organization, unknown>>(space !== undefined && inherits ? organizationAtom(space.organization) : noOrganization)
  if (space === undefined) return { rules: undefined, failed: false }
  if (space.mergeRules.type !== "inherit") return { rules: space.mergeRules, failed: false }
  return { rules: AsyncResult.isSuccess(org) ? org.value.mergeRules : undefined, failed: AsyncResult.isFailure(org) }
}
