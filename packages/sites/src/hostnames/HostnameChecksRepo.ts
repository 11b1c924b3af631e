/** Port: the last DNS check of each custom hostname (`sites_hostname_checks`), and its in-memory adapter. */
import { Context, Effect, Layer, Option } from "effect"
import { MemoryStore } from "@quire/kernel"
import type { DnsStatus } from "./HostnameDns.ts"

export interface HostnameCheck {
  readonly hostname: string
  /** The site that held the hostname when it was checked: a check of another site's is stale. */
  readonly siteId: string
  readonly status: DnsStatus
  readonly target: string
  readonly found: ReadonlyArray<string>
  readonly checkedAt: Date
}

export interface HostnameChecksRepoShape {
  readonly find: (hostname: string) => Effect.Effect<Option.Option<HostnameCheck>>
  readonly put: (check: HostnameCheck) => Effect.Effect<void>
  readonly remove: (hostname: string) => Effect.Effect<void>
}

export class HostnameChecksRepo extends Context.Service<HostnameChecksRepo, HostnameChecksRepoShape>()("@quire/sites/HostnameChecksRepo") {
  static readonly layerMemory = Layer.sync(HostnameChecksRepo, () => {
    const rows = new MemoryStore.TxMap<string, HostnameCheck>()
    return HostnameChecksRepo.of({
      find: (hostname) => Effect.sync(() => Option.fromNullishOr(rows.get(hostname))),
      put: (check) => Effect.sync(() => void rows.set(check.hostname, check)),
      remove: (hostname) => Effect.sync(() => void rows.delete(hostname))
    })
  })
}
