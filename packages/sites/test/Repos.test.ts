/**
 * The sites ports' contract suites, run against memory, a real PostgreSQL and PGlite. Each
 * backend is one fresh store shared by the suites, whose tests use disjoint ids.
 */
import { Layer } from "effect"
import { Backends } from "@quire/testkit"
import { migrations } from "../src/index.ts"
import { RedirectsRepo } from "../src/RedirectsRepo.ts"
import { SiteEventsRepo } from "../src/insights/SiteEventsRepo.ts"
import * as SqlSiteEventsRepo from "../src/insights/SqlSiteEventsRepo.ts"
import { siteEventsRepoContract } from "./contract/SiteEventsRepoContract.ts"
import { SiteQuestionsRepo } from "../src/questions/SiteQuestionsRepo.ts"
import * as SqlSiteQuestionsRepo from "../src/questions/SqlSiteQuestionsRepo.ts"
import { siteQuestionsRepoContract } from "./contract/SiteQuestionsRepoContract.ts"
import { ShareLinksRepo } from "../src/ShareLinksRepo.ts"
import { SitePermissionsRepo } from "../src/SitePermissionsRepo.ts"
import { SitesRepo } from "../src/SitesRepo.ts"
import { SiteStructureRepo } from "../src/SiteStructureRepo.ts"
import * as SqlRedirectsRepo from "../src/SqlRedirectsRepo.ts"
import * as SqlShareLinksRepo from "../src/SqlShareLinksRepo.ts"
import * as SqlSitePermissionsRepo from "../src/SqlSitePermissionsRepo.ts"
import * as SqlSitesRepo from "../src/SqlSitesRepo.ts"
import * as SqlSiteStructureRepo from "../src/SqlSiteStructureRepo.ts"
import { redirectsRepoContract } from "./contract/RedirectsRepoContract.ts"
import { shareLinksRepoContract } from "./contract/ShareLinksRepoContract.ts"
import { sitePermissionsRepoContract } from "./contract/SitePermissionsRepoContract.ts"
import { sitesRepoContract } from "./contract/SitesRepoContract.ts"
import { siteStructureRepoContract } from "./contract/SiteStructureRepoContract.ts"
import { SiteAgentRepo } from "../src/agents/SiteAgentRepo.ts"
import * as SqlSiteAgentRepo from "../src/agents/SqlSiteAgentRepo.ts"
import { siteAgentRepoContract } from "./contract/SiteAgentRepoContract.ts"
import { SiteContextRepo } from "../src/findings/SiteContextRepo.ts"
import * as SqlSiteContextRepo from "../src/findings/SqlSiteContextRepo.ts"
import { siteContextRepoContract } from "./contract/SiteContextRepoContract.ts"
import { StyleguideRepo } from "../src/styleguides/StyleguideRepo.ts"
import * as SqlStyleguideRepo from "../src/styleguides/SqlStyleguideRepo.ts"
import { styleguideRepoContract } from "./contract/StyleguideRepoContract.ts"
import { CustomFontsRepo } from "../src/fonts/CustomFontsRepo.ts"
import * as SqlCustomFontsRepo from "../src/fonts/SqlCustomFontsRepo.ts"
import { HostnameChecksRepo } from "../src/hostnames/HostnameChecksRepo.ts"
import * as SqlHostnameChecksRepo from "../src/hostnames/SqlHostnameChecksRepo.ts"
import { customFontsRepoContract } from "./contract/CustomFontsRepoContract.ts"

const backends = Backends.ports({
  memory: Layer.mergeAll(SitesRepo.layerMemory, SiteStructureRepo.layerMemory, ShareLinksRepo.layerMemory, RedirectsRepo.layerMemory, SitePermissionsRepo.layerMemory, SiteEventsRepo.layerMemory, SiteAgentRepo.layerMemory, SiteQuestionsRepo.layerMemory, SiteContextRepo.layerMemory, StyleguideRepo.layerMemory, CustomFontsRepo.layerMemory, HostnameChecksRepo.layerMemory),
  sql: Layer.mergeAll(SqlSitesRepo.layer, SqlSiteStructureRepo.layer, SqlShareLinksRepo.layer, SqlRedirectsRepo.layer, SqlSitePermissionsRepo.layer, SqlSiteEventsRepo.layer, SqlSiteAgentRepo.layer, SqlSiteQuestionsRepo.layer, SqlSiteContextRepo.layer, SqlStyleguideRepo.layer, SqlCustomFontsRepo.layer, SqlHostnameChecksRepo.layer),
  migrations: [migrations]
})

Backends.each(backends, (it) => {
  sitesRepoContract(it)
  siteStructureRepoContract(it)
  shareLinksRepoContract(it)
  redirectsRepoContract(it)
  sitePermissionsRepoContract(it)
  siteEventsRepoContract(it)
  siteAgentRepoContract(it)
  siteQuestionsRepoContract(it)
  siteContextRepoContract(it)
  styleguideRepoContract(it)
  customFontsRepoContract(it)
})
