/** Site redirects through the real router and the typed client, and as the published site answers them, on every backend. */
import { assert, layer } from "@effect/vitest"
import { Effect, Schedule } from "effect"
import { bareRepository } from "./GitRepositories.ts"
import { backends, errorCode, inviteAndAccept, newUser, publicUrl, raw, spaceWith } from "./Harness.ts"
import { get, idOf, publishedSite } from "./SiteFixtures.ts"

const fieldOf = (body: unknown) => (body as { readonly error?: { readonly field?: unknown } } | undefined)?.error?.field

for (const backend of backends) {
  layer(backend.layer, { timeout: 180_000, excludeTestServices: true })(`site redirects on ${backend.name}`, (it) => {
    it.effect("creates, reads, lists, updates and deletes redirects; members read, admins write, outsiders see nothing", () =>
      Effect.gen(function*() {
        const s = yield* publishedSite("public")
        const api = s.api
        const params = s.siteParams
        const pages = yield* api.spaceContent.listPages({ params: { spaceId: s.guides.id }, query: {} })
        const installId = idOf(pages, "Install")!

        // A page named by its path in a space the site shows is stored as that page of the site space showing it.
        const byPath = yield* api.siteRedirects.createSiteRedirect({
          params,
          payload: { source: "/old-install", permanent: true, destination: { kind: "path", spaceId: s.guides.id, path: "install" } }
        })
        assert.strictEqual(byPath.object, "site-redirect")
        assert.strictEqual(byPath.source, "/old-install")
        assert.isTrue(byPath.permanent)
        assert.isFalse(byPath.draft)
        assert.isFalse(byPath.captureWildcard)
        assert.strictEqual(byPath.destination.kind, "site-page")
        assert.strictEqual(byPath.destination.kind === "site-page" ? byPath.destination.pageId : "", installId)
        assert.isUndefined(byPath.updatedAt)
        const news = yield* api.siteRedirects.createSiteRedirect({
          params,
          payload: { source: "/news/*", captureWildcard: true, destination: { kind: "external", url: "https://example.com/blog" } }
        })
        const section = yield* api.siteRedirects.createSiteRedirect({
          params,
          payload: { source: "/reference", draft: true, destination: { kind: "site-section", siteSectionId: s.apiSection.id } }
        })

        assert.deepStrictEqual(yield* api.siteRedirects.getSiteRedirectById({ params: { ...params, siteRedirectId: byPath.id } }), byPath)
        const live = yield* api.siteRedirects.listSiteRedirects({ params, query: { orderBy: "source" } })
        assert.deepStrictEqual(live.items.map((r) => r.source), ["/news/*", "/old-install"])
        const drafts = yield* api.siteRedirects.listSiteRedirects({ params, query: { draft: true } })
        assert.deepStrictEqual(drafts.items.map((r) => r.id), [section.id])
        const paged = yield* api.siteRedirects.listSiteRedirects({ params, query: { limit: 1 } })
        assert.deepStrictEqual(paged.items.map((r) => r.id), [news.id])
        const next = yield* api.siteRedirects.listSiteRedirects({ params, query: { limit: 1, page: paged.next!.page } })
        assert.deepStrictEqual(next.items.map((r) => r.id), [byPath.id])
        assert.isUndefined(next.next)
        const searched = yield* api.siteRedirects.listSiteRedirects({ params, query: { search: "INSTALL" } })
        assert.deepStrictEqual(searched.items.map((r) => r.id), [byPath.id])

        // Resolving a path gives the redirect and the absolute URL it leads to, the wildcard's rest included.
        const resolved = yield* api.siteRedirects.getSiteRedirectBySource({ params, query: { source: "/old-install" } })
        assert.strictEqual(resolved.redirect.id, byPath.id)
        assert.strictEqual(resolved.target, `${publicUrl}/~sites/${s.siteId}/install`)
        const wild = yield* api.siteRedirects.getSiteRedirectBySource({ params, query: { source: "/news/2024/launch" } })
        assert.strictEqual(wild.target, "https://example.com/blog/2024/launch")
        const none = yield* Effect.flip(api.siteRedirects.getSiteRedirectBySource({ params, query: { source: "/reference" } }))
        assert.strictEqual(errorCode(none), 404)

        // Promoting the draft makes it live; a live redirect of the same source is a conflict.
        const promoted = yield* api.siteRedirects.updateSiteRedirectById({ params: { ...params, siteRedirectId: section.id }, payload: { draft: false } })
        assert.isFalse(promoted.draft)
        assert.isString(promoted.updatedAt)
        const clash = yield* Effect.flip(api.siteRedirects.createSiteRedirect({
          params,
          payload: { source: "/reference", destination: { kind: "external", url: "https://example.com/" } }
        }))
        assert.strictEqual(errorCode(clash), 409)

        // Members read; writing needs the admin role; another organization's caller finds no site.
        const reader = yield* newUser("Reader")
        yield* inviteAndAccept(api, s.organizationId, reader, "read")
        const seen = yield* reader.api.siteRedirects.listSiteRedirects({ params, query: {} })
        assert.strictEqual(seen.count, 3)
        const refused = yield* Effect.flip(reader.api.siteRedirects.createSiteRedirect({
          params,
          payload: { source: "/x", destination: { kind: "external", url: "https://example.com/" } }
        }))
        assert.strictEqual(errorCode(refused), 403)
        const outsider = yield* newUser("Outsider")
        const hidden: ReadonlyArray<Effect.Effect<unknown, unknown>> = [
          outsider.api.siteRedirects.listSiteRedirects({ params, query: {} }),
          outsider.api.siteRedirects.getSiteRedirectById({ params: { ...params, siteRedirectId: byPath.id } }),
          outsider.api.siteRedirects.getSiteRedirectBySource({ params, query: { source: "/old-install" } })
        ]
        for (const attempt of hidden) assert.strictEqual(errorCode(yield* Effect.flip(attempt)), 404)
        const theirOrg = yield* outsider.api.organizations.createOrganization({ payload: { title: "Other" } })
        const crossed = yield* Effect.flip(outsider.api.siteRedirects.listSiteRedirects({ params: { organizationId: theirOrg.id, siteId: s.siteId }, query: {} }))
        assert.strictEqual(errorCode(crossed), 404)

        // Deleting answers 205, then 204 once there is nothing left to delete.
        const path = `/v1/orgs/${s.organizationId}/sites/${s.siteId}/redirects/${news.id}`
        assert.strictEqual((yield* raw("DELETE", path, { token: s.token })).status, 205)
        assert.strictEqual((yield* raw("DELETE", path, { token: s.token })).status, 204)
        assert.strictEqual((yield* raw("DELETE", path, { token: reader.token })).status, 403)
      }))

    it.effect("refuses bad sources and destinations with a 400 naming the field", () =>
      Effect.gen(function*() {
        const s = yield* publishedSite("public")
        const other = yield* publishedSite("public")
        const path = `/v1/orgs/${s.organizationId}/sites/${s.siteId}/redirects`
        const external = { kind: "external", url: "https://example.com/" }
        const cases: ReadonlyArray<readonly [unknown, string]> = [
          [{ source: "no-slash", destination: external }, "source"],
          [{ source: "/a/*/b", destination: external }, "source"],
          [{ source: "/*", destination: external }, "source"],
          [{ source: "/with space", destination: external }, "source"],
          [{ source: `/${"a".repeat(512)}`, destination: external }, "source"],
          [{ source: "/a", destination: { kind: "external", url: "javascript:alert(1)" } }, "destination"],
          [{ source: "/a", destination: { kind: "external", url: `https://example.com/${"a".repeat(2048)}` } }, "destination"],
          [{ source: "/a", destination: { kind: "site-space", siteSpaceId: other.variant.id } }, "destination.siteSpaceId"],
          [{ source: "/a", destination: { kind: "site-section", siteSectionId: other.apiSection.id } }, "destination.siteSectionId"],
          [{ source: "/a", destination: { kind: "site-page", siteSpaceId: s.variant.id, pageId: "nope" } }, "destination.pageId"],
          [{ source: "/a", destination: { kind: "path", spaceId: s.guides.id, path: "missing/page" } }, "destination.path"],
          [{ source: "/a", destination: { kind: "path", spaceId: other.guides.id, path: "install" } }, "destination.spaceId"]
        ]
        for (const [body, field] of cases) {
          const answer = yield* raw("POST", path, { token: s.token, body: JSON.stringify(body) })
          assert.strictEqual(answer.status, 400, JSON.stringify(body))
          assert.match(String(fieldOf(answer.body)), new RegExp(`^${field.replace(/\./g, "\\.")}`), JSON.stringify(body))
        }
        const listed = yield* s.api.siteRedirects.listSiteRedirects({ params: s.siteParams, query: {} })
        assert.strictEqual(listed.count, 0)
      }))

    it.effect("bulk upserts, deletes and publishes redirects, each item answered on its own", () =>
      Effect.gen(function*() {
        const s = yield* publishedSite("public")
        const params = s.siteParams
        const url = (path: string) => ({ kind: "external" as const, url: `https://example.com${path}` })
        yield* s.api.siteRedirects.createSiteRedirect({ params, payload: { source: "/kept", destination: url("/kept") } })
        yield* s.api.siteRedirects.createSiteRedirect({ params, payload: { source: "/gone", destination: url("/gone") } })
        yield* s.api.siteRedirects.createSiteRedirect({ params, payload: { source: "/soon", draft: true, permanent: true, destination: url("/soon") } })
        const { results } = yield* s.api.siteRedirects.bulkUpsertSiteRedirects({
          params,
          payload: {
            redirects: [
              { source: "/new", destination: url("/new") },
              { source: "/kept", destination: url("/kept-2"), permanent: true },
              { source: "/gone", destination: null },
              { source: "/soon", intent: "publish" },
              { source: "/nothing", intent: "publish" },
              { source: "/bad", destination: { kind: "site-space", siteSpaceId: "not-here" } }
            ]
          }
        })
        assert.deepStrictEqual(results.map((r) => [r.status, r.source, r.draft]), [
          ["created", "/new", false],
          ["updated", "/kept", false],
          ["deleted", "/gone", false],
          ["published", "/soon", false],
          ["error", "/nothing", false],
          ["error", "/bad", false]
        ])
        const error = results[5]
        assert.match(error?.status === "error" ? error.error : "", /siteSpaceId/)
        const live = yield* s.api.siteRedirects.listSiteRedirects({ params, query: { orderBy: "source" } })
        assert.deepStrictEqual(live.items.map((r) => [r.source, r.destination.kind === "external" ? r.destination.url : "", r.permanent]), [
          ["/kept", "https://example.com/kept-2", true],
          ["/new", "https://example.com/new", false],
          ["/soon", "https://example.com/soon", true]
        ])
        assert.strictEqual((yield* s.api.siteRedirects.listSiteRedirects({ params, query: { draft: true } })).count, 0)
        const tooMany = yield* raw("PUT", `/v1/orgs/${s.organizationId}/sites/${s.siteId}/redirects`, {
          token: s.token,
          body: JSON.stringify({ redirects: Array.from({ length: 501 }, (_, i) => ({ source: `/r${i}`, destination: null })) })
        })
        assert.strictEqual(tooMany.status, 400)
      }))

    it.effect("the published site answers a redirect's source with its destination, before its 404", () =>
      Effect.gen(function*() {
        const s = yield* publishedSite("public")
        const params = s.siteParams
        const base = `/~sites/${s.siteId}`
        yield* s.api.siteRedirects.createSiteRedirect({
          params,
          payload: { source: "/old-install", permanent: true, destination: { kind: "path", spaceId: s.guides.id, path: "install" } }
        })
        yield* s.api.siteRedirects.createSiteRedirect({ params, payload: { source: "/temp", destination: { kind: "site-section", siteSectionId: s.apiSection.id } } })
        yield* s.api.siteRedirects.createSiteRedirect({ params, payload: { source: "/blog*", captureWildcard: true, destination: { kind: "external", url: "https://example.com/news?ref=docs" } } })
        yield* s.api.siteRedirects.createSiteRedirect({ params, payload: { source: "/configure", destination: { kind: "external", url: "https://example.com/never" } } })
        yield* s.api.siteRedirects.createSiteRedirect({ params, payload: { source: "/draft-only", draft: true, destination: { kind: "external", url: "https://example.com/draft" } } })

        const permanent = yield* get(`${base}/old-install`)
        assert.strictEqual(permanent.status, 308)
        assert.strictEqual(permanent.headers.get("location"), `${base}/install`)
        const followed = yield* get(permanent.headers.get("location")!)
        assert.strictEqual(followed.status, 200)
        assert.include(followed.text, "Install the")
        const temporary = yield* get(`${base}/temp`)
        assert.strictEqual(temporary.status, 307)
        assert.strictEqual(temporary.headers.get("location"), `${base}/api/`)
        const wildcard = yield* get(`${base}/blog/2024/post`)
        assert.strictEqual(wildcard.status, 307)
        assert.strictEqual(wildcard.headers.get("location"), "https://example.com/news/2024/post?ref=docs")
        // A page keeps its path; a draft is not live; other paths are still the site's 404.
        assert.strictEqual((yield* get(`${base}/configure`)).status, 200)
        assert.strictEqual((yield* get(`${base}/draft-only`)).status, 404)
        assert.strictEqual((yield* get(`${base}/nowhere`)).status, 404)
        // A deleted redirect stops answering at once.
        const listed = yield* s.api.siteRedirects.listSiteRedirects({ params, query: { search: "temp" } })
        yield* s.api.siteRedirects.deleteSiteRedirectById({ params: { ...params, siteRedirectId: listed.items[0]!.id } })
        assert.strictEqual((yield* get(`${base}/temp`)).status, 404)
      }))

    it.effect("a space imported from Git brings its .gitbook.yaml redirects to every site showing it", () =>
      Effect.gen(function*() {
        const repository = yield* bareRepository({
          ".gitbook.yaml": "root: ./docs/\n\nredirects:\n  old/guide: guides/new.md\n  gone: missing.md\n",
          "docs/README.md": "# Home\n\nWelcome.\n",
          "docs/SUMMARY.md": "# Summary\n\n* [Home](README.md)\n* [Guides](guides/README.md)\n  * [New guide](guides/new.md)\n",
          "docs/guides/README.md": "# Guides\n\nAll of them.\n",
          "docs/guides/new.md": "# New guide\n\nMoved here.\n"
        })
        const { alice, organizationId, space } = yield* spaceWith()
        const spaceId = space.id
        yield* alice.api.git.importGitRepository({ params: { spaceId }, payload: { url: repository.url, ref: "refs/heads/main" } })
        const info = yield* alice.api.git.getSpaceGitInfo({ params: { spaceId } }).pipe(
          Effect.filterOrFail((i) => i.lastImport !== null && i.lastImport.status !== "running" && i.lastImport.status !== "pending", () => new Error("import still running")),
          Effect.retry({ schedule: Schedule.spaced("100 millis"), times: 300 }),
          Effect.orDie
        )
        assert.strictEqual(info.lastImport?.status, "succeeded")
        const site = yield* alice.api.sites.createSite({ params: { organizationId }, payload: { title: "Docs", spaces: [spaceId] } })
        yield* alice.api.sites.publishSite({ params: { organizationId, siteId: site.id } })
        const base = `/~sites/${site.id}`
        const moved = yield* get(`${base}/old/guide`)
        assert.strictEqual(moved.status, 308)
        assert.strictEqual(moved.headers.get("location"), `${base}/guides/new`)
        assert.include((yield* get(moved.headers.get("location")!)).text, "Moved here.")
        // A target that is no page, and a path no redirect names, are the site's 404.
        assert.strictEqual((yield* get(`${base}/gone`)).status, 404)
        assert.strictEqual((yield* get(`${base}/old`)).status, 404)
        // The site's own redirect of the same path comes first.
        yield* alice.api.siteRedirects.createSiteRedirect({
          params: { organizationId, siteId: site.id },
          payload: { source: "/old/guide", destination: { kind: "external", url: "https://example.com/guide" } }
        })
        const own = yield* get(`${base}/old/guide`)
        assert.strictEqual(own.status, 307)
        assert.strictEqual(own.headers.get("location"), "https://example.com/guide")
      }))
  })
}
