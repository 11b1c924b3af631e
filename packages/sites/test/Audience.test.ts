import { assert, describe, it } from "@effect/vitest"
import { createHmac } from "node:crypto"
import { ConfigProvider, Effect } from "effect"
import * as Duration from "effect/Duration"
import * as Audience from "../src/Audience.ts"
import * as Condition from "../src/Condition.ts"
import * as VisitorToken from "../src/VisitorToken.ts"

const now = new Date("2026-03-01T12:00:00Z")
const siteId = "site_abc"
const siteUrl = "http://localhost:4000/~sites/site_abc/"
const shareCookie = "quire_share_site_abc"
const visitorCookie = "quire_visitor_site_abc"
const secret = "s3cr3t-share-key-with-enough-entropy-000000"
const key = VisitorToken.newKey()

const site = (visibility: Audience.Visibility, published = true) => ({
  id: siteId,
  visibility,
  published,
  visitorKey: key
})

const decide = (
  visibility: Audience.Visibility,
  options: Partial<Omit<Audience.AudienceInput, "site">> & { readonly published?: boolean } = {}
) =>
  Effect.runPromise(Audience.decide({
    site: site(visibility, options.published ?? true),
    siteUrl,
    activeShareSecrets: [secret, "another-active-secret"],
    now,
    ...options
  }))

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url")

const admitted = (decision: Audience.AudienceDecision) => {
  if (decision.kind !== "admitted") return assert.fail(`denied: ${decision.reason}`)
  return decision
}
const denied = (decision: Audience.AudienceDecision) => {
  if (decision.kind !== "denied") return assert.fail("admitted")
  return decision
}

