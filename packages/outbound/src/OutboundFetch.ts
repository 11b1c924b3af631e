/**
 * The one way Quire fetches URLs that users give it (website imports, files uploaded by URL):
 * http(s) only, public addresses only unless allow-listed, connected to the very address that was
 * checked, at most 5 redirects (each one checked again), a time limit and a size limit.
 */
import { Config, Context, Duration, Effect, Layer, Schema } from "effect"
import * as dns from "node:dns"
import * as http from "node:http"
import * as https from "node:https"
import type { LookupFunction } from "node:net"
import ipaddr from "ipaddr.js"

/** Why an outbound fetch did not return a body. */
export const OutboundFetchReason = Schema.Literals(["blocked", "timeout", "too-large", "http", "network", "invalid-url"])

/** An outbound fetch that was refused or failed. */
export class OutboundFetchError extends Schema.TaggedError<OutboundFetchError>()("OutboundFetchError", {
  reason: OutboundFetchReason,
  message: Schema.String
}) {}

/** Limits of one fetch. */
export interface FetchOptions {
  /** The largest body accepted; a larger one aborts the transfer. */
  readonly maxBytes: number
  /** For the whole fetch, redirects included. */
  readonly timeout: Duration.Input
  /** Headers of the request (an API's token, its `accept`), sent to the URL's origin only, never after a redirect elsewhere. */
  readonly headers?: Readonly<Record<string, string>> | undefined
}

/** A fetched resource, after redirects. */
export interface FetchedResource {
  /** The final URL, after redirects. */
  readonly url: string
  readonly status: number
  /** The `Content-Type` header, `""` when absent. */
  readonly contentType: string
  readonly body: Uint8Array
}

/** A resolved address of a host name. */
export interface ResolvedAddress {
  readonly address: string
  readonly family: 4 | 6
}

/** Options of {@link OutboundFetch.layer}. */
export interface OutboundFetchOptions {
  /** Host names (`docs.internal`, `*.corp.example`), addresses (`127.0.0.1`, `::1`) or CIDRs (`10.0.0.0/8`) let through. */
  readonly allow: ReadonlyArray<string>
  /** Resolves host names; node's `dns.lookup` by default. */
  readonly resolve?: (hostname: string) => Promise<ReadonlyArray<ResolvedAddress>>
}

/** Fetches user-given URLs from the public internet, refusing private and other non-public addresses. */
export class OutboundFetch extends Context.Service<OutboundFetch, {
  /** GETs `url`, following up to 5 redirects. Non-2xx answers fail with reason `http`. */
  readonly get: (url: string, options: FetchOptions) => Effect.Effect<FetchedResource, OutboundFetchError>
  /**
   * Whether `get` would connect to `url` now, without connecting: `invalid-url` or `blocked` as
   * `get` refuses them; `network` when the host does not resolve (it may later), `timeout` after 5 s.
   * For URLs stored to be fetched later (a site's MCP servers), refused when they are given.
   */
  readonly check: (url: string) => Effect.Effect<void, OutboundFetchError>
}>()("@quire/outbound/OutboundFetch") {
  /** The guard with an explicit allow-list (empty: public addresses only). */
  static readonly layer = (options: OutboundFetchOptions): Layer.Layer<OutboundFetch> =>
    Layer.succeed(OutboundFetch, OutboundFetch.of(makeGuard(options)))

  /** The guard with the allow-list from `QUIRE_FETCH_ALLOW` (comma-separated; unset: public addresses only). */
  static readonly layerConfig: Layer.Layer<OutboundFetch, Config.ConfigError> = Layer.unwrap(
    Effect.gen(function*() {
      const allow = yield* Config.String("QUIRE_FETCH_ALLOW").pipe(Config.withDefault(""))
      return OutboundFetch.layer({ allow: allow.split(",").map((entry) => entry.trim()).filter((entry) => entry !== "") })
    })
  )
}

// Addresses -----------------------------------------------------------------------------------------

type Address = ipaddr.IPv4 | ipaddr.IPv6

/** An address in the form its checks apply to: IPv4-mapped IPv6 (`::ffff:127.0.0.1`) as IPv4. */
const parseAddress = (text: string): Address | undefined => {
  const bare = text.startsWith("[") && text.endsWith("]") ? text.slice(1, -1) : text
  return ipaddr.isValid(bare) ? ipaddr.process(bare) : undefined
}

/** Whether `address` (IPv4 or IPv6) is a public unicast address; loopback, private, link-local, multicast... are not. */
export const isPublicAddress = (address: string): boolean => {
  const parsed = parseAddress(address)
  if (parsed === undefined) return false
  if (parsed.kind() === "ipv6" && (parsed as ipaddr.IPv6).parts.slice(0, 6).every((part) => part === 0)) {
    // ::/96, the deprecated IPv4-compatible form, and the unspecified and loopback addresses.
    return false
  }
  return parsed.range() === "unicast"
}

