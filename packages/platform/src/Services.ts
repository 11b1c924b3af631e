/** Every domain package's use cases, over memory or Postgres adapters. */
import { migrations as auditMigrations } from "@quire/audit"
import { Effect, Layer, Option } from "effect"
import * as AgentModelLive from "./AgentModelLive.ts"
import * as AgentReviewJob from "./AgentReviewJob.ts"
import * as AiBudgetLive from "./AiBudgetLive.ts"
import * as AiLogLive from "./AiLogLive.ts"
import { AskEmbeddings, ContentLayers, MainObservers, migrations as contentMigrations, OrganizationAsk, ParsePool, SpaceContent } from "@quire/content"
import { Migrations, SqlTransactor } from "@quire/db"
import { Idempotency, IdempotencyRepo, migrations as gatewayMigrations, RateLimiter, SqlIdempotencyRepo } from "@quire/gateway"
import { ConfigRedirects, GitCli, GitSyncLayers, migrations as gitsyncMigrations, SecretBox } from "@quire/gitsync"
import { AgentInstructionsRepo, IdentityLayers, migrations as identityMigrations, VisitorClaims } from "@quire/identity"
import { Ids, Pagination, Transactor } from "@quire/kernel"
import { migrations as queueMigrations } from "@quire/queue"
import { AgentInstructions, migrations as reviewsMigrations, ReviewsLayers } from "@quire/reviews"
import { AgentGuidance, AskModel, migrations as sitesMigrations, OrganizationAgentInstructions, SiteChanges, SitesLayers, SpaceRedirects, SpecOperations } from "@quire/sites"
import { migrations as specsMigrations, SourceCredentials, SpecDocuments, SpecsLayers } from "@quire/specs"
import { migrations as translationsMigrations, TranslationsLayers } from "@quire/translations"
import * as ContentPlatform from "./ContentPlatform.ts"
import * as FindingFixesLive from "./FindingFixesLive.ts"
import * as CommitMessagesLive from "./CommitMessagesLive.ts"
import * as AuditNamesLive from "./AuditNamesLive.ts"
import * as GitAuthorsLive from "./GitAuthorsLive.ts"
import * as MembershipDependentsLive from "./MembershipDependentsLive.ts"
import * as ImportBranchesLive from "./ImportBranchesLive.ts"
import * as MembershipsLive from "./MembershipsLive.ts"
import * as NotificationMail from "./NotificationMail.ts"
import * as SpaceDependentsLive from "./SpaceDependentsLive.ts"
import * as StyleguideModelLive from "./StyleguideModelLive.ts"
import * as FindingsModelLive from "./FindingsModelLive.ts"
import * as StyleguideReviewsLive from "./StyleguideReviewsLive.ts"

/** Every package's migrations, in dependency order. */
export const migrations: ReadonlyArray<Migrations.PackageMigrations> = [auditMigrations, identityMigrations, contentMigrations, reviewsMigrations, sitesMigrations, gitsyncMigrations, gatewayMigrations, specsMigrations, translationsMigrations, queueMigrations]

/** Applies every package's pending migrations. */
export const migrate = Migrations.run(...migrations)

/** Content's MainObservers: published sites read the moved space's revision again, then Git sync's, then translations'. */
const layerMainObservers = Layer.effect(
  MainObservers,
  Effect.gen(function*() {
    const gitsync = yield* MainObservers
    const translations = yield* TranslationsLayers.makeMainObserver
    const sites = yield* SitesLayers.makeMainObservers
    return {
      mainMoved: (space, revision) =>
        sites.mainMoved(space, revision).pipe(
          Effect.andThen(gitsync.mainMoved(space, revision)),
          Effect.andThen(translations.mainMoved(space, revision))
        ),
      spaceChanged: sites.spaceChanged
    }
  })
).pipe(Layer.provide(GitSyncLayers.layerMainObservers))

/** Published pages read the organization's OpenAPI specs (`{% openapi-operation %}`) through the specs package. */
const layerSpecOperations = Layer.effect(SpecOperations, Effect.gen(function*() {
  return yield* SpecDocuments
})).pipe(Layer.provide(SpecDocuments.layer))

/** Published sites apply the redirects of a space's `.gitbook.yaml`, which Git sync read at its last import. */
const layerSpaceRedirects = Layer.effect(SpaceRedirects, Effect.service(ConfigRedirects)).pipe(Layer.provide(ConfigRedirects.layer))

/** Specs seal the credentials of source URLs with Git sync's SecretBox: one instance key for both. */
const layerSpecSecrets = Layer.effect(SourceCredentials.SpecSecrets, Effect.service(SecretBox))

