/**
 * A remote made ready for git: its URL and branch checked, its credentials taken out of the URL
 * (they reach git only through the askpass program), and for http(s) the address checks of
 * OutboundFetch, the checked address pinned so that git connects to it and no other.
 */
import { Effect } from "effect"
import { parseAllowList, permittedAddresses, type ResolvedAddress } from "@quire/outbound"
import * as dns from "node:dns"
import { type GitError, GitRemoteRefused, GitUnreachable } from "../domain/GitErrors.ts"
import { type GitRemote, isBranchRef } from "../GitTransport.ts"
import { Redact } from "@quire/kernel"

/** A remote ready for git: the URL without credentials, the credentials apart, and settings to pin its address. */
export interface Prepared {
  readonly url: string
  readonly redacted: string
  readonly ref: string
  readonly username: string
  readonly password: string
  readonly file: boolean
  readonly config: ReadonlyArray<readonly [string, string]>
}

/** Which remotes may be used, and how host names are resolved. */
export interface RemotesOptions {
  readonly allowFile: boolean
  /** Non-public hosts, addresses or networks http(s) remotes may reach, as `QUIRE_FETCH_ALLOW`. */
  readonly allow: ReadonlyArray<string>
  /** Resolves host names; node's `dns.lookup` by default. */
  readonly resolve?: ((hostname: string) => Promise<ReadonlyArray<ResolvedAddress>>) | undefined
}

const isLocalhostName = (hostname: string) => hostname === "localhost" || hostname.endsWith(".localhost")

const defaultResolve = async (hostname: string): Promise<ReadonlyArray<ResolvedAddress>> => {
  const found = await dns.promises.lookup(hostname, { all: true, verbatim: true })
  return found.map(({ address, family }) => ({ address, family: family === 6 ? 6 : 4 }))
}

/** Checks a remote and works out how git reaches it: no credentials in the URL, the checked address pinned. */
export const makePrepare = (options: RemotesOptions) => {
  const resolveHost = options.resolve ?? defaultResolve
  const allow = parseAllowList(options.allow)
  return (remote: GitRemote): Effect.Effect<Prepared, GitError> =>
    Effect.gen(function*() {
      const redacted = Redact.url(remote.url)
      const refuse = (reason: GitRemoteRefused["reason"], detail: string) => new GitRemoteRefused({ url: redacted, reason, detail })
      if (!URL.canParse(remote.url)) return yield* refuse("invalid-url", `Not a URL: ${redacted}`)
      if (!isBranchRef(remote.ref)) return yield* refuse("invalid-ref", `${remote.ref} is not a branch (refs/heads/<name>)`)
      const parsed = new URL(remote.url)
      const username = decodeURIComponent(parsed.username)
      const password = decodeURIComponent(parsed.password)
      const url = Redact.withoutCredentials(remote.url)
      const base = { url, redacted, ref: remote.ref, username, password }
      if (parsed.protocol === "file:") {
        if (!options.allowFile) return yield* refuse("protocol", "file:// remotes are not allowed (QUIRE_GIT_ALLOW_FILE=1 allows them)")
        if (parsed.host !== "" || parsed.search !== "" || parsed.hash !== "") return yield* refuse("invalid-url", `Not a local file URL: ${redacted}`)
        return { ...base, file: true, config: [] }
      }
      if (parsed.protocol !== "https:" && parsed.protocol !== "http:") {
        return yield* refuse("protocol", `Only https and http remotes are supported, not ${parsed.protocol}`)
      }
      if (parsed.search !== "" || parsed.hash !== "") return yield* refuse("invalid-url", `A remote URL has no query or fragment: ${redacted}`)
      const hostname = parsed.hostname.replace(/^\[|\]$/g, "").toLowerCase().replace(/\.$/, "")
      const port = parsed.port === "" ? (parsed.protocol === "https:" ? "443" : "80") : parsed.port
      let addresses: ReadonlyArray<ResolvedAddress>
      const literal = /^[0-9.]+$/.test(hostname) || hostname.includes(":")
      if (literal) addresses = [{ address: hostname, family: hostname.includes(":") ? 6 : 4 }]
      else if (isLocalhostName(hostname)) addresses = [{ address: "127.0.0.1", family: 4 }, { address: "::1", family: 6 }]
      else {
        addresses = yield* Effect.tryPromise({
          try: () => resolveHost(hostname),
          catch: () => new GitUnreachable({ url: redacted, reason: `could not resolve host ${hostname}` })
        })
      }
      if (addresses.length === 0) return yield* new GitUnreachable({ url: redacted, reason: `${hostname} has no address` })
      const [permitted] = permittedAddresses(hostname, addresses, allow)
      if (permitted === undefined) {
        return yield* refuse("blocked", `${hostname} is not a public address; QUIRE_FETCH_ALLOW can allow it`)
      }
      // curl connects to the address that was checked, not to whatever a second lookup answers
      // (keyed by the host exactly as git sends it, trailing dot included).
      const config: Array<readonly [string, string]> = literal
        ? []
        : [["http.curloptResolve", `${parsed.hostname}:${port}:${permitted.family === 6 ? `[${permitted.address}]` : permitted.address}`]]
      return { ...base, file: false, config }
    })
}
