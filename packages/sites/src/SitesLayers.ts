/** Layers that assemble the sites package: its ports, adapters and use cases. */
import { AuditLayers } from "@quire/audit"
import { Effect, Layer } from "effect"
import { MainObservers, type MainObserversShape } from "@quire/content"
import { PublishedSites } from "./PublishedSites.ts"
import { RedirectsRepo } from "./RedirectsRepo.ts"
import { ShareLinks } from "./ShareLinks.ts"
import { ShareLinksRepo } from "./ShareLinksRepo.ts"
import { SiteGrants } from "./SiteGrants.ts"
import { SitePermissionsRepo } from "./SitePermissionsRepo.ts"
import { SiteRedirects } from "./SiteRedirects.ts"
import { Sites } from "./Sites.ts"
import { SitesRepo } from "./SitesRepo.ts"
import { CodeHighlighter } from "./render/Highlight.ts"
import { SiteReaders } from "./SiteReaders.ts"
import { SiteRenderer } from "./SiteRenderer.ts"
import { SiteStructure } from "./SiteStructure.ts"
import { SiteStructureRepo } from "./SiteStructureRepo.ts"
import { SiteChannelsRepo } from "./SiteChannelsRepo.ts"
import * as SqlSiteChannelsRepo from "./SqlSiteChannelsRepo.ts"
import { SiteStructureOps } from "./SiteStructureOps.ts"
import { SiteChanges } from "./SiteChanges.ts"
import * as SpaceRemoval from "./SpaceRemoval.ts"
import { SpecUsages } from "./SpecUsages.ts"
import * as SqlRedirectsRepo from "./SqlRedirectsRepo.ts"
import * as SqlShareLinksRepo from "./SqlShareLinksRepo.ts"
import * as SqlSitePermissionsRepo from "./SqlSitePermissionsRepo.ts"
import * as SqlSitesRepo from "./SqlSitesRepo.ts"
import * as SqlSiteStructureRepo from "./SqlSiteStructureRepo.ts"
import { SiteEventRecorder } from "./insights/SiteEventRecorder.ts"
import { SiteEventsRepo } from "./insights/SiteEventsRepo.ts"
import { AgentGuidance } from "./agents/AgentGuidance.ts"
import { SiteAgentRepo } from "./agents/SiteAgentRepo.ts"
import { SiteAgents } from "./agents/SiteAgents.ts"
import * as SqlSiteAgentRepo from "./agents/SqlSiteAgentRepo.ts"
import { SiteInsights } from "./insights/SiteInsights.ts"
import * as SqlSiteEventsRepo from "./insights/SqlSiteEventsRepo.ts"
import { SiteQuestionRecorder } from "./questions/QuestionRecorder.ts"
import { SiteQuestions } from "./questions/SiteQuestions.ts"
import { SiteQuestionsRepo } from "./questions/SiteQuestionsRepo.ts"
import * as SqlSiteQuestionsRepo from "./questions/SqlSiteQuestionsRepo.ts"
import { SiteContextRepo } from "./findings/SiteContextRepo.ts"
import { SiteFindings } from "./findings/SiteFindings.ts"
import { SiteContextConnections } from "./findings/SiteContextConnections.ts"
import * as SqlSiteContextRepo from "./findings/SqlSiteContextRepo.ts"
import { StyleguideRepo } from "./styleguides/StyleguideRepo.ts"
import { Styleguides } from "./styleguides/Styleguides.ts"
import * as SqlStyleguideRepo from "./styleguides/SqlStyleguideRepo.ts"
import { CustomFonts } from "./fonts/CustomFonts.ts"
import { CustomFontsRepo } from "./fonts/CustomFontsRepo.ts"
import * as SqlCustomFontsRepo from "./fonts/SqlCustomFontsRepo.ts"
import { CustomHostnames } from "./hostnames/CustomHostnames.ts"
import { HostnameChecksRepo } from "./hostnames/HostnameChecksRepo.ts"
import { HostnameDns } from "./hostnames/HostnameDns.ts"
import * as SqlHostnameChecksRepo from "./hostnames/SqlHostnameChecksRepo.ts"
import { SiteExports } from "./export/SiteExports.ts"

