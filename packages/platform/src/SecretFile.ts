/**
 * Without `QUIRE_SECRET`, the instance's secret is generated once and kept in the data directory
 * (`${QUIRE_DATA_DIR}/secret`, mode 0600), so what it signs (download links, cursors, sessions)
 * survives a restart. Servers on PostgreSQL keep it there too, beside the file bytes.
 */
import { Config, Data, Effect, Layer, Option, Redacted } from "effect"
import { InstanceSecret } from "@quire/kernel"
import { randomBytes } from "node:crypto"
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { join, resolve } from "node:path"

/** The data directory cannot hold the secret (not writable, or the file is not one). */
export class SecretFileError extends Data.TaggedError("SecretFileError")<{ readonly message: string }> {}

/** The file's name inside the data directory. */
export const fileName = "secret"

/** Reads the secret kept in `dataDir`, creating it (64 hex characters, mode 0600) on first use. */
export const loadOrCreate = (dataDir: string): Redacted.Redacted<string> => {
  const file = join(dataDir, fileName)
  mkdirSync(dataDir, { recursive: true })
  try {
    // `wx`: two processes starting together keep the first one's secret.
    writeFileSync(file, `${randomBytes(32).toString("hex")}\n`, { flag: "wx", mode: 0o600 })
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error
  }
  const secret = readFileSync(file, "utf8").trim()
  if (secret.length < 32) throw new Error(`${file} holds no secret: delete it to generate one, or set QUIRE_SECRET`)
  chmodSync(file, 0o600)
  return Redacted.make(secret)
}

/**
 * Provides `StoredSecret` from `QUIRE_DATA_DIR` (default `.quire/data`, relative to where the
 * command was typed) unless `QUIRE_SECRET` is set, in which case nothing is read or written.
 */
export const layer: Layer.Layer<never, Config.ConfigError | SecretFileError> = Layer.unwrap(Effect.gen(function*() {
  const configured = yield* Config.option(Config.Redacted("QUIRE_SECRET"))
  if (Option.isSome(configured)) return Layer.empty
  const dataDir = yield* Config.String("QUIRE_DATA_DIR").pipe(Config.withDefault(".quire/data"))
  const secret = yield* Effect.try({
    try: () => loadOrCreate(resolve(process.env.INIT_CWD ?? process.cwd(), dataDir)),
    catch: (error) => new SecretFileError({ message: `Cannot keep the instance secret in ${dataDir}: ${(error as Error).message}` })
  })
  return Layer.succeed(InstanceSecret.StoredSecret, Option.some(secret))
}))
