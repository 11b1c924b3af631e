/** Port: each organization's agent instructions (GitBook's `OrganizationAgentInstructions`). */
import { Context, Effect, Layer, Option } from "effect"
import type { InstructionsDocument, StoredInstructions } from "./domain/AgentInstructions.ts"
import { IdentityMemory } from "./IdentityMemory.ts"

export type { InstructionsDocument, StoredInstructions }

/**
 * An organization's instructions as read: `instructions` null when never set, and then `updatedAt`
 * the organization's creation and `updatedBy` its creator (null when not known).
 */
export interface InstructionsState {
  readonly instructions: InstructionsDocument | null
  readonly updatedAt: Date
  readonly updatedBy: string | null
}

export interface AgentInstructionsRepoShape {
  /** None when the organization does not exist. */
  readonly find: (organizationId: string) => Effect.Effect<Option.Option<InstructionsState>>
  /** Replaces the organization's instructions (nothing is kept for an organization that does not exist). */
  readonly put: (organizationId: string, stored: StoredInstructions) => Effect.Effect<void>
}

export class AgentInstructionsRepo extends Context.Service<AgentInstructionsRepo, AgentInstructionsRepoShape>()(
  "@quire/identity/AgentInstructionsRepo"
) {
  static readonly layerMemory = Layer.effect(
    AgentInstructionsRepo,
    Effect.gen(function*() {
      const store = yield* IdentityMemory
      return AgentInstructionsRepo.of({
        find: (organizationId) =>
          Effect.sync(() => {
            const organization = store.organizations.get(organizationId)
            if (organization === undefined) return Option.none()
            const stored = store.agentInstructions.get(organizationId)
            return Option.some(stored ?? {
              instructions: null,
              updatedAt: organization.createdAt,
              updatedBy: store.organizationCreators.get(organizationId) ?? null
            })
          }),
        put: (organizationId, stored) =>
          Effect.sync(() => {
            // As the table's foreign key: an organization that is gone keeps no instructions.
            if (store.organizations.has(organizationId)) store.agentInstructions.set(organizationId, stored)
          })
      })
    })
  )
}