describe("Audience.decide", () => {
  it("admits a member of the site's organization to share-link and visitor-auth sites, never to an unpublished one", async () => {
    for (const visibility of ["share-link", "visitor-auth"] as const) {
      const decision = admitted(await decide(visibility, { member: true }))
      assert.strictEqual(decision.via, "member")
      assert.isTrue(decision.noindex)
      assert.deepStrictEqual(decision.claims, {})
      denied(await decide(visibility, { member: false }))
    }
    assert.strictEqual(denied(await decide("share-link", { member: true, published: false })).reason, "unpublished")
  })

  it("admits everyone to public and unlisted sites; unlisted ones are noindex", async () => {
    const open = admitted(await decide("public"))
    assert.deepStrictEqual(open, { kind: "admitted", claims: {}, noindex: false, via: "open", setCookies: [] })
    const unlisted = admitted(await decide("unlisted"))
    assert.isTrue(unlisted.noindex)
    assert.deepStrictEqual(unlisted.claims, {})
  })

  it("denies every visibility while the site is not published", async () => {
    for (const visibility of ["public", "unlisted", "share-link", "visitor-auth"] as const) {
      const decision = denied(
        await decide(visibility, { published: false, query: { share: secret, jwt_token: await Effect.runPromise(VisitorToken.sign({}, key, 60, now)) } })
      )
      assert.strictEqual(decision.reason, "unpublished")
    }
  })

  describe("share-link sites", () => {
    it("deny a reader without a key", async () => {
      assert.deepStrictEqual(await decide("share-link"), { kind: "denied", reason: "share-key-missing", setCookies: [] })
    })

    it("admit a reader with an active key in the query and keep it in a cookie scoped to the site", async () => {
      const decision = admitted(await decide("share-link", { query: new URLSearchParams({ share: secret }) }))
      assert.isTrue(decision.noindex)
      assert.strictEqual(decision.via, "share-key")
      assert.deepStrictEqual(decision.setCookies, [
        {
          name: shareCookie,
          value: secret,
          options: { path: "/~sites/site_abc", httpOnly: true, sameSite: "lax", secure: false, maxAge: Duration.days(30) }
        }
      ])
    })

    it("admit a returning reader by the cookie, without setting it again", async () => {
      const decision = admitted(await decide("share-link", { cookies: { [shareCookie]: secret } }))
      assert.deepStrictEqual(decision.setCookies, [])
      // The same key in the query and the cookie sets nothing either.
      assert.deepStrictEqual(
        admitted(await decide("share-link", { query: { share: secret }, cookies: { [shareCookie]: secret } })).setCookies,
        []
      )
    })

    it("deny an unknown or revoked key at once, removing its cookie", async () => {
      assert.deepStrictEqual(await decide("share-link", { query: { share: "guessed" } }), {
        kind: "denied",
        reason: "share-key-invalid",
        setCookies: []
      })
      const revoked = denied(await decide("share-link", { cookies: { [shareCookie]: secret }, activeShareSecrets: [] }))
      assert.strictEqual(revoked.reason, "share-key-invalid")
      assert.deepStrictEqual(revoked.setCookies.map((c) => [c.name, c.value, c.options.maxAge]), [[shareCookie, "", Duration.zero]])
    })

    it("ask checkShare when given one, rather than a list of secrets", async () => {
      const asked: Array<string> = []
      const checkShare = (candidate: string) =>
        Effect.sync(() => {
          asked.push(candidate)
          return candidate === "from-the-repo"
        })
      admitted(await decide("share-link", { query: { share: "from-the-repo" }, checkShare, activeShareSecrets: [] }))
      denied(await decide("share-link", { query: { share: secret }, checkShare }))
      assert.deepStrictEqual(asked, ["from-the-repo", secret])
    })

    it("admit by a valid cookie when the query's key is stale, and replace a stale cookie with the query's key", async () => {
      const byCookie = admitted(await decide("share-link", { query: { share: "old" }, cookies: { [shareCookie]: secret } }))
      assert.deepStrictEqual(byCookie.setCookies, [])
      const byQuery = admitted(await decide("share-link", { query: { share: secret }, cookies: { [shareCookie]: "old" } }))
      assert.deepStrictEqual(byQuery.setCookies.map((c) => [c.name, c.value]), [[shareCookie, secret]])
    })

    it("do not take a share key for another site", async () => {
      const decision = denied(await decide("share-link", { cookies: { quire_share_site_other: secret } }))
      assert.strictEqual(decision.reason, "share-key-missing")
    })
  })

  describe("visitor-auth sites", () => {
    it("deny a reader without a token", async () => {
      assert.deepStrictEqual(await decide("visitor-auth"), { kind: "denied", reason: "visitor-token-missing", setCookies: [] })
      // A share key opens nothing here.
      assert.strictEqual(denied(await decide("visitor-auth", { query: { share: secret } })).reason, "visitor-token-missing")
    })

    it("admit a token signed with the site's key, with its claims, and keep it in a cookie until it expires", async () => {
      const token = await Effect.runPromise(VisitorToken.sign({ plan: "pro", beta: true }, key, 3600, now))
      const decision = admitted(await decide("visitor-auth", { query: { jwt_token: token } }))
      assert.strictEqual(decision.via, "visitor-token")
      assert.isTrue(decision.noindex)
      assert.strictEqual(decision.claims["plan"], "pro")
      assert.strictEqual(decision.claims["beta"], true)
      assert.deepStrictEqual(decision.setCookies, [
        {
          name: visitorCookie,
          value: token,
          options: { path: "/~sites/site_abc", httpOnly: true, sameSite: "lax", secure: false, maxAge: Duration.seconds(3600) }
        }
      ])
      const returning = admitted(await decide("visitor-auth", { cookies: { [visitorCookie]: token } }))
      assert.deepStrictEqual(returning.setCookies, [])
      assert.strictEqual(returning.claims["plan"], "pro")
    })

    it("deny an expired token and remove it from the cookie", async () => {
      const token = await Effect.runPromise(VisitorToken.sign({ plan: "pro" }, key, 60, new Date(now.getTime() - 3_600_000)))
      assert.deepStrictEqual(await decide("visitor-auth", { query: { jwt_token: token } }), {
        kind: "denied",
        reason: "visitor-token-expired",
        setCookies: []
      })
      const fromCookie = denied(await decide("visitor-auth", { cookies: { [visitorCookie]: token } }))
      assert.strictEqual(fromCookie.reason, "visitor-token-expired")
      assert.deepStrictEqual(fromCookie.setCookies.map((c) => [c.name, c.value, c.options.maxAge]), [
        [visitorCookie, "", Duration.zero]
      ])
    })

    it("deny a token signed with another key, a malformed one, and one with alg none", async () => {
      const wrongKey = await Effect.runPromise(VisitorToken.sign({ plan: "pro" }, VisitorToken.newKey(), 60, now))
      const none = `${b64({ alg: "none" })}.${b64({ plan: "pro" })}.`
      for (const token of [wrongKey, "garbage", none]) {
        assert.strictEqual(denied(await decide("visitor-auth", { query: { jwt_token: token } })).reason, "visitor-token-invalid")
      }
    })

    it("deny every token when the site has no key", async () => {
      const token = await Effect.runPromise(VisitorToken.sign({ plan: "pro" }, key, 60, now))
      const decision = await Effect.runPromise(Audience.decide({
        site: { id: siteId, visibility: "visitor-auth", published: true, visitorKey: null },
        siteUrl,
        query: { jwt_token: token },
        now
      }))
      assert.strictEqual(denied(decision).reason, "visitor-token-invalid")
    })

    it("prefer a fresh token in the query to the cookie's, and fall back to a valid cookie", async () => {
      const old = await Effect.runPromise(VisitorToken.sign({ plan: "free" }, key, 3600, now))
      const fresh = await Effect.runPromise(VisitorToken.sign({ plan: "pro" }, key, 7200, now))
      const switched = admitted(await decide("visitor-auth", { query: { jwt_token: fresh }, cookies: { [visitorCookie]: old } }))
      assert.strictEqual(switched.claims["plan"], "pro")
      assert.deepStrictEqual(switched.setCookies.map((c) => c.value), [fresh])
      const expired = await Effect.runPromise(VisitorToken.sign({ plan: "enterprise" }, key, 1, new Date(now.getTime() - 3_600_000)))
      const kept = admitted(await decide("visitor-auth", { query: { jwt_token: expired }, cookies: { [visitorCookie]: old } }))
      assert.strictEqual(kept.claims["plan"], "free")
    })
  })

  it("lets a verified token drive adaptive content on open and share-link sites, and ignores a bad one", async () => {
    const token = await Effect.runPromise(VisitorToken.sign({ beta: true }, key, 60, now))
    assert.strictEqual(admitted(await decide("public", { query: { jwt_token: token } })).claims["beta"], true)
    assert.strictEqual(
      admitted(await decide("share-link", { query: { share: secret, jwt_token: token } })).claims["beta"],
      true
    )
    const forged = await Effect.runPromise(VisitorToken.sign({ beta: true }, VisitorToken.newKey(), 60, now))
    const decision = admitted(await decide("public", { query: { jwt_token: forged }, cookies: { [visitorCookie]: forged } }))
    assert.deepStrictEqual(decision.claims, {})
    assert.deepStrictEqual(decision.setCookies.map((c) => [c.name, c.value]), [[visitorCookie, ""]])
  })

  it("takes a token from GitBook's gitbook-visitor-token cookie, and never removes that cookie", async () => {
    const token = await Effect.runPromise(VisitorToken.sign({ plan: "pro" }, key, 60, now))
    const decision = admitted(await decide("visitor-auth", { cookies: { "gitbook-visitor-token": token } }))
    assert.strictEqual(decision.claims["plan"], "pro")
    const forged = await Effect.runPromise(VisitorToken.sign({ plan: "pro" }, VisitorToken.newKey(), 60, now))
    assert.deepStrictEqual(await decide("visitor-auth", { cookies: { "gitbook-visitor-token": forged } }), {
      kind: "denied",
      reason: "visitor-token-invalid",
      setCookies: []
    })
  })

  describe("unsigned claims", () => {
    const unsignedCookie = "quire_unsigned_site_abc"

    it("come from visitor.<claim> query parameters, typed, under claims.unsigned, kept in a session cookie", async () => {
      const query = new URLSearchParams({ "visitor.isBetaUser": "true", "visitor.language": "fr", "visitor.seats": "12", other: "x" })
      const decision = admitted(await decide("public", { query }))
      assert.deepStrictEqual(decision.claims, { unsigned: { isBetaUser: true, language: "fr", seats: 12 } })
      assert.strictEqual(decision.setCookies.length, 1)
      const kept = decision.setCookies[0]!
      assert.strictEqual(kept.name, unsignedCookie)
      assert.isUndefined(kept.options.maxAge)
      assert.isTrue(kept.options.httpOnly)
      // The next page, without the query, reads them from the cookie and sets nothing.
      const next = admitted(await decide("public", { cookies: { [unsignedCookie]: kept.value } }))
      assert.deepStrictEqual(next.claims, decision.claims)
      assert.deepStrictEqual(next.setCookies, [])
      assert.isTrue(
        Audience.visible('visitor.claims.unsigned.language === "fr" && visitor.claims.unsigned.isBetaUser', next.claims)
      )
    })

    it("come from GitBook's gitbook-visitor-public JSON cookie, raw or URI-encoded", async () => {
      const json = JSON.stringify({ isLoggedIn: true, isBetaUser: false })
      for (const value of [json, encodeURIComponent(json)]) {
        const decision = admitted(await decide("public", { cookies: { "gitbook-visitor-public": value } }))
        assert.deepStrictEqual(decision.claims, { unsigned: { isLoggedIn: true, isBetaUser: false } })
      }
      assert.deepStrictEqual(admitted(await decide("public", { cookies: { "gitbook-visitor-public": "[1]" } })).claims, {})
      assert.deepStrictEqual(admitted(await decide("public", { cookies: { "gitbook-visitor-public": "{oops" } })).claims, {})
    })

    it("never replace a signed claim, and admit no one a gate refuses", async () => {
      const token = await Effect.runPromise(VisitorToken.sign({ plan: "free", unsigned: { plan: "signed" } }, key, 60, now))
      const decision = admitted(
        await decide("visitor-auth", { query: { jwt_token: token, "visitor.plan": "enterprise" } })
      )
      assert.strictEqual(decision.claims["plan"], "free")
      assert.deepStrictEqual(decision.claims["unsigned"], { plan: "enterprise" })
      assert.strictEqual(denied(await decide("visitor-auth", { query: { "visitor.plan": "enterprise" } })).reason, "visitor-token-missing")
    })

    it("drop prototype names and excess", async () => {
      const query = new URLSearchParams([["visitor.__proto__", "x"], ["visitor.constructor", "y"], ["visitor.ok", "1"]])
      assert.deepStrictEqual(admitted(await decide("public", { query })).claims, { unsigned: { ok: 1 } })
      const hostile = '{"__proto__": {"admin": true}, "fine": "yes"}'
      const decision = admitted(await decide("public", { cookies: { "gitbook-visitor-public": hostile } }))
      assert.deepStrictEqual(Object.keys(decision.claims["unsigned"] as object), ["fine"])
      const many = new URLSearchParams(Array.from({ length: 80 }, (_, i): [string, string] => [`visitor.c${i}`, "1"]))
      assert.strictEqual(Object.keys(admitted(await decide("public", { query: many })).claims["unsigned"] as object).length, 50)
    })
  })

  it("scopes cookies to a custom host's root, Secure over https", async () => {
    const decision = admitted(
      await Effect.runPromise(Audience.decide({
        site: site("share-link"),
        siteUrl: "https://docs.example.com/",
        query: { share: secret },
        activeShareSecrets: [secret],
        now
      }))
    )
    assert.deepStrictEqual(
      decision.setCookies.map((c) => c.options),
      [{ path: "/", httpOnly: true, sameSite: "lax", secure: true, maxAge: Duration.days(30) }]
    )
    const nested = admitted(
      await Effect.runPromise(Audience.decide({
        site: site("share-link"),
        siteUrl: new URL("https://example.com/docs/"),
        query: { share: secret },
        activeShareSecrets: [secret],
        now
      }))
    )
    assert.strictEqual(nested.setCookies[0]?.options.path, "/docs")
  })
})

