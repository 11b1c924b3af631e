/**
 * GitBook's custom hostnames and subdomains (issue 61): GitBook's client reads a site's hostname,
 * checks its DNS again and removes it, against a DNS server of the test's own on loopback whose
 * records the test changes: no record, a CNAME elsewhere, a CNAME to the target, A records among
 * the target's addresses. Editors of the site check, admins remove, outsiders learn nothing.
 */
import { assert, layer } from "@effect/vitest"
import { GitBookAPI } from "@gitbook/api"
import { Effect } from "effect"
import { afterAll } from "vitest"
import { baseUrl, errorCode, memoryAndPostgres, newUser, organizationWith, raw, withSettings } from "./Harness.ts"
import { type DnsRecords, startDns } from "./LocalDns.ts"

type Reply<A> = Promise<{ data: A; status: number }>
interface Hostname {
  readonly object: string
  readonly hostname: string
  readonly target: { readonly type: string; readonly site: string }
  readonly isActive: boolean
  readonly status?: string
  readonly dns?: { readonly target: string; readonly found: ReadonlyArray<string> }
  readonly urls: { readonly location: string }
}
/** The part of GitBook's client this test uses. */
interface GitBookClient {
  readonly customHostnames: {
    getCustomHostname(hostname: string): Reply<Hostname>
    dnsRevalidateCustomHostname(hostname: string): Reply<unknown>
    removeCustomHostname(hostname: string): Reply<unknown>
  }
  readonly subdomains: {
    getSubdomain(subdomain: string): Reply<{ object: string; subdomain: string; target: { type: string; organization: string }; isActive: boolean }>
  }
}

const records = new Map<string, DnsRecords>()
const dns = await startDns(records)
afterAll(() => dns.close())
const target = "sites.quire-dns.test"
records.set(target, { a: ["203.0.113.7"] })
const settings = { QUIRE_DNS_SERVERS: dns.server, QUIRE_CUSTOM_HOSTNAME_TARGET: target }

let n = 0
/** An organization with a reader and an editor, a site of it, and `hostname` (new each time) on that site. */
const siteWithHostname = Effect.fnUntraced(function*() {
  const organization = yield* organizationWith(["read", "edit"])
  const { alice, organizationId } = organization
  const site = yield* alice.api.sites.createSite({ params: { organizationId }, payload: { title: "Docs" } })
  const hostname = `docs${++n}${Date.now()}.acme-dns.test`
  yield* alice.api.sites.updateSiteById({ params: { organizationId, siteId: site.id }, payload: { hostname } })
  return { ...organization, siteId: site.id, hostname }
})

