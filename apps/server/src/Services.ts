/** The domain services the server runs on, over memory or Postgres adapters. */
import { Layer } from "effect"
import { Content, migrations as contentMigrations, SpaceContent } from "@quire/content"
import { Migrations, SqlTransactor } from "@quire/db"
import { Identity, migrations as identityMigrations, VisitorClaims } from "@quire/identity"
import { Ids, Transactor } from "@quire/kernel"
import {
  ChangeRequests,
  ChangeRequestsRepo,
  Comments,
  CommentsRepo,
  Merges,
  migrations as reviewsMigrations,
  SpaceActivity,
  SpaceCountersRepo,
  SpaceRemoval,
  SqlChangeRequestsRepo,
  SqlCommentsRepo,
  SqlSpaceCountersRepo
} from "@quire/reviews"
import * as ContentPlatform from "./ContentPlatform.ts"
import * as MembershipsLive from "./MembershipsLive.ts"

/** Every package's migrations, in dependency order. */
export const migrate = Migrations.run(identityMigrations, contentMigrations, reviewsMigrations)

/** The in-memory adapters of every port, shared by `layerMemory`'s use cases when provided together. */
export const layerMemoryRepos = Layer.mergeAll(
  Identity.layerReposMemory,
  Content.layerReposMemory,
  CommentsRepo.layerMemory,
  ChangeRequestsRepo.layerMemory,
  SpaceCountersRepo.layerMemory
)

/** Every package's use cases, over whichever ports are provided. */
const layerServices = Layer.mergeAll(
  Identity.layerServices,
  Layer.mergeAll(Comments.layer, Merges.layer, SpaceActivity.layer).pipe(
    Layer.provideMerge(ChangeRequests.layer),
    Layer.provideMerge(
      SpaceContent.layer.pipe(Layer.provideMerge(Content.layerServices), Layer.provide([MembershipsLive.layer, SpaceRemoval.layer]))
    )
  )
)

/** Every use case over in-memory adapters (tests, demos). */
export const layerMemory = layerServices.pipe(
  Layer.provide(layerMemoryRepos),
  Layer.provide([Transactor.Transactor.layerMemory, Ids.Ids.layer, VisitorClaims.layer, ContentPlatform.layerMemory])
)

/** Every use case over Postgres; migrates the database first. Needs a SqlClient. */
export const layerSql = layerServices.pipe(
  Layer.provide([Identity.layerReposSql, Content.layerReposSql, SqlCommentsRepo.layer, SqlChangeRequestsRepo.layer, SqlSpaceCountersRepo.layer]),
  Layer.provide([SqlTransactor.layer, Ids.Ids.layer, VisitorClaims.layer, ContentPlatform.layer]),
  Layer.provide(Layer.effectDiscard(migrate))
)

export type Services = Layer.Success<typeof layerMemory>