const condition = (source: string) => {
  const result = Condition.parse(source)
  if (!result.ok) return assert.fail(result.message)
  return result.condition
}

describe("Audience.visible and filters", () => {
  const beta = { beta: true, plan: "pro" }
  const anonymous = {}

  it("shows what has no condition and hides what has a false, throwing or unparsable one", () => {
    assert.isTrue(Audience.visible(undefined, anonymous))
    assert.isTrue(Audience.visible(null, anonymous))
    assert.isTrue(Audience.visible("", anonymous))
    assert.isTrue(Audience.visible(condition("visitor.claims.beta"), beta))
    assert.isFalse(Audience.visible(condition("visitor.claims.beta"), anonymous))
    assert.isTrue(Audience.visible('visitor.claims.plan === "pro"', beta))
    assert.isFalse(Audience.visible("visitor.claims.plan.toString()", beta))
    assert.isFalse(Audience.visible("visitor.claims.missing.includes(1)", beta))
  })

  it("keeps the sections and site spaces shown to each visitor, in order", () => {
    const sections = [
      { id: "guides", condition: undefined },
      { id: "beta", condition: "visitor.claims.beta" },
      { id: "enterprise", condition: 'visitor.claims.plan === "enterprise"' },
      { id: "api", condition: null }
    ]
    const ids = (claims: Record<string, unknown>) =>
      Audience.filterVisible(sections, (s) => s.condition, claims).map((s) => s.id)
    assert.deepStrictEqual(ids(beta), ["guides", "beta", "api"])
    assert.deepStrictEqual(ids(anonymous), ["guides", "api"])
    assert.deepStrictEqual(ids({ plan: "enterprise" }), ["guides", "enterprise", "api"])
  })

  it("removes hidden pages with their descendants from a page tree", () => {
    interface Page {
      readonly id: string
      readonly condition?: string
      readonly pages: ReadonlyArray<Page>
    }
    const tree: ReadonlyArray<Page> = [
      {
        id: "intro",
        pages: [
          { id: "beta-setup", condition: "visitor.claims.beta", pages: [{ id: "beta-deep", pages: [] }] },
          { id: "setup", pages: [] }
        ]
      },
      { id: "pro", condition: 'visitor.claims.plan === "pro"', pages: [{ id: "pro-child", pages: [] }] }
    ]
    const ids = (pages: ReadonlyArray<Page>): Array<string> => pages.flatMap((p) => [p.id, ...ids(p.pages)])
    const filter = (claims: Record<string, unknown>) =>
      Audience.filterTree(tree, (p) => p.condition, (p) => p.pages, (p, pages) => ({ ...p, pages }), claims)
    assert.deepStrictEqual(ids(filter(beta)), ["intro", "beta-setup", "beta-deep", "setup", "pro", "pro-child"])
    assert.deepStrictEqual(ids(filter(anonymous)), ["intro", "setup"])
  })
})

