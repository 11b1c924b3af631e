/**
 * An organization's agent instructions (GitBook's `OrganizationAgentInstructions`): what every agent
 * working in the organization is told. Members read them, admins replace them. The document arrives
 * checked (the API checks it with content's document check: identity does not read its nodes).
 */
import { Context, Effect, Layer, Option } from "effect"
import { caller as auditCaller } from "@quire/audit"
import { type Actor, Errors } from "@quire/kernel"
import { AgentInstructionsRepo, type InstructionsDocument } from "./AgentInstructionsRepo.ts"
import * as OrganizationEdit from "./organizations/OrganizationEdit.ts"

export type { InstructionsDocument }

/** The instructions as answered. */
export interface AgentInstructionsView {
  readonly instructions: InstructionsDocument
  readonly updatedAt: Date
  /**
   * Who set them last. Never set: the organization's creator, with `updatedAt` its creation (the
   * empty instructions are as old as the organization); `""` for an organization whose creator is
   * not recorded (made before Quire recorded creators).
   */
  readonly updatedBy: string
}

/** No instructions. */
export const emptyInstructions: InstructionsDocument = { object: "document", data: {}, nodes: [] }

export interface AgentInstructionsShape {
  /** NotFound unless the caller is a member. */
  readonly get: (organizationId: string) => Effect.Effect<AgentInstructionsView, Errors.NotFound, Actor.Actor>
  /** Replaces them (admins); the same document again changes nothing. */
  readonly update: (organizationId: string, instructions: InstructionsDocument) => Effect.Effect<AgentInstructionsView, Errors.NotFound | Errors.Forbidden, Actor.Actor>
  /** The instructions, whoever asks (for agents, which run already allowed); none when never set. */
  readonly of: (organizationId: string) => Effect.Effect<Option.Option<InstructionsDocument>>
}

export class AgentInstructions extends Context.Service<AgentInstructions, AgentInstructionsShape>()("@quire/identity/AgentInstructions") {
  static readonly layer = Layer.effect(
    AgentInstructions,
    Effect.gen(function*() {
      const { access, adminAccess, transactor, audit, now } = yield* OrganizationEdit.make
      const repo = yield* AgentInstructionsRepo

      const read = Effect.fnUntraced(function*(organizationId: string) {
        const found = yield* repo.find(organizationId)
        if (Option.isNone(found)) return yield* new Errors.NotFound({ resource: "Organization", id: organizationId })
        return {
          instructions: found.value.instructions ?? emptyInstructions,
          updatedAt: found.value.updatedAt,
          updatedBy: found.value.updatedBy ?? ""
        } satisfies AgentInstructionsView
      })

      const get = Effect.fn("AgentInstructions.get")(function*(organizationId: string) {
        yield* access(organizationId)
        return yield* read(organizationId)
      })

      const update = Effect.fn("AgentInstructions.update")(function*(organizationId: string, instructions: InstructionsDocument) {
        const found = yield* adminAccess(organizationId, "change the organization's agent instructions")
        const before = yield* read(organizationId)
        const document: InstructionsDocument = { object: "document", data: instructions.data, nodes: instructions.nodes }
        if (JSON.stringify(before.instructions) === JSON.stringify(document)) return before
        const actor = yield* auditCaller
        const stored = { instructions: document, updatedAt: yield* now, updatedBy: actor.id }
        yield* repo.put(organizationId, stored)
        yield* audit.record({
          organizationId,
          action: "organization.agent-instructions-changed",
          actor,
          target: { type: "organization", id: organizationId, label: found.organization.title }
        })
        return stored
      }, transactor.transaction)

      const of = (organizationId: string) =>
        Effect.map(repo.find(organizationId), (found) => Option.flatMap(found, (state) => Option.fromNullishOr(state.instructions)))

      return AgentInstructions.of({ get, update, of })
    })
  )
}