/** A parsed allow-list. */
export interface AllowList {
  readonly hosts: ReadonlyArray<string>
  readonly networks: ReadonlyArray<[Address, number]>
}

/** Reads allow-list entries: host names (`*.` for subdomains), addresses and CIDRs. */
export const parseAllowList = (entries: ReadonlyArray<string>): AllowList => {
  const hosts: Array<string> = []
  const networks: Array<[Address, number]> = []
  for (const raw of entries) {
    const entry = raw.trim().toLowerCase()
    if (entry === "") continue
    const bare = entry.startsWith("[") && entry.endsWith("]") ? entry.slice(1, -1) : entry
    if (ipaddr.isValidCIDR(bare)) {
      const [network, bits] = ipaddr.parseCIDR(bare)
      networks.push(network.kind() === "ipv6" && (network as ipaddr.IPv6).isIPv4MappedAddress() && bits >= 96
        ? [(network as ipaddr.IPv6).toIPv4Address(), bits - 96]
        : [network, bits])
    } else if (ipaddr.isValid(bare)) {
      const address = ipaddr.process(bare)
      networks.push([address, address.kind() === "ipv4" ? 32 : 128])
    } else {
      hosts.push(entry.replace(/\.$/, ""))
    }
  }
  return { hosts, networks }
}

const hostAllowed = (hostname: string, allow: AllowList): boolean =>
  allow.hosts.some((entry) =>
    entry.startsWith("*.") ? hostname.endsWith(entry.slice(1)) : hostname === entry
  )

const addressAllowed = (address: string, allow: AllowList): boolean => {
  const parsed = parseAddress(address)
  if (parsed === undefined) return false
  if (isPublicAddress(address)) return true
  return allow.networks.some(([network, bits]) => network.kind() === parsed.kind() && parsed.match(network, bits))
}

/**
 * The addresses of `hostname` that may be connected to: all of them for an allow-listed name, else the
 * public and allow-listed ones. Empty means the host is refused.
 */
export const permittedAddresses = <A extends { readonly address: string }>(
  hostname: string,
  addresses: ReadonlyArray<A>,
  allow: AllowList
): ReadonlyArray<A> =>
  hostAllowed(hostname.toLowerCase(), allow) ? addresses : addresses.filter((a) => addressAllowed(a.address, allow))

// Fetching ------------------------------------------------------------------------------------------

const maxRedirects = 5

const fail = (reason: OutboundFetchError["reason"], message: string) => new OutboundFetchError({ reason, message })

const defaultResolve = async (hostname: string): Promise<ReadonlyArray<ResolvedAddress>> => {
  const found = await dns.promises.lookup(hostname, { all: true, verbatim: true })
  return found.map(({ address, family }) => ({ address, family: family === 6 ? 6 : 4 }))
}

// RFC 6761: `localhost` names are loopback, whatever a resolver says.
const isLocalhostName = (hostname: string) => hostname === "localhost" || hostname.endsWith(".localhost")

const parseUrl = (url: string): Effect.Effect<URL, OutboundFetchError> => {
  if (!URL.canParse(url)) return Effect.fail(fail("invalid-url", `Not a URL: ${url}`))
  const parsed = new URL(url)
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    return Effect.fail(fail("invalid-url", `Only http and https URLs can be fetched, not ${parsed.protocol}`))
  }
  return Effect.succeed(parsed)
}

type Hop =
  | { readonly kind: "redirect"; readonly location: string }
  | { readonly kind: "done"; readonly resource: FetchedResource }

/** A DNS lookup that always answers `pinned`: the socket goes to the address that was checked. */
const pinnedLookup = (pinned: ResolvedAddress): LookupFunction => (_hostname, lookupOptions, callback) => {
  if (lookupOptions.all === true) callback(null, [{ address: pinned.address, family: pinned.family }])
  else callback(null, pinned.address, pinned.family)
}