describe("Audience.audienceKey", () => {
  it("is the same for the same claims whatever their order or token, and differs otherwise", () => {
    // What the site's conditions read (`plan`, `beta`, `unsigned`): other claims do not split audiences.
    const read = Audience.claimsReadBy([`visitor.claims.plan === "pro" && visitor.claims.beta`, "visitor.claims.unsigned.a > 1"])
    assert.strictEqual(Audience.audienceKey({}, read), "anonymous")
    assert.strictEqual(Audience.audienceKey({ exp: 1, iat: 0 }, read), "anonymous")
    const a = Audience.audienceKey({ plan: "pro", beta: true, exp: 10, iat: 1 }, read)
    const b = Audience.audienceKey({ beta: true, plan: "pro", exp: 20, iat: 2 }, read)
    assert.strictEqual(a, b)
    assert.notStrictEqual(a, Audience.audienceKey({ plan: "free", beta: true }, read))
    assert.notStrictEqual(
      Audience.audienceKey({ unsigned: { a: 1, b: 2 } }, read),
      Audience.audienceKey({ unsigned: { a: 2, b: 1 } }, read)
    )
    assert.strictEqual(Audience.audienceKey({ unsigned: { a: 1, b: 2 } }, read), Audience.audienceKey({ unsigned: { b: 2, a: 1 } }, read))
  })

  it("tells apart tokens whose registered claims a condition reads (issue 18: a VIP's answers went to anonymous readers)", () => {
    for (const claim of ["iss", "aud", "exp", "nbf", "iat", "jti"]) {
      const read = Audience.claimsReadBy([`visitor.claims.${claim} === "vip"`])
      assert.notStrictEqual(Audience.audienceKey({ [claim]: "vip" }, read), "anonymous", claim)
      assert.notStrictEqual(Audience.audienceKey({ [claim]: "vip" }, read), Audience.audienceKey({ [claim]: "basic" }, read), claim)
      // Without knowing what conditions read, every claim counts.
      assert.notStrictEqual(Audience.audienceKey({ [claim]: 1 }), "anonymous", claim)
    }
    assert.strictEqual(Audience.audienceKey({}), "anonymous")
  })

  it("counts every claim when a condition reads visitor.claims as a whole", () => {
    for (const source of [`"aud" in visitor.claims`, `visitor.claims === 1`, `[visitor.claims].includes(1)`]) {
      assert.strictEqual(Audience.claimsReadBy(["visitor.claims.plan === 1", source]), "all", source)
    }
    assert.deepStrictEqual([...(Audience.claimsReadBy([`visitor.claims["aud"] === "x" || visitor.claims.unsigned.plan`, null, "", "(("]) as Set<string>)].toSorted(), [
      "aud",
      "unsigned"
    ])
  })
})

