/** The flags every `quire` command accepts: where the server is, who is calling, how to print. */
import { Config } from "effect"
import { Flag, GlobalFlag } from "effect/cli"

export const defaultUrl = "http://127.0.0.1:8080"

/** `--url`, else `QUIRE_URL`, else the local default. */
export const Url = GlobalFlag.Setting("url")({
  flag: Flag.String("url").pipe(
    Flag.withDescription(`Quire server URL (env QUIRE_URL, default ${defaultUrl})`),
    Flag.withFallbackConfig(Config.String("QUIRE_URL")),
    Flag.withDefault(defaultUrl)
  )
})

/** `--token`, else `QUIRE_TOKEN`; commands that talk to the server fail without one. */
export const Token = GlobalFlag.Setting("token")({
  flag: Flag.Redacted("token").pipe(
    Flag.withDescription("API token sent as bearer (env QUIRE_TOKEN)"),
    Flag.withFallbackConfig(Config.Redacted("QUIRE_TOKEN")),
    Flag.optional
  )
})

/** `--json`: print the API's JSON (for scripts) instead of a table (for people). */
export const Json = GlobalFlag.Setting("json")({
  flag: Flag.Boolean("json").pipe(
    Flag.withDescription("Print the API's JSON instead of a table"),
    Flag.withDefault(false)
  )
})

export const all = [Url, Token, Json] as const
