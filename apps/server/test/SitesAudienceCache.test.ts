/**
 * Published pages: one audience, one cache entry (issue 18). A condition on each of the visitor
 * JWT's registered claims shows the Beta section to a VIP reader only; every page and machine file
 * another reader (anonymous, or with a token holding other values) then gets is their own, never
 * the VIP's, and no answer shaped by claims is `public`. Visitor tokens must expire, and soon.
 */
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { createHmac } from "node:crypto"
import { Audience, VisitorToken } from "@quire/sites"
import { everyBackend } from "./Harness.ts"
import { get, type Got, publishedSite } from "./SiteFixtures.ts"

const nowSeconds = () => Math.floor(Date.now() / 1000)

const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url")

/** An HS256 JWT of exactly `payload` (no `iat` or `exp` added). */
const rawToken = (payload: Record<string, unknown>, key: string): string => {
  const signed = `${part({ alg: "HS256", typ: "JWT" })}.${part(payload)}`
  return `${signed}.${createHmac("sha256", key).update(signed).digest("base64url")}`
}

/** For each registered claim: a condition the VIP token meets and the other token does not. */
const cases = (now: number): ReadonlyArray<{
  readonly claim: string
  readonly condition: string
  readonly vip: Record<string, unknown>
  readonly other: Record<string, unknown>
}> => [
  { claim: "iss", condition: `visitor.claims.iss === "vip"`, vip: { iss: "vip" }, other: { iss: "basic" } },
  { claim: "aud", condition: `visitor.claims.aud === "vip"`, vip: { aud: "vip" }, other: { aud: "basic" } },
  { claim: "exp", condition: `visitor.claims.exp > ${now + 86_400}`, vip: { exp: now + 2 * 86_400 }, other: { exp: now + 3600 } },
  { claim: "nbf", condition: `visitor.claims.nbf < ${now - 600}`, vip: { nbf: now - 3600 }, other: { nbf: now } },
  { claim: "iat", condition: `visitor.claims.iat < ${now - 600}`, vip: { iat: now - 3600 }, other: { iat: now } },
  { claim: "jti", condition: `visitor.claims.jti === "vip-1"`, vip: { jti: "vip-1" }, other: { jti: "basic-1" } }
]

for (const backend of everyBackend) {
  layer(backend.layer, { timeout: 300_000, excludeTestServices: true })(`published audiences on ${backend.name}`, (it) => {
    it.effect("a condition on each registered claim: the VIP's pages and machine files never reach another reader", () =>
      Effect.gen(function*() {
        const s = yield* publishedSite("public")
        const base = `/~sites/${s.siteId}`
        const beta = `${base}/${s.betaSection.path}/`
        const cookieName = Audience.visitorCookieName(s.siteId)
        const jsonSearch = `${base}/~search?q=okapis&as=json`
        const urls = [
          `${base}/`,
          `${base}/install`,
          `${base}/install.md`,
          `${base}/llms.txt`,
          `${base}/llms-full.txt`,
          `${base}/sitemap.xml`,
          `${base}/~search?q=okapis`,
          jsonSearch,
          beta,
          `${beta}index.md`
        ]
        /** Whether an answer shows the Beta section (its tab, page, markdown, URL or search hit). */
        const showsBeta = (got: Got) =>
          got.text.includes("Secret beta okapis") || got.text.includes("Beta features") || got.text.includes(beta)
        const read = (url: string, token?: string) =>
          get(url, {
            ...(token === undefined ? {} : { cookie: `${cookieName}=${token}` }),
            // The search as the reader types: JSON results.
            ...(url === jsonSearch ? { accept: "application/json" } : {})
          })
        for (const c of cases(nowSeconds())) {
          yield* s.api.siteSections.updateSiteSectionById({
            params: { ...s.siteParams, siteSectionId: s.betaSection.id },
            payload: { condition: c.condition }
          })
          const now = nowSeconds()
          const sign = (claims: Record<string, unknown>) => rawToken({ iat: now, exp: now + 3600, ...claims }, s.key)
          const vip = sign(c.vip)
          const other = sign(c.other)
          // The VIP reads first, so that a cache keyed without the claim would hand their answers on.
          for (const url of urls) {
            const got = yield* read(url, vip)
            assert.strictEqual(got.status, 200, `${c.claim}: VIP ${url}`)
            if (url !== `${base}/install` && url !== `${base}/install.md`) assert.isTrue(showsBeta(got), `${c.claim}: VIP ${url}`)
            assert.match(got.headers.get("cache-control") ?? "", /^private/, `${c.claim}: VIP ${url}`)
          }
          for (const [who, token] of [["other token", other], ["anonymous", undefined]] as const) {
            for (const url of urls) {
              const got = yield* read(url, token)
              assert.isFalse(showsBeta(got), `${c.claim}: ${who} ${url}`)
              if (url.startsWith(beta)) assert.strictEqual(got.status, 404, `${c.claim}: ${who} ${url}`)
              else assert.strictEqual(got.status, 200, `${c.claim}: ${who} ${url}`)
              if (token !== undefined) assert.match(got.headers.get("cache-control") ?? "", /^private/, `${who} ${url}`)
            }
          }
          // Anonymous pages are public, and stay the anonymous ones when asked again (FastPages).
          const again = yield* read(`${base}/llms-full.txt`)
          assert.notInclude(again.text, "Secret beta okapis")
          assert.match(again.headers.get("cache-control") ?? "", /^public/)
          const home = yield* read(`${base}/`)
          assert.isFalse(showsBeta(home))
          assert.match(home.headers.get("cache-control") ?? "", /^public/)
        }
      }))

    it.effect("a visitor token without exp, or expiring further ahead than 30 days, is refused; the cookie expires with the token", () =>
      Effect.gen(function*() {
        const s = yield* publishedSite("visitor-auth")
        const base = `/~sites/${s.siteId}`
        const now = nowSeconds()
        const forever = rawToken({ plan: "pro", iat: now }, s.key)
        const refused = yield* get(`${base}/?jwt_token=${forever}`)
        assert.strictEqual(refused.status, 403)
        assert.include(refused.text, "must expire")
        assert.deepStrictEqual(refused.headers.getSetCookie(), [])
        const tooLong = yield* VisitorToken.sign({ plan: "pro" }, s.key, 31 * 86_400)
        assert.strictEqual((yield* get(`${base}/?jwt_token=${tooLong}`)).status, 403)
        // Kept in the cookie from before, a token without exp is refused as well, and the cookie removed.
        const kept = yield* get(`${base}/install`, { cookie: `${Audience.visitorCookieName(s.siteId)}=${forever}` })
        assert.strictEqual(kept.status, 403)
        assert.match(kept.headers.getSetCookie().join("\n"), /Max-Age=0/)

        const month = yield* VisitorToken.sign({ plan: "pro" }, s.key, 29 * 86_400)
        const ok = yield* get(`${base}/?jwt_token=${month}`)
        assert.strictEqual(ok.status, 200)
        const cookie = ok.headers.getSetCookie().find((c) => c.startsWith(Audience.visitorCookieName(s.siteId)))
        const maxAge = Number(/Max-Age=(\d+)/.exec(cookie ?? "")?.[1])
        assert.approximately(maxAge, 29 * 86_400, 5)
      }))
  })
}
