/**
 * The layers the identity services' tests share: the repositories on every backend (memory and
 * SQL, with the identity migrations), and the services over them with the test's settings.
 */
import { ConfigProvider, Layer } from "effect"
import { Ids } from "@quire/kernel"
import { migrations as auditMigrations } from "@quire/audit"
import { Backends } from "@quire/testkit"
import { IdentityLayers, MembershipDependents, migrations, VisitorClaims } from "../../src/index.ts"

/** The identity repositories on each backend. */
export const backends = Backends.ports({ memory: IdentityLayers.layerReposMemory, sql: IdentityLayers.layerReposSql, migrations: [auditMigrations, migrations] })

/** What the services need besides the repositories: ids, no membership dependents, test visitor claims, `settings` as the config. */
export const dependencies = (settings: Record<string, unknown> = {}) =>
  Layer.mergeAll(Ids.Ids.layer, MembershipDependents.layerNone, VisitorClaims.layerTest, ConfigProvider.layer(ConfigProvider.fromUnknown(settings)))

/** The identity services with `settings` as the config (none unless told), needing the repositories. */
export const servicesWith = (settings: Record<string, unknown> = {}) => IdentityLayers.layerServices.pipe(Layer.provide(dependencies(settings)))
