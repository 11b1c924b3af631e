/** What Git sync's use cases (requests, the connection, webhooks) share: their services, the clock, settings. */
import { AuditLog } from "@quire/audit"
import { Clock, Config, Effect } from "effect"
import { ContentAccess } from "@quire/content"
import { Transactor } from "@quire/kernel"
import { JobQueue } from "@quire/queue"
import { GitSyncRepo } from "../GitSyncRepo.ts"
import { SecretBox } from "../SecretBox.ts"

/** Options of the GitSync layer (`GitSync.layerWith`). */
export interface GitSyncOptions {
  /** How long webhook imports and automatic exports wait, so that a burst makes one job (default 3 seconds). */
  readonly debounceMillis?: number
  /** How long a webhook delivery is remembered, so that its replay is ignored (default 30 days). */
  readonly deliveryWindowMillis?: number
}

/**
 * How long after a push or an edit its sync runs, so that a burst makes one: the layer's option,
 * else `QUIRE_GIT_DEBOUNCE_MS` (3 seconds).
 */
export const debounceMillis = (option: number | undefined) =>
  option === undefined ? Effect.orDie(Config.Int("QUIRE_GIT_DEBOUNCE_MS").pipe(Config.withDefault(3000))) : Effect.succeed(option)

/** Built once by the GitSync layer and handed to each group of use cases. */
export const make = (options: GitSyncOptions) =>
  Effect.gen(function*() {
    return {
      access: yield* ContentAccess,
      repo: yield* GitSyncRepo,
      box: yield* SecretBox,
      queue: yield* JobQueue,
      transactor: yield* Transactor.Transactor,
      audit: yield* AuditLog,
      debounce: yield* debounceMillis(options.debounceMillis),
      deliveryWindow: options.deliveryWindowMillis ?? 30 * 24 * 60 * 60 * 1000,
      now: Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))
    }
  })

export type SyncDeps = Effect.Success<ReturnType<typeof make>>
