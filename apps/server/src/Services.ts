/** The domain services the server runs on, over memory or Postgres adapters. */
import { Layer } from "effect"
import { Migrations, SqlTransactor } from "@quire/db"
import { Identity, migrations as identityMigrations, VisitorClaims } from "@quire/identity"
import { Ids, Transactor } from "@quire/kernel"

/** Every package's migrations, in dependency order. */
export const migrate = Migrations.run(identityMigrations)

/** The in-memory adapters of every port, shared by `layerMemory`'s use cases when provided together. */
export const layerMemoryRepos = Identity.layerReposMemory

/** Every use case over in-memory adapters (tests, demos). */
export const layerMemory = Identity.layerServices.pipe(
  Layer.provide(layerMemoryRepos),
  Layer.provide([Transactor.Transactor.layerMemory, Ids.Ids.layer, VisitorClaims.layer])
)

/** Every use case over Postgres; migrates the database first. Needs a SqlClient. */
export const layerSql = Identity.layerServices.pipe(
  Layer.provide(Identity.layerReposSql),
  Layer.provide([SqlTransactor.layer, Ids.Ids.layer, VisitorClaims.layer]),
  Layer.provide(Layer.effectDiscard(migrate))
)

export type Services = Layer.Success<typeof layerMemory>
