/** The server's settings, read from the environment (see the README's configuration table). */
import { Config, Effect, Option } from "effect"

export const ServerConfig = Config.all({
  port: Config.Port("PORT").pipe(Config.withDefault(8080)),
  host: Config.String("HOST").pipe(Config.withDefault("127.0.0.1")),
  publicUrl: Config.option(Config.String("QUIRE_PUBLIC_URL")),
  adminEmail: Config.String("QUIRE_ADMIN_EMAIL").pipe(Config.withDefault("admin@localhost")),
  adminToken: Config.option(Config.Redacted("QUIRE_ADMIN_TOKEN")),
  logFormat: Config.Literals(["pretty", "json"], "QUIRE_LOG_FORMAT").pipe(Config.withDefault("pretty" as const)),
  /** A line per request (RequestLog.ts); `off` leaves them out. */
  requestLog: Config.Literals(["on", "off"], "QUIRE_REQUEST_LOG").pipe(Config.withDefault("on" as const))
})

export type ServerConfig = Config.Success<typeof ServerConfig>

/** `QUIRE_PUBLIC_URL`, or the address the server listens on. */
export const publicUrlOf = (config: ServerConfig): string =>
  Option.getOrElse(config.publicUrl, () => `http://${config.host === "0.0.0.0" ? "localhost" : config.host}:${config.port}`)

export const load = Effect.orDie(Effect.gen(function*() {
  return yield* ServerConfig
}))
