/** Handlers of the site agent settings group. */
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "@quire/api"
import { type SiteAgentSettingsRecord, SiteAgents } from "@quire/sites"
import * as DomainErrors from "../DomainErrors.ts"

/** GitBook's `SiteAgentSettings`. */
const present = (organizationId: string, siteId: string, s: SiteAgentSettingsRecord) => ({
  object: "site-agent-settings" as const,
  ...(s.updatedAt === null ? {} : { updatedAt: s.updatedAt.toISOString() }),
  ...(s.updatedBy === null ? {} : { updatedBy: s.updatedBy }),
  urls: { location: `/orgs/${organizationId}/sites/${siteId}/agent-settings` },
  scans: s.scans,
  findings: s.findings,
  editing: {
    customInstructions: s.editing.customInstructions as { readonly object: "document"; readonly data: Record<string, unknown>; readonly nodes: ReadonlyArray<Record<string, unknown>> }
  }
})

export const layer = HttpApiBuilder.group(Api, "siteAgentSettings", Effect.fn(function*(handlers) {
  const agents = yield* SiteAgents
  return handlers
    .handle("getSiteAgentSettingsById", ({ params }) =>
      agents.settings(params.organizationId, params.siteId).pipe(DomainErrors.api, Effect.map((s) => present(params.organizationId, params.siteId, s))))
    .handle("updateSiteAgentSettingsById", ({ params, payload }) =>
      agents.updateSettings(params.organizationId, params.siteId, payload).pipe(
        DomainErrors.api,
        Effect.map((s) => present(params.organizationId, params.siteId, s))
      ))
}))
