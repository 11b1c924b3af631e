/** The absolute base URL clients reach Quire at: every `urls.*` field is built from it. */
import { Context, Layer } from "effect"

export class PublicUrl extends Context.Service<PublicUrl, {
  readonly base: string
  /** `base` + `/v1` + path. */
  readonly api: (path: string) => string
  /** `base` + path, for pages of the application. */
  readonly app: (path: string) => string
}>()("@quire/server/PublicUrl") {
  static readonly make = (base: string) => {
    const trimmed = base.replace(/\/+$/, "")
    return PublicUrl.of({ base: trimmed, api: (path) => `${trimmed}/v1${path}`, app: (path) => `${trimmed}${path}` })
  }

  static readonly layer = (base: string) => Layer.succeed(PublicUrl, PublicUrl.make(base))
}