/** What agents read: an organization's instructions from identity's store, a site's from sites'. */
const layerAgentGuidance = SitesLayers.layerAgentGuidance.pipe(Layer.provide(Layer.effect(
  OrganizationAgentInstructions,
  Effect.map(Effect.service(AgentInstructionsRepo), (repo) => ({
    of: (organizationId: string) =>
      Effect.map(repo.find(organizationId), Option.flatMap((state) => Option.fromNullishOr(state.instructions)))
  }))
)))

/** The in-memory adapters of every port, shared by `layerMemory`'s use cases when provided together. */
export const layerMemoryRepos = Layer.mergeAll(
  IdentityLayers.layerReposMemory,
  ContentLayers.layerReposMemory,
  ReviewsLayers.layerReposMemory,
  SitesLayers.layerReposMemory,
  SpecsLayers.layerReposMemory,
  GitSyncLayers.layerReposMemory,
  TranslationsLayers.layerReposMemory
)

/** The Postgres adapters of every port (needs only a SqlClient). */
export const layerSqlRepos = Layer.mergeAll(
  IdentityLayers.layerReposSql,
  ContentLayers.layerReposSql,
  ReviewsLayers.layerReposSql,
  SitesLayers.layerReposSql,
  SpecsLayers.layerReposSql,
  GitSyncLayers.layerReposSql,
  TranslationsLayers.layerReposSql
)

/** Every package's use cases, over whichever ports are provided; they enqueue jobs on the JobQueue they require. */
// Change requests' use cases, built once: the import runs that write into one use them too.
const layerReviews = ReviewsLayers.layerServices.pipe(Layer.provide(NotificationMail.layerDelivery))
// The agent in change requests, over the change requests' use cases, with the model of QUIRE_AI_*.
// It follows the organization's agent instructions (identity's, read through sites' AgentGuidance).
const layerAgentInstructions = Layer.effect(AgentInstructions, Effect.map(Effect.service(AgentGuidance), (guidance) => ({ forOrganization: guidance.forOrganization })))
// Its turns spend the organization's AI budget (QUIRE_AI_TOKEN_BUDGET).
const layerAgentModel = AgentModelLive.layer.pipe(Layer.provide([AiBudgetLive.layer, AiLogLive.layer]))
const layerAgent = ReviewsLayers.layerAgent.pipe(
  Layer.provide(layerAgentModel),
  Layer.provide(layerAgentInstructions),
  // Its reviews as a requested reviewer run as queued jobs (AgentReviewJob).
  Layer.provide(AgentReviewJob.layerQueue)
)

// Ask's model (QUIRE_AI_*), whose answers spend the organization's AI budget.
const layerAskModel = AskModel.layerConfig.pipe(Layer.provide([AiBudgetLive.layer, AiLogLive.layer]))

const layerStyleguides = SitesLayers.layerStyleguides.pipe(
  Layer.provide(StyleguideReviewsLive.layer),
  Layer.provide([StyleguideModelLive.layer, MembershipsLive.layer])
)

