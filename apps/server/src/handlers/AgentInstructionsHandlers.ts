/** Handlers of the organization agent instructions group. */
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "@quire/api"
import { AgentInstructions, type AgentInstructionsView } from "@quire/identity"
import { AgentDocuments } from "@quire/sites"
import * as DomainErrors from "../DomainErrors.ts"

/** GitBook's `OrganizationAgentInstructions`. */
const present = (organizationId: string, view: AgentInstructionsView) => ({
  object: "agent-instructions" as const,
  instructions: view.instructions as { readonly object: "document"; readonly data: Record<string, unknown>; readonly nodes: ReadonlyArray<Record<string, unknown>> },
  updatedAt: view.updatedAt.toISOString(),
  updatedBy: view.updatedBy,
  urls: { location: `/orgs/${organizationId}/agent-instructions` }
})

export const layer = HttpApiBuilder.group(Api, "agentInstructions", Effect.fn(function*(handlers) {
  const instructions = yield* AgentInstructions
  return handlers
    .handle("getOrganizationAgentInstructions", ({ params }) =>
      instructions.get(params.organizationId).pipe(DomainErrors.api, Effect.map((view) => present(params.organizationId, view))))
    .handle("updateOrganizationAgentInstructions", ({ params, payload }) =>
      Effect.gen(function*() {
        // The same check and bounds as a site's custom instructions: one rule for what agents are told.
        const document = yield* AgentDocuments.check(payload.instructions, "instructions")
        return present(params.organizationId, yield* instructions.update(params.organizationId, document))
      }).pipe(DomainErrors.api))
}))
