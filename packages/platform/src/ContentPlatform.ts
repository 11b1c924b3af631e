/**
 * What the content use cases need from the machine: where file bytes live and which addresses
 * outbound fetches (website imports) may reach, from the server's settings.
 */
import { Config, Effect, Layer } from "effect"
import { resolve } from "node:path"
import { BlobStore } from "@quire/content"
import { OutboundFetch } from "@quire/outbound"

/** File bytes in `${QUIRE_DATA_DIR}/blobs` (default `.quire/data/blobs`), created on first write. */
export const layerBlobStore: Layer.Layer<BlobStore> = Layer.unwrap(Effect.gen(function*() {
  const configured = yield* Config.String("QUIRE_DATA_DIR").pipe(Config.withDefault(".quire/data"))
  // Relative to where the command was typed, as the embedded database's directory is.
  return BlobStore.layerFileSystem(resolve(process.env.INIT_CWD ?? process.cwd(), configured, "blobs"))
})).pipe(Layer.orDie)

/** Outbound fetches to public addresses, and to those `QUIRE_FETCH_ALLOW` lists. */
export const layerOutboundFetch: Layer.Layer<OutboundFetch> = OutboundFetch.layerConfig.pipe(Layer.orDie)

/** For servers on a database: bytes on disk. */
export const layer = Layer.mergeAll(layerBlobStore, layerOutboundFetch)

/** For servers in memory: bytes in memory too. */
export const layerMemory = Layer.mergeAll(BlobStore.layerMemory, layerOutboundFetch)
