/**
 * Tokens `quire login` obtained, kept per server URL in `credentials.json` (mode 0600)
 * under `QUIRE_CONFIG_DIR`, else `$XDG_CONFIG_HOME/quire`, else `~/.config/quire`. A token
 * given by `--token`/QUIRE_TOKEN always wins over a stored one.
 */
import { Config, Effect, Option } from "effect"
import { mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { homedir } from "node:os"
import { join } from "node:path"

const directory = Effect.gen(function*() {
  const configured = yield* Config.option(Config.String("QUIRE_CONFIG_DIR"))
  if (Option.isSome(configured)) return configured.value
  const xdg = yield* Config.option(Config.String("XDG_CONFIG_HOME"))
  return join(Option.getOrElse(xdg, () => join(homedir(), ".config")), "quire")
}).pipe(Effect.orDie)

const key = (url: string) => url.replace(/\/+$/, "")

const readAll = (file: string): Record<string, string> => {
  try {
    const parsed: unknown = JSON.parse(readFileSync(file, "utf8"))
    return typeof parsed === "object" && parsed !== null ? parsed as Record<string, string> : {}
  } catch {
    return {}
  }
}

/** The token stored for the server at `url`, if any. */
export const load = (url: string) =>
  Effect.map(directory, (dir) => Option.fromNullishOr(readAll(join(dir, "credentials.json"))[key(url)]))

/** Stores `token` for the server at `url`; the file where it went. */
export const save = (url: string, token: string) =>
  Effect.flatMap(directory, (dir) =>
    Effect.sync(() => {
      mkdirSync(dir, { recursive: true, mode: 0o700 })
      const file = join(dir, "credentials.json")
      writeFileSync(file, JSON.stringify({ ...readAll(file), [key(url)]: token }, null, 2), { mode: 0o600 })
      return file
    }))