for (const backend of memoryAndPostgres) {
  layer(withSettings(backend.layer, settings), { timeout: 120_000, excludeTestServices: true })(`custom hostnames on ${backend.name}`, (it) => {
    it.effect("GitBook's client reads a hostname, checks its DNS again as the records change, and removes it", () =>
      Effect.gen(function*() {
        const { alice, organizationId, siteId, hostname } = yield* siteWithHostname()
        const gitbook = new GitBookAPI({ endpoint: yield* baseUrl, authToken: alice.token }) as unknown as GitBookClient
        const { customHostnames } = gitbook
        const statusNow = () => Effect.promise(async () => {
          const revalidated = await customHostnames.dnsRevalidateCustomHostname(hostname)
          assert.strictEqual(revalidated.status, 204)
          return (await customHostnames.getCustomHostname(hostname)).data
        })

        const unchecked = yield* Effect.promise(() => customHostnames.getCustomHostname(hostname))
        assert.strictEqual(unchecked.data.object, "custom-hostname")
        assert.strictEqual(unchecked.data.hostname, hostname)
        assert.deepStrictEqual(unchecked.data.target, { type: "site", site: siteId })
        assert.isFalse(unchecked.data.isActive)
        assert.isUndefined(unchecked.data.status)
        assert.match(unchecked.data.urls.location, new RegExp(`/v1/custom-hostnames/${hostname}$`))

        const none = yield* statusNow()
        assert.strictEqual(none.status, "dns_no_cname")
        assert.isFalse(none.isActive)

        records.set(hostname, { cname: "elsewhere.example.net" })
        const wrong = yield* statusNow()
        assert.strictEqual(wrong.status, "dns_wrong_cname")
        assert.deepStrictEqual(wrong.dns?.found, ["elsewhere.example.net"])
        assert.strictEqual(wrong.dns?.target, target)

        records.set(hostname, { cname: target })
        const live = yield* statusNow()
        assert.strictEqual(live.status, "live")
        assert.isTrue(live.isActive)

        // A records are fine too, when they are the target's own addresses.
        records.set(hostname, { a: ["198.51.100.1"] })
        assert.strictEqual((yield* statusNow()).status, "dns_wrong_cname")
        records.set(hostname, { a: ["203.0.113.7"] })
        assert.strictEqual((yield* statusNow()).status, "live")

        const removed = yield* Effect.promise(() => customHostnames.removeCustomHostname(hostname))
        assert.strictEqual(removed.status, 204)
        const site = yield* alice.api.sites.getSiteById({ params: { organizationId, siteId } })
        assert.isUndefined(site.hostname)
        const gone = yield* Effect.promise(() => customHostnames.getCustomHostname(hostname).then(() => 200, (e: { code?: number; message: string }) => e.code ?? e.message))
        assert.strictEqual(gone, 404)
        const again = yield* Effect.promise(() => customHostnames.removeCustomHostname(hostname))
        assert.strictEqual(again.status, 204)
      }))

    it.effect("members read the status, the site's admins check and remove it; outsiders get 404 and change nothing", () =>
      Effect.gen(function*() {
        const { alice, organizationId, members, siteId, hostname } = yield* siteWithHostname()
        records.set(hostname, { cname: target })
        const reader = members.read!
        const editor = members.edit!
        assert.strictEqual((yield* reader.api.customHostnames.getCustomHostname({ params: { hostname } })).hostname, hostname)
        assert.strictEqual(errorCode(yield* Effect.flip(reader.api.customHostnames.dnsRevalidateCustomHostname({ params: { hostname } }))), 403)
        // An organization editor reads a site but edits it only when granted a site role: the site's admins check it.
        assert.strictEqual(errorCode(yield* Effect.flip(editor.api.customHostnames.dnsRevalidateCustomHostname({ params: { hostname } }))), 403)
        yield* alice.api.customHostnames.dnsRevalidateCustomHostname({ params: { hostname } })
        assert.strictEqual((yield* reader.api.customHostnames.getCustomHostname({ params: { hostname } })).status, "live")
        assert.strictEqual(errorCode(yield* Effect.flip(reader.api.customHostnames.removeCustomHostname({ params: { hostname } }))), 403)

        const outsider = yield* newUser("Mallory")
        assert.strictEqual(errorCode(yield* Effect.flip(outsider.api.customHostnames.getCustomHostname({ params: { hostname } }))), 404)
        assert.strictEqual(errorCode(yield* Effect.flip(outsider.api.customHostnames.dnsRevalidateCustomHostname({ params: { hostname } }))), 404)
        // A removal by an outsider answers as for a hostname nobody holds, and removes nothing.
        yield* outsider.api.customHostnames.removeCustomHostname({ params: { hostname } })
        const site = yield* alice.api.sites.getSiteById({ params: { organizationId, siteId } })
        assert.strictEqual(site.hostname, hostname)
        const anonymous = yield* raw("GET", `/v1/custom-hostnames/${hostname}`)
        assert.strictEqual(anonymous.status, 401)
        const unknown = yield* alice.api.customHostnames.getCustomHostname({ params: { hostname: "nobody.acme-dns.test" } }).pipe(Effect.flip)
        assert.strictEqual(errorCode(unknown), 404)
      }))

    it.effect("GitBook's client reads a subdomain of the caller's organization; others' and bad ones are not found or refused", () =>
      Effect.gen(function*() {
        const { alice, organizationId } = yield* organizationWith()
        const label = `acme${++n}${Date.now() % 100000}`
        yield* alice.api.organizations.updateOrganizationById({ params: { organizationId }, payload: { hostname: label } })
        const gitbook = new GitBookAPI({ endpoint: yield* baseUrl, authToken: alice.token }) as unknown as GitBookClient
        const found = yield* Effect.promise(() => gitbook.subdomains.getSubdomain(label))
        assert.deepStrictEqual(found.data, { object: "subdomain", subdomain: label, target: { type: "organization", organization: organizationId }, isActive: true })
        const outsider = yield* newUser("Mallory")
        assert.strictEqual(errorCode(yield* Effect.flip(outsider.api.customHostnames.getSubdomain({ params: { subdomain: label } }))), 404)
        const bad = yield* raw("GET", "/v1/subdomains/-Bad_Label", { token: alice.token })
        assert.strictEqual(bad.status, 400)
        assert.include(JSON.stringify(bad.body), "subdomain")
      }))
  })
}