const layerServices = Layer.mergeAll(
  // A member or a team that leaves takes content's and sites' grants to them, in the same transaction.
  IdentityLayers.layerServices.pipe(Layer.provide(MembershipDependentsLive.layer)),
  // The instance's audit log names people, teams, content, sites and organizations as they are now.
  AuditNamesLive.layer,
  layerAgentGuidance,
  Layer.mergeAll(
    // Notifications are mailed by a queued job (NotificationMail), when the server mails.
    layerReviews,
    layerAgent.pipe(Layer.provideMerge(layerReviews), Layer.provide(layerAgentGuidance)),
    // Sites' style guides: checks comment on change requests through reviews' use cases, with the
    // model of QUIRE_AI_* when there is one.
    layerStyleguides.pipe(Layer.provide(layerReviews)),
    // The spec operations are also the server's, whose format=html draws operation blocks.
    // Ask's model: OpenAI-compatible, from QUIRE_AI_* (none when unset), and its embedding model
    // (QUIRE_AI_MODEL_EMBEDDINGS; words alone when unset).
    // Site permissions read a member's role and teams through content's Memberships port.
    // A site's findings open change requests (the agent drafts them when there is a model).
    // Its scans judge pages and name topics with the model of QUIRE_AI_* when there is one.
    SitesLayers.layerFindings.pipe(
      Layer.provide([MembershipsLive.layer, FindingsModelLive.layer]),
      Layer.provide(FindingFixesLive.layer.pipe(Layer.provide(layerAgent.pipe(Layer.provideMerge(layerReviews), Layer.provide(layerAgentGuidance))))),
      Layer.provideMerge(SitesLayers.layerServices.pipe(
        Layer.provideMerge(layerSpecOperations),
        Layer.provide([layerSpaceRedirects, layerAskModel, AskEmbeddings.layerConfig, MembershipsLive.layer])
      ))
    ),
    // The organization's Ask: the same models, over the spaces the asker may read.
    OrganizationAsk.layer().pipe(Layer.provide([layerAskModel, AskEmbeddings.layerConfig])),
    // The organization's agent: members' own conversations, answered by that Ask with the organization's instructions.
    ReviewsLayers.layerOrganizationAgent.pipe(
      Layer.provide(OrganizationAsk.layer().pipe(Layer.provide([layerAskModel, AskEmbeddings.layerConfig]))),
      // The edits members ask it for are made by the change request's agent, with their rights.
      Layer.provide(layerAgent.pipe(Layer.provideMerge(layerReviews), Layer.provide(layerAgentGuidance))),
      Layer.provide(layerAgentModel),
      Layer.provide(layerAgentInstructions),
      Layer.provide(layerAgentGuidance)
    ),
    GitSyncLayers.layerServices.pipe(Layer.provide([GitAuthorsLive.layer, CommitMessagesLive.layer])),
    TranslationsLayers.layerServices.pipe(Layer.provide(TranslationsLayers.layerTranslator)),
    // Import runs: conversions of uploads and websites, written through SpaceContent, or into a
    // change request through content's ImportBranches port.
    ContentLayers.layerImports.pipe(Layer.provide(ImportBranchesLive.layer), Layer.provide(layerReviews)),
    // Pages' owners, verification and links, per space and organization.
    ContentLayers.layerFreshness
  ).pipe(
    // OpenAPI specs read organization roles through content and fetch through its outbound guard.
    Layer.merge(SpecsLayers.layerServices.pipe(Layer.provide(layerSpecSecrets))),
    Layer.provideMerge(
      SpaceContent.layer.pipe(
        Layer.provideMerge(ContentLayers.layerServices),
        // Content's ports that other packages implement.
        Layer.provide([MembershipsLive.layer, SpaceDependentsLive.layer, layerMainObservers])
      )
    ),
    // Git sync's key, shared by its use cases and its observer of content.
    Layer.provideMerge(GitSyncLayers.layerInfrastructure),
    // How translation runs are queued, shared by its use cases and its observer of content.
    Layer.provideMerge(TranslationsLayers.layerInfrastructure),
    // Git through the `git` binary (settings from the environment: QUIRE_GIT_*).
    Layer.provide(Layer.orDie(GitCli.layerConfig))
  )
).pipe(
  // What published sites show changed: one set of counters per server, which its routes read too;
  // the key of list cursors, from the instance secret; and the server's parse workers
  // (QUIRE_PARSE_WORKERS), which the server warms and its page reads use too.
  Layer.provideMerge(Layer.mergeAll(SiteChanges.layer, Pagination.layerSigningKey, ParsePool.layer))
)

/** Every use case over in-memory adapters (tests, embedding, demos). */
export const layerMemory = layerServices.pipe(
  Layer.provide(layerMemoryRepos),
  Layer.provide([Transactor.Transactor.layerMemory, Ids.Ids.layer, VisitorClaims.layer, ContentPlatform.layerMemory]),
  // The API's budgets, and the organizations' AI budgets (AiBudgetLive), on one limiter.
  Layer.provideMerge(RateLimiter.layerMemory),
  Layer.merge(Idempotency.layer.pipe(Layer.provide(IdempotencyRepo.layerMemory)))
)

/**
 * Every use case over Postgres, with the given rate limiter (budgets in this process or in the
 * database); migrates the database first. Needs a SqlClient.
 */
export const layerSqlWith = <E, R>(rateLimiter: Layer.Layer<RateLimiter, E, R>) =>
  layerServices.pipe(
    Layer.provide(layerSqlRepos),
    Layer.provide([SqlTransactor.layer, Ids.Ids.layer, VisitorClaims.layer, ContentPlatform.layer]),
    Layer.provideMerge(rateLimiter),
    Layer.merge(Idempotency.layer.pipe(Layer.provide(SqlIdempotencyRepo.layer))),
    Layer.provide(Layer.effectDiscard(migrate))
  )

/** Every use case over Postgres, rate limits counted in the database; migrates it first. Needs a SqlClient. */
export const layerSql = layerSqlWith(RateLimiter.layerSql)

/**
 * Every use case over the server's database: rate limits are counted in PostgreSQL, shared by
 * replicas, and in the process on the embedded database (one process). Needs a SqlClient.
 */
export const layerSqlOn = (kind: "embedded" | "postgres") =>
  layerSqlWith(kind === "embedded" ? RateLimiter.layerMemory : RateLimiter.layerSql)

export type Services = Layer.Success<typeof layerMemory>