const maxAgeOf = (env: Record<string, string>) => Effect.runPromise(VisitorToken.MaxAgeSeconds.parse(ConfigProvider.fromEnvRecord(env)))

describe("visitor token lifetime", () => {
  it("denies a token without exp, or with exp further ahead than the maximum (30 days unless configured)", async () => {
    const noExp = `${b64({ alg: "HS256", typ: "JWT" })}.${b64({ plan: "pro" })}`
    const forever = `${noExp}.${createHmac("sha256", key).update(noExp).digest("base64url")}`
    assert.strictEqual(denied(await decide("visitor-auth", { query: { jwt_token: forever } })).reason, "visitor-token-lifetime")
    const long = await Effect.runPromise(VisitorToken.sign({ plan: "pro" }, key, 31 * 86_400, now))
    assert.strictEqual(denied(await decide("visitor-auth", { query: { jwt_token: long } })).reason, "visitor-token-lifetime")
    // On an open site such a token gives no claims.
    assert.deepStrictEqual(admitted(await decide("public", { query: { jwt_token: long } })).claims, {})
    const month = await Effect.runPromise(VisitorToken.sign({ plan: "pro" }, key, 29 * 86_400, now))
    const ok = admitted(await decide("visitor-auth", { query: { jwt_token: month } }))
    assert.strictEqual(Duration.toSeconds(ok.setCookies[0]!.options.maxAge!), 29 * 86_400)
    // A smaller configured maximum.
    const day = await Effect.runPromise(VisitorToken.sign({ plan: "pro" }, key, 86_400, now))
    assert.strictEqual(
      denied(await decide("visitor-auth", { query: { jwt_token: day }, tokenMaxAgeSeconds: 3600 })).reason,
      "visitor-token-lifetime"
    )
  })

  it("reads the maximum from QUIRE_VISITOR_TOKEN_MAX_AGE", async () => {
    assert.strictEqual(await maxAgeOf({}), 30 * 86_400)
    assert.strictEqual(await maxAgeOf({ QUIRE_VISITOR_TOKEN_MAX_AGE: "12 hours" }), 12 * 3600)
  })
})
