/** What Git sync's use cases (requests, the connection, webhooks) share: their services, the clock, settings. */
import { Clock, Effect } from "effect"
import { ContentAccess } from "@quire/content"
import { Transactor } from "@quire/kernel"
import { JobQueue } from "@quire/queue"
import type { GitSyncOptions } from "../GitSync.ts"
import { GitSyncRepo } from "../GitSyncRepo.ts"
import { SecretBox } from "../SecretBox.ts"

/** Built once by the GitSync layer and handed to each group of use cases. */
export const make = (options: GitSyncOptions) =>
  Effect.gen(function*() {
    return {
      access: yield* ContentAccess,
      repo: yield* GitSyncRepo,
      box: yield* SecretBox,
      queue: yield* JobQueue,
      transactor: yield* Transactor.Transactor,
      debounce: options.debounceMillis ?? 3000,
      deliveryWindow: options.deliveryWindowMillis ?? 30 * 24 * 60 * 60 * 1000,
      now: Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))
    }
  })

export type SyncDeps = Effect.Success<ReturnType<typeof make>>
