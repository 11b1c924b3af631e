/**
 * Who has an embedded data directory open. PGlite takes no lock a second process would see (its
 * `postmaster.pid` names no process, and a second PGlite opens the same files and corrupts them),
 * so the process that opens a data directory records itself in `quire-owner.json` there, created
 * exclusively and removed when it closes it; another process finds it and is refused, naming the
 * owner. A file left by a process that is gone (a crash) is taken over.
 */
import { Processes } from "@quire/kernel"
import { Effect } from "effect"
import { readFileSync, unlinkSync, writeFileSync } from "node:fs"
import { hostname } from "node:os"
import { join } from "node:path"

/** The owner file's name inside the data directory. */
export const ownerFileName = "quire-owner.json"

/** What the owner file says of the process that holds the directory. */
export interface Owner {
  readonly pid: number
  readonly host: string
  /** The command line it runs (`node …/server.mjs`, `quire db migrate`). */
  readonly command: string
  readonly since: string
  /** When the process started (ms): the same pid again after a restart (a container's pid 1) is another process. */
  readonly started: number
}

/** The directory is open in another process: `owner` says which. */
export class InUse extends Error {
  override readonly name = "InUse"
  constructor(readonly dataDir: string, readonly owner: Owner) {
    super(
      `The embedded database in ${dataDir} is open in process ${owner.pid} on ${owner.host} (${owner.command}, since ${owner.since}): ` +
        `a running Quire server or command has it, and a second process on the same files would corrupt them. Stop it first ` +
        `(for a copy of a running server's database, use \`quire db backup\`); if that process is not Quire, ` +
        `delete ${join(dataDir, ownerFileName)}`
    )
  }
}

const readOwner = (file: string): Owner | undefined => {
  try {
    const parsed = JSON.parse(readFileSync(file, "utf8")) as Partial<Owner>
    return typeof parsed.pid === "number" && typeof parsed.host === "string"
      ? { pid: parsed.pid, host: parsed.host, command: String(parsed.command ?? "?"), since: String(parsed.since ?? "?"), started: Number(parsed.started ?? 0) }
      : undefined
  } catch {
    return undefined
  }
}

/**
 * Records this process as the owner of `dataDir` until the scope closes, or fails with `InUse`
 * when a live process (or one on another host, which cannot be checked) owns it. A directory this
 * process already owns (a second layer over it in this process) is left to that owner.
 */
export const own = (dataDir: string): Effect.Effect<void, InUse, import("effect").Scope.Scope> =>
  Effect.acquireRelease(
    Effect.suspend(() => {
      const file = join(dataDir, ownerFileName)
      const started = Math.round(performance.timeOrigin)
      const me: Owner = { pid: process.pid, host: hostname(), command: process.argv.slice(1).join(" ").slice(0, 300), since: new Date().toISOString(), started }
      const text = `${JSON.stringify(me)}\n`
      for (let attempt = 0; attempt < 3; attempt++) {
        try {
          writeFileSync(file, text, { flag: "wx" })
          return Effect.succeed(text)
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== "EEXIST") return Effect.die(error)
        }
        const owner = readOwner(file)
        const sameHost = owner !== undefined && owner.host === me.host
        if (sameHost && owner.pid === me.pid && Math.abs(owner.started - started) < 1000) return Effect.succeed(undefined)
        if (owner !== undefined && (!sameHost || (owner.pid !== me.pid && Processes.alive(owner.pid)))) return Effect.fail(new InUse(dataDir, owner))
        // Left by a process that is gone (or half written by one that died writing it).
        try {
          unlinkSync(file)
        } catch {
          // Another process took it over first: the next attempt sees its file.
        }
      }
      return Effect.die(new Error(`Cannot record this process as the owner of ${dataDir}`))
    }),
    (written) =>
      Effect.sync(() => {
        if (written === undefined) return
        const file = join(dataDir, ownerFileName)
        try {
          // Only this process's own record: never one another process wrote since.
          if (readFileSync(file, "utf8") === written) unlinkSync(file)
        } catch {
          // Already gone.
        }
      })
  ).pipe(Effect.asVoid)
