/**
 * Child process: the Quire server composed as apps/server/src/main.ts composes it (Http.serve
 * over Queue.layerServices (the use cases and their job queue), a Database layer, Storage and PublicUrl, the same
 * logger, telemetry and metric registry; not the request log), on the backend and with the variant the benchmark asks for.
 */
import { NodeRuntime } from "@effect/platform-node"
import { Effect, Layer, Logger, Option, References } from "effect"
import { Database } from "@quire/db"
import { Organizations, type User, Users } from "@quire/identity"
import { Actor } from "@quire/kernel"
import { Http, NodeServer, PublicUrl } from "@quire/server"
import * as Metrics from "@quire/kernel/Metrics"
import { CollabStoredMarkdown } from "@quire/live"
import { Queue, Services, Storage, Telemetry } from "@quire/platform"
import type { StoredLiveMarkdown } from "@quire/reviews"
import * as Profiling from "./Profiling.ts"
import * as Target from "./Target.ts"

Profiling.listen()
const config = Target.read()
const backend = config.backend
const variant = config.variant ?? {}

/** The use cases over the chosen backend, exactly as the server builds them. */
const built: Layer.Layer<Layer.Success<typeof Services.layerMemory> | Storage, unknown, StoredLiveMarkdown> = (() => {
  switch (backend.kind) {
    case "postgres":
      return Queue.layerServices.pipe(
        Layer.provideMerge(Storage.layer("postgres")),
        Layer.provideMerge(Database.layerUrl(backend.url))
      )
    case "embedded":
      return Queue.layerServices.pipe(
        Layer.provideMerge(Storage.layer("embedded")),
        Layer.provideMerge(Database.layerEmbedded({ dataDir: backend.dataDir }))
      )
    case "memory":
      return Queue.layerInProcessWith(Services.layerMemory).pipe(Layer.provideMerge(Storage.layer("memory")))
  }
})()
// A merge writes live edits not yet written back with the editor's codec, as the server's.
const services = built.pipe(Layer.provide(CollabStoredMarkdown.layer))

/** The memory backend starts empty: the administrator and its organization are made here. */
const seedMemory = Layer.effectDiscard(Effect.gen(function*() {
  if (backend.kind !== "memory") return
  const { user } = yield* (yield* Users).bootstrapAdmin(config.adminEmail, config.adminToken)
  yield* (yield* Organizations).create({ title: "Bench Organization" }).pipe(
    Effect.provideService(Actor.Actor, { userId: user.id, instanceAdmin: true })
  )
}))

/** A layer that replaces the Users service with `f` of the one `base` provides. */
const overrideUsers = <E, R>(
  base: Layer.Layer<Users, E, R>,
  f: (users: Users["Service"]) => Effect.Effect<Users["Service"]>
) => Layer.effect(Users, Effect.flatMap(Effect.service(Users), f)).pipe(Layer.provide(base))

/**
 * Variant: `Users.current` answers with the user the token lookup just loaded instead of reading
 * it again, as if the authentication middleware handed its User to the handler.
 */
const userFromToken = (users: Users["Service"]) =>
  Effect.sync(() => {
    const authenticated = new Map<string, User>()
    return Users.of({
      ...users,
      authenticate: (secret) =>
        Effect.tap(users.authenticate(secret), (user) =>
          Effect.sync(() => {
            if (Option.isSome(user)) authenticated.set(user.value.id, user.value)
          })),
      current: Effect.flatMap(Effect.service(Actor.Actor), (actor) => {
        const user = authenticated.get(actor.userId)
        return user === undefined ? users.current : Effect.succeed(user)
      })
    })
  })

const withUserFromToken = variant.userFromToken === true
  ? Layer.merge(services, overrideUsers(services, userFromToken))
  : services

const ready = seedMemory.pipe(
  Layer.provideMerge(withUserFromToken),
  Layer.provideMerge(PublicUrl.layer(`http://127.0.0.1:${config.port}`))
)

const http = Http.serve.pipe(
  Layer.provide(NodeServer.layer({ port: config.port, host: "127.0.0.1" })),
  Layer.provide(ready),
  // As main.ts: Telemetry turns the tracer off unless OTLP traces are configured.
  Layer.provide(variant.tracerOn === true ? Layer.succeed(References.TracerEnabled, true) : Telemetry.layer("quire-server")),
  Layer.provide(Metrics.layerRegistry)
)

NodeRuntime.runMain(Layer.launch(http).pipe(Effect.provide(Logger.layer([Logger.consolePretty()]))))
