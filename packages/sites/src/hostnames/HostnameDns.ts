/**
 * Port: whether a custom hostname's DNS points at this server: a CNAME to the configured target
 * (`QUIRE_CUSTOM_HOSTNAME_TARGET`, else the public URL's host the caller gives), or A records among
 * the target's addresses (`QUIRE_CUSTOM_HOSTNAME_ADDRESSES`, else the target's own A records). The
 * adapter asks node's resolver, of `QUIRE_DNS_SERVERS` (`host[:port]`, comma-separated) when set.
 */
import { Config, Context, Effect, Layer, Option } from "effect"
import { Resolver } from "node:dns/promises"

/** What a check found, as GitBook's `CustomHostnameStatus` names it; `live` once the DNS points here. */
export type DnsStatus = "live" | "dns_wrong_cname" | "dns_no_cname" | "internal_error"

export interface DnsCheck {
  readonly status: DnsStatus
  /** The target the DNS should name. */
  readonly target: string
  /** What the DNS names instead (CNAME targets or addresses), for the screen to show. */
  readonly found: ReadonlyArray<string>
}

export interface HostnameDnsShape {
  readonly check: (hostname: string, defaultTarget: string) => Effect.Effect<DnsCheck>
}

const bare = (name: string) => name.toLowerCase().replace(/\.$/, "")

const codeOf = (error: unknown) => typeof error === "object" && error !== null && "code" in error ? String(error.code) : ""
const missing = new Set(["ENODATA", "ENOTFOUND", "NOTFOUND", "ENONAME"])

/** The check over a resolver (its servers already set). */
export const checkWith = (resolver: Resolver, settings: { readonly target: Option.Option<string>; readonly addresses: ReadonlyArray<string> }) =>
  (hostname: string, defaultTarget: string): Effect.Effect<DnsCheck> =>
    Effect.promise(async (): Promise<DnsCheck> => {
      const target = bare(Option.getOrElse(settings.target, () => defaultTarget))
      const lookup = async (f: () => Promise<Array<string>>): Promise<Array<string> | "missing" | "failed"> => {
        try {
          return await f()
        } catch (error) {
          return missing.has(codeOf(error)) ? "missing" : "failed"
        }
      }
      const cnames = await lookup(() => resolver.resolveCname(hostname))
      if (Array.isArray(cnames) && cnames.length > 0) {
        const names = cnames.map(bare)
        return { status: names.includes(target) ? "live" : "dns_wrong_cname", target, found: names }
      }
      const addresses = await lookup(() => resolver.resolve4(hostname))
      if (addresses === "failed" || cnames === "failed") return { status: "internal_error", target, found: [] }
      if (addresses === "missing" || addresses.length === 0) return { status: "dns_no_cname", target, found: [] }
      const wanted = settings.addresses.length > 0 ? settings.addresses : await lookup(() => resolver.resolve4(target))
      const ok = Array.isArray(wanted) && addresses.some((a) => wanted.includes(a))
      return { status: ok ? "live" : "dns_wrong_cname", target, found: addresses }
    })

export class HostnameDns extends Context.Service<HostnameDns, HostnameDnsShape>()("@quire/sites/HostnameDns") {
  /** From the environment: QUIRE_DNS_SERVERS, QUIRE_CUSTOM_HOSTNAME_TARGET, QUIRE_CUSTOM_HOSTNAME_ADDRESSES. */
  static readonly layerConfig = Layer.effect(
    HostnameDns,
    Effect.gen(function*() {
      const list = (name: string) =>
        Config.String(name).pipe(
          Config.withDefault(""),
          Config.map((text) => text.split(",").map((s) => s.trim()).filter((s) => s !== ""))
        )
      const servers = yield* list("QUIRE_DNS_SERVERS")
      const addresses = yield* list("QUIRE_CUSTOM_HOSTNAME_ADDRESSES")
      const target = yield* Config.String("QUIRE_CUSTOM_HOSTNAME_TARGET").pipe(
        Config.option,
        Config.map(Option.filter((t) => t.trim() !== ""))
      )
      const resolver = new Resolver({ timeout: 3000, tries: 2 })
      if (servers.length > 0) resolver.setServers(servers)
      return HostnameDns.of({ check: checkWith(resolver, { target, addresses }) })
    }).pipe(Effect.orDie)
  )
}
