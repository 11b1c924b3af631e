/**
 * The read side an agent working on a site's content will use: the organization's agent
 * instructions, then the site's custom instructions for the editing agent, each as markdown. No
 * caller checks: whoever runs the agent has already been allowed to (a job, a change request's author).
 */
import { Context, Effect, Layer, Option } from "effect"
import type { AgentDocument } from "../domain/Agent.ts"
import { textOf } from "./AgentDocuments.ts"
import { SiteAgentRepo } from "./SiteAgentRepo.ts"

/** Port, implemented over identity's store (composed in the platform): an organization's agent instructions, if set. */
export class OrganizationAgentInstructions extends Context.Service<OrganizationAgentInstructions, {
  readonly of: (organizationId: string) => Effect.Effect<Option.Option<AgentDocument>>
}>()("@quire/sites/OrganizationAgentInstructions") {}

export interface Guidance {
  /** The organization's instructions as markdown; `""` when none. */
  readonly organization: string
  /** The site's custom instructions for the editing agent as markdown; `""` when none. */
  readonly site: string
}

export class AgentGuidance extends Context.Service<AgentGuidance, {
  /** What an agent editing the content of `siteId` is told. */
  readonly forSite: (organizationId: string, siteId: string) => Effect.Effect<Guidance>
  /** What an agent working anywhere in the organization is told. */
  readonly forOrganization: (organizationId: string) => Effect.Effect<string>
}>()("@quire/sites/AgentGuidance") {
  static readonly layer = Layer.effect(
    AgentGuidance,
    Effect.gen(function*() {
      const organizations = yield* OrganizationAgentInstructions
      const repo = yield* SiteAgentRepo
      const forOrganization = (organizationId: string) =>
        Effect.map(organizations.of(organizationId), Option.match({ onNone: () => "", onSome: textOf }))
      return AgentGuidance.of({
        forOrganization,
        forSite: (organizationId, siteId) =>
          Effect.all({
            organization: forOrganization(organizationId),
            site: Effect.map(repo.settings(siteId), (settings) => textOf(settings.editing.customInstructions))
          })
      })
    })
  )
}
