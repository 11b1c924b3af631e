/**
 * Servers on one database relay each other's updates and awareness through Redis
 * (`QUIRE_REDIS_URL`): Hocuspocus's Redis extension, whose store skipped for another server's lock
 * is tried again.
 */
import { Redis } from "@hocuspocus/extension-redis"
import { SkipFurtherHooksError } from "@hocuspocus/common"
import type { Extension, onStoreDocumentPayload } from "@hocuspocus/server"
import { Option } from "effect"
import type { ServerState } from "./Hooks.ts"

/** `ioredis` settings of a `redis://[user:password@]host[:port][/db]` URL. */
const redisSettings = (url: string) => {
  const parsed = new URL(url)
  return {
    host: parsed.hostname,
    port: parsed.port === "" ? 6379 : Number(parsed.port),
    options: {
      ...(parsed.username === "" ? {} : { username: decodeURIComponent(parsed.username) }),
      ...(parsed.password === "" ? {} : { password: decodeURIComponent(parsed.password) }),
      db: parsed.pathname.length > 1 ? Number(parsed.pathname.slice(1)) : 0,
      ...(parsed.protocol === "rediss:" ? { tls: {} } : {})
    }
  }
}

/**
 * The extension skips a store while another server holds the document's lock, and that server
 * may be writing a state without this server's last edits: nothing else would store them.
 */
class RetriedRedis extends Redis {
  constructor(configuration: ConstructorParameters<typeof Redis>[0], private readonly state: ServerState) {
    super(configuration)
  }

  override async onStoreDocument(data: onStoreDocumentPayload): Promise<void> {
    try {
      await super.onStoreDocument(data)
    } catch (error) {
      if (error instanceof SkipFurtherHooksError && !this.state.stopping) {
        setTimeout(() => {
          if (!this.state.stopping && data.instance.documents.get(data.documentName) === data.document) {
            void data.instance.storeDocumentHooks(data.document, data).catch(() => {})
          }
        }, this.configuration.lockTimeout).unref()
      }
      throw error
    }
  }
}

/** The relay through Redis at `redisUrl`, if any (first among the extensions: its store takes the lock). */
export const scaling = (redisUrl: Option.Option<string>, state: ServerState): Array<Extension> =>
  Option.isSome(redisUrl) ? [new RetriedRedis({ ...redisSettings(redisUrl.value), prefix: "quire-collab" }, state)] : []
