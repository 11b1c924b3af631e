/** Which storage Quire runs on, for `/health` and for choosing the job queue. */
import { Context, Layer } from "effect"

export class Storage extends Context.Service<Storage, {
  readonly kind: "embedded" | "postgres" | "memory"
}>()("@quire/platform/Storage") {
  static readonly layer = (kind: Storage["Service"]["kind"]) => Layer.succeed(Storage, Storage.of({ kind }))
}