/** The sites ports in memory. */
export const layerReposMemory = Layer.mergeAll(SitesRepo.layerMemory, SiteStructureRepo.layerMemory, ShareLinksRepo.layerMemory, RedirectsRepo.layerMemory, SitePermissionsRepo.layerMemory, SiteEventsRepo.layerMemory, SiteAgentRepo.layerMemory, SiteQuestionsRepo.layerMemory, SiteContextRepo.layerMemory, StyleguideRepo.layerMemory, SiteChannelsRepo.layerMemory, CustomFontsRepo.layerMemory, HostnameChecksRepo.layerMemory, AuditLayers.layerMemory)

/** The sites ports on Postgres (needs only a SqlClient). */
export const layerReposSql = Layer.mergeAll(SqlSitesRepo.layer, SqlSiteStructureRepo.layer, SqlShareLinksRepo.layer, SqlRedirectsRepo.layer, SqlSitePermissionsRepo.layer, SqlSiteEventsRepo.layer, SqlSiteAgentRepo.layer, SqlSiteQuestionsRepo.layer, SqlSiteContextRepo.layer, SqlStyleguideRepo.layer, SqlSiteChannelsRepo.layer, SqlCustomFontsRepo.layer, SqlHostnameChecksRepo.layer, AuditLayers.layerSql)

/**
 * The use cases, over whichever ports are provided; need content's Spaces, SpacesRepo, ContentAccess,
 * Memberships, SpaceContent and PublishedContent, SpaceRedirects, OutboundFetch and the AuditLog.
 */
export const layerServices = Layer.mergeAll(SpecUsages.layer, SiteStructureOps.layer, SiteExports.layer).pipe(
  // Custom hostnames check DNS with the resolver of QUIRE_DNS_SERVERS (the system's when unset).
  Layer.provideMerge(Layer.mergeAll(SiteInsights.layer, SiteQuestions.layer, CustomFonts.layer, CustomHostnames.layer.pipe(Layer.provide(HostnameDns.layerConfig)))),
  Layer.provideMerge(SiteEventRecorder.layer),
  Layer.provideMerge(SiteReaders.layer),
  Layer.provideMerge(Layer.mergeAll(Sites.layer, ShareLinks.layer, SiteRedirects.layer, SiteGrants.layer, PublishedSites.layer, SiteRenderer.layer, SiteAgents.layer)),
  // Questions asked on a site's Ask are recorded in the background (the renderer answers them).
  Layer.provideMerge(SiteQuestionRecorder.layer),
  Layer.provideMerge(SiteStructure.layer),
  // One highlighter per server: the site renderer's and the API's `format=html` page bodies'.
  Layer.provideMerge(CodeHighlighter.layer)
)

/** Content's SpaceDependents port over the sites tables: a purged space leaves its sites. */
export const layerSpaceDependents = SpaceRemoval.layer

/**
 * Content's MainObservers as published sites see them: a space whose main moved, or whose record
 * changed (renamed, trashed, restored, moved, transferred), is read again by every site showing it.
 */
export const makeMainObservers: Effect.Effect<MainObserversShape, never, SiteChanges> = Effect.map(
  Effect.service(SiteChanges),
  (changes) => ({ mainMoved: () => changes.mainMoved, spaceChanged: () => changes.mainMoved })
)

/** `makeMainObservers` alone, for compositions where sites are the only observer. */
export const layerMainObservers = Layer.effect(MainObservers, makeMainObservers)

/** What a future agent reads of a site and its organization; needs the OrganizationAgentInstructions port and the SiteAgentRepo. */
export const layerAgentGuidance = AgentGuidance.layer

/**
 * A site's findings (records, scans, topics, findings), over the sites services; needs the
 * FindingFixes port (change requests are the reviews package's) and the JobQueue.
 */
export const layerFindings = Layer.mergeAll(SiteFindings.layer, SiteContextConnections.layer)

/**
 * Sites' style guides and their check runs; need the StyleguideReviews port (change requests and
 * their comments, implemented over reviews), the StyleguideModel and a JobQueue, beside what
 * `layerServices` provides.
 */
export const layerStyleguides = Styleguides.layer