/** One GET, without following redirects: the body, or where to go next. */
const request = (url: URL, pinned: ResolvedAddress, maxBytes: number, extra: Readonly<Record<string, string>> = {}) =>
  Effect.callback<Hop, OutboundFetchError>((resume, signal) => {
    let settled = false
    const settle = (effect: Effect.Effect<Hop, OutboundFetchError>) => {
      if (settled) return
      settled = true
      resume(effect)
    }
    const client = url.protocol === "https:" ? https : http
    const req = client.request(url, {
      method: "GET",
      agent: false,
      lookup: pinnedLookup(pinned),
      signal,
      headers: { "accept": "text/html, */*;q=0.8", "user-agent": "Quire (+import)", ...extra, "accept-encoding": "identity" }
    }, (res) => {
      const status = res.statusCode ?? 0
      const location = res.headers.location
      if (status >= 300 && status < 400 && status !== 304 && location !== undefined) {
        res.resume()
        req.destroy()
        return settle(Effect.succeed({ kind: "redirect", location }))
      }
      if (status < 200 || status >= 300) {
        req.destroy()
        return settle(Effect.fail(fail("http", `${url.href} answered ${status}`)))
      }
      const declared = Number(res.headers["content-length"])
      if (Number.isFinite(declared) && declared > maxBytes) {
        req.destroy()
        return settle(Effect.fail(fail("too-large", `${url.href} is larger than ${maxBytes} bytes`)))
      }
      const chunks: Array<Buffer> = []
      let size = 0
      res.on("data", (chunk: Buffer) => {
        size += chunk.length
        if (size > maxBytes) {
          req.destroy()
          return settle(Effect.fail(fail("too-large", `${url.href} is larger than ${maxBytes} bytes`)))
        }
        chunks.push(chunk)
      })
      res.on("end", () =>
        settle(Effect.succeed({
          kind: "done",
          resource: {
            url: url.href,
            status,
            contentType: res.headers["content-type"] ?? "",
            body: new Uint8Array(Buffer.concat(chunks))
          }
        })))
      res.on("error", (error) => settle(Effect.fail(fail("network", `${url.href}: ${error.message}`))))
    })
    req.on("error", (error) => settle(Effect.fail(fail("network", `${url.href}: ${error.message}`))))
    req.end()
  })

const makeGuard = (options: OutboundFetchOptions) => {
  const allow = parseAllowList(options.allow)
  const resolve = options.resolve ?? defaultResolve

  /** The address to connect to for `url`, once it has passed the checks. */
  const checkedAddress = Effect.fnUntraced(function*(url: URL) {
    const hostname = url.hostname.replace(/^\[|\]$/g, "").toLowerCase().replace(/\.$/, "")
    const literal = parseAddress(hostname)
    let addresses: ReadonlyArray<ResolvedAddress>
    if (literal !== undefined) {
      addresses = [{ address: literal.toString(), family: literal.kind() === "ipv4" ? 4 : 6 }]
    } else if (isLocalhostName(hostname)) {
      addresses = [{ address: "127.0.0.1", family: 4 }, { address: "::1", family: 6 }]
    } else {
      addresses = yield* Effect.tryPromise({
        try: () => resolve(hostname),
        catch: () => fail("network", `Could not resolve ${hostname}`)
      })
    }
    if (addresses.length === 0) return yield* fail("network", `${hostname} has no address`)
    // Any permitted address will do: the connection is pinned to the one returned here.
    const [permitted] = permittedAddresses(hostname, addresses, allow)
    if (permitted === undefined) {
      const where = literal === undefined ? `${hostname} (${addresses.map((a) => a.address).join(", ")})` : hostname
      return yield* fail("blocked", `${where} is not a public address; QUIRE_FETCH_ALLOW can allow it`)
    }
    return permitted
  })

  const check = (url: string): Effect.Effect<void, OutboundFetchError> =>
    Effect.flatMap(parseUrl(url), checkedAddress).pipe(
      Effect.asVoid,
      Effect.timeoutOrElse({ duration: "5 seconds", orElse: () => Effect.fail(fail("timeout", `Resolving ${url} took longer than 5 seconds`)) })
    )

  const get = (url: string, fetchOptions: FetchOptions): Effect.Effect<FetchedResource, OutboundFetchError> =>
    Effect.gen(function*() {
      let current = yield* parseUrl(url)
      const origin = current.origin
      for (let redirects = 0; ; redirects++) {
        const pinned = yield* checkedAddress(current)
        const hop = yield* request(current, pinned, fetchOptions.maxBytes, current.origin === origin ? fetchOptions.headers : undefined)
        if (hop.kind === "done") return hop.resource
        if (redirects === maxRedirects) return yield* fail("http", `More than ${maxRedirects} redirects from ${url}`)
        if (!URL.canParse(hop.location, current.href)) return yield* fail("http", `Bad redirect to ${hop.location}`)
        current = yield* parseUrl(new URL(hop.location, current).href)
      }
    }).pipe(
      Effect.timeoutOrElse({
        duration: fetchOptions.timeout,
        orElse: () => Effect.fail(fail("timeout", `${url} took longer than ${Duration.format(Duration.fromInputUnsafe(fetchOptions.timeout))}`))
      }),
      Effect.withSpan("OutboundFetch.get", { attributes: { url } })
    )

  return { get, check }
}
