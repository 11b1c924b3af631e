/**
 * A published docs site as a reader gets it in headless Chromium (Debian's `chromium`, driven by
 * playwright-core): everything is set up through the HTTP API, then read, clicked and searched in
 * the browser, on memory and on PostgreSQL. One browser for the file, one context per scenario.
 * Screenshots of the home page in light and dark land in `test-output/screenshots/` (memory only).
 * Without /usr/bin/chromium the file fails, never skips.
 */
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { type BrowserContext, type BrowserContextOptions, type Page } from "playwright-core"
import type { ChangeRequestContentChange } from "@quire/api"
import { backends, baseUrl, type Client, organizationWith } from "@quire/server/test/Harness"
import { createHmac } from "node:crypto"
import { join } from "node:path"
import { screenshotsWanted } from "@quire/testkit/Chromium"
import { screenshots, useChromium } from "./Chromium.ts"

// The browser globals the page functions below use: this project compiles without the DOM library.
declare const window: { readonly innerHeight: number }
declare const document: { readonly body: unknown; readonly documentElement: unknown }
declare function getComputedStyle(element: unknown): {
  readonly color: string
  readonly backgroundColor: string
  getPropertyValue(name: string): string
}

const chromium = useChromium()

/** Merges `changes` into the space's main content through a change request. */
const write = Effect.fnUntraced(function*(api: Client, spaceId: string, changes: ReadonlyArray<ChangeRequestContentChange>) {
  const cr = yield* api.changeRequests.createChangeRequest({ params: { spaceId }, payload: { subject: "Content" } })
  yield* api.changeRequestContent.updateChangeRequestContent({ params: { spaceId, changeRequestId: cr.id }, payload: { changes } })
  yield* api.changeRequests.mergeChangeRequest({ params: { spaceId, changeRequestId: cr.id } })
})

/** The id of the page titled `title` anywhere in an API answer. */
const idOf = (value: unknown, title: string): string | undefined => {
  if (Array.isArray(value)) return value.map((v) => idOf(v, title)).find((id) => id !== undefined)
  if (typeof value !== "object" || value === null) return undefined
  const record = value as Record<string, unknown>
  if (record["title"] === title && typeof record["id"] === "string") return record["id"]
  return Object.values(record).map((v) => idOf(v, title)).find((id) => id !== undefined)
}

/** The path and query of a published URL (the server's public URL is not where it listens). */
const pathOf = (url: string | undefined): string => {
  assert.isDefined(url, "a published URL")
  const parsed = new URL(url!)
  return `${parsed.pathname}${parsed.search}`
}

/** A logo as an SVG data URL: a coloured square and a word. */
const logo = (fill: string, text: string) =>
  "data:image/svg+xml," +
  encodeURIComponent(
    `<svg xmlns="http://www.w3.org/2000/svg" width="120" height="32" viewBox="0 0 120 32">` +
      `<rect width="32" height="32" rx="8" fill="${fill}"/>` +
      `<text x="40" y="23" font-family="sans-serif" font-size="18" font-weight="700" fill="${fill}">${text}</text></svg>`
  )

/**
 * A visitor token as the site owner's backend makes one (HS256 over the key's UTF-8 bytes, as
 * GitBook's `jsonwebtoken` examples do), built here independently of Quire's own signer.
 */
const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url")

const visitorToken = (claims: Record<string, unknown>, key: string, expiresInSeconds: number): string => {
  const now = Math.floor(Date.now() / 1000)
  const signed = `${base64url({ alg: "HS256", typ: "JWT" })}.${base64url({ ...claims, iat: now, exp: now + expiresInSeconds })}`
  return `${signed}.${createHmac("sha256", key).update(signed).digest("base64url")}`
}

/**
 * Alice's organization with three published sites over the same spaces:
 * - "Handbook" (public, customized): sections Product (default; variants "Product" and "Product v2"),
 *   API, and a group "Libraries" holding SDKs; the Product space is the product-docs template
 *   (a page group "Guides") with a page "Docker" nested under "Deployment".
 * - "Preview" (share-link): the Product space, with one share link.
 * - "Partners" (visitor-auth, adaptive schema `plan`): Product, and a section "Enterprise" shown
 *   only when `visitor.claims.plan === "enterprise"`.
 */
const setUp = Effect.fnUntraced(function*() {
  const { alice, organizationId } = yield* organizationWith()
  const api = alice.api
  const space = (title: string) => api.spaces.createSpace({ params: { organizationId }, payload: { title } })
  const product = yield* space("Product")
  yield* api.spaceContent.applyTemplateToSpace({ params: { spaceId: product.id }, payload: { id: "product-docs" } })
  const pages = yield* api.spaceContent.listPages({ params: { spaceId: product.id }, query: {} })
  const deployment = idOf(pages.pages, "Deployment")
  assert.isDefined(deployment, "the template's Deployment page")
  yield* write(api, product.id, [{
    operation: "insert_page",
    title: "Docker",
    slug: "docker",
    into: deployment!,
    document: { markdown: "Run the release in a container.\n\n```dockerfile\nFROM node:24-slim\nCOPY . /app\nCMD [\"node\", \"/app/main.js\"]\n```\n" }
  }])
  const productV2 = yield* space("Product v2")
  yield* write(api, productV2.id, [{ operation: "insert_page", title: "What's new", slug: "whats-new", document: { markdown: "Version two brings pelicans." } }])
  const apiSpace = yield* space("API")
  yield* write(api, apiSpace.id, [{
    operation: "insert_page",
    title: "Endpoints",
    slug: "endpoints",
    document: {
      markdown: "Every endpoint answers JSON; the walrus endpoint answers slowly.\n\n## Authentication\n\n```typescript\nconst response = await fetch(\"/v1/walrus\", { headers: { authorization: `Bearer ${token}` } })\nexport const walrus: number = (await response.json()).count\n```\n"
    }
  }])
  const sdks = yield* space("SDKs")
  yield* write(api, sdks.id, [{ operation: "insert_page", title: "JavaScript SDK", slug: "javascript", document: { markdown: "Install the SDK with npm." } }])
  const enterprise = yield* space("Enterprise")
  yield* write(api, enterprise.id, [{ operation: "insert_page", title: "Single sign-on", slug: "sso", document: { markdown: "Enterprise plans sign in with okapis." } }])

  // The public, customized site.
  const handbook = yield* api.sites.createSite({ params: { organizationId }, payload: { title: "Handbook" } })
  const handbookParams = { organizationId, siteId: handbook.id }
  const productSection = yield* api.siteSections.addSectionToSite({ params: handbookParams, payload: { spaceId: product.id } })
  const v2 = yield* api.siteSpaces.addSpaceToSite({ params: handbookParams, payload: { spaceId: productV2.id, sectionId: productSection.id } })
  const apiSection = yield* api.siteSections.addSectionToSite({ params: handbookParams, payload: { spaceId: apiSpace.id, title: "API reference" } })
  const sdkSection = yield* api.siteSections.addSectionToSite({ params: handbookParams, payload: { spaceId: sdks.id } })
  yield* api.siteSectionGroups.addSectionGroupToSite({ params: handbookParams, payload: { title: "Libraries", sections: [sdkSection.id] } })
  yield* api.sites.updateSiteCustomizationById({
    params: handbookParams,
    payload: {
      title: "Acme Docs",
      header: { logo: { light: logo("#4f46e5", "Acme"), dark: logo("#a5b4fc", "Acme") } },
      styling: { primaryColor: { light: "#4f46e5", dark: "#a5b4fc" }, corners: "rounded", font: "Inter" },
      themes: { default: "system", toggeable: true }
    }
  })
  yield* api.sites.publishSite({ params: handbookParams })

  // The share-link site.
  const preview = yield* api.sites.createSite({ params: { organizationId }, payload: { title: "Preview", visibility: "share-link", spaces: [product.id] } })
  const previewParams = { organizationId, siteId: preview.id }
  yield* api.sites.publishSite({ params: previewParams })
  const link = yield* api.siteShareLinks.createSiteShareLink({ params: previewParams, payload: { name: "Reviewers" } })

  // The visitor-auth site with adaptive content.
  const partners = yield* api.sites.createSite({ params: { organizationId }, payload: { title: "Partners", visibility: "visitor-auth" } })
  const partnersParams = { organizationId, siteId: partners.id }
  yield* api.sites.updateSiteById({ params: partnersParams, payload: { adaptiveContent: { enabled: true } } })
  yield* api.siteSections.addSectionToSite({ params: partnersParams, payload: { spaceId: product.id } })
  const enterpriseSection = yield* api.siteSections.addSectionToSite({ params: partnersParams, payload: { spaceId: enterprise.id } })
  yield* api.sites.updateSiteAdaptiveSchema({
    params: partnersParams,
    payload: {
      jsonSchema: {
        type: "object",
        properties: { plan: { type: "string", enum: ["free", "enterprise"], description: "The visitor's plan" } },
        additionalProperties: false
      }
    }
  })
  yield* api.siteSections.updateSiteSectionById({
    params: { ...partnersParams, siteSectionId: enterpriseSection.id },
    payload: { condition: "visitor.claims.plan === \"enterprise\"" }
  })
  const auth = yield* api.sites.regenerateSitePublishingAuthById({ params: partnersParams })
  const published = yield* api.sites.publishSite({ params: partnersParams })

  const sections = yield* api.siteSections.listSiteSections({ params: handbookParams, query: {} })
  const partnerSections = yield* api.siteSections.listSiteSections({ params: partnersParams, query: {} })
  return {
    api,
    handbook: {
      home: pathOf((yield* api.sites.getSiteById({ params: handbookParams })).urls.published),
      api: pathOf(sections.items.find((s) => s.id === apiSection.id)?.urls.published),
      v2: pathOf(sections.items.find((s) => s.id === productSection.id)?.siteSpaces.find((s) => s.id === v2.id)?.urls.published)
    },
    preview: {
      params: previewParams,
      home: `/~sites/${preview.id}/`,
      shared: pathOf(link.urls.published),
      linkId: link.id
    },
    partners: {
      home: pathOf(published.urls.published),
      key: auth.privateKey,
      enterprise: pathOf(partnerSections.items.find((s) => s.id === enterpriseSection.id)?.urls.published)
    }
  }
})

type Fixture = Effect.Success<ReturnType<typeof setUp>>

/** Errors the pages of a context report: console errors (CSP violations among them) and uncaught exceptions. */
const errorsOf = (context: BrowserContext): Array<string> => {
  const errors: Array<string> = []
  context.on("console", (message) => {
    // A page without a favicon of its own makes the browser ask the host's /favicon.ico, outside the site.
    if (message.type() === "error" && !message.location().url.endsWith("/favicon.ico")) errors.push(`console: ${message.text()} (${message.location().url})`)
  })
  context.on("weberror", (error) => errors.push(`pageerror: ${error.error().message}`))
  return errors
}

/** A new browser context on the test server and a page of it, closed with the scope. */
const openContext = (options: BrowserContextOptions = {}) =>
  Effect.acquireRelease(
    Effect.flatMap(baseUrl, (base) =>
      Effect.promise(async () => {
        const context = await chromium.browser().newContext({ baseURL: base, viewport: { width: 1280, height: 800 }, ...options })
        context.setDefaultTimeout(10_000)
        return { context, page: await context.newPage() }
      })),
    ({ context }) => Effect.promise(() => context.close())
  )

/** Runs `scenario` in a new browser context on the test server; the context is closed afterwards. */
const inBrowser = <A>(scenario: (context: BrowserContext, page: Page) => Promise<A>, options: BrowserContextOptions = {}) =>
  Effect.scoped(Effect.flatMap(openContext(options), ({ context, page }) => Effect.promise(() => scenario(context, page))))

/** The page's title as its heading shows it, without the page's emoji. */
const heading = async (page: Page) => {
  const h1 = page.locator(".page-header h1")
  const all = (await h1.innerText()).trim()
  const emoji = h1.locator(".emoji")
  return (await emoji.count()) === 0 ? all : all.slice((await emoji.innerText()).length).trim()
}

/** The colour of the page's background. */
const background = (page: Page) => page.evaluate(() => getComputedStyle(document.body).backgroundColor)

/** The primary colour in effect (the theme's `--primary`). */
const primary = (page: Page) => page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue("--primary").trim())

/** A full-page screenshot when they are wanted (not in CI: `screenshotsWanted`). */
const screenshot = async (page: Page, name: string) => {
  if (screenshotsWanted()) await page.screenshot({ path: join(screenshots, `${name}.png`), fullPage: true })
}

const text = async (page: Page, selector: string) => (await page.locator(selector).allTextContents()).map((t) => t.trim())

for (const backend of backends.filter((b) => b.name !== "pglite")) {
  layer(backend.layer, { timeout: 120_000, excludeTestServices: true })(`a published site in Chromium on ${backend.name}`, (it) => {
    let fixture: Fixture | undefined
    const site = Effect.suspend(() => fixture === undefined ? Effect.tap(setUp(), (f) => Effect.sync(() => fixture = f)) : Effect.succeed(fixture))

    it.effect("home page, sidebar with a group and nested pages, previous/next and the table of contents", () =>
      Effect.gen(function*() {
        const { handbook } = yield* site
        yield* inBrowser(async (context, page) => {
          const errors = errorsOf(context)
          const response = await page.goto(handbook.home)
          assert.strictEqual(response?.status(), 200)
          assert.strictEqual(await page.title(), "Overview | Acme Docs")
          assert.strictEqual(await heading(page), "Overview")
          assert.isTrue(await page.locator(".site-header img.logo").first().isVisible(), "the logo of the customization")
          // The template's page group, with its pages below its heading.
          assert.deepStrictEqual(await text(page, ".tree .tree-group > .tree-heading"), ["Guides"])
          assert.deepStrictEqual(await text(page, ".tree .tree-group .tree-link > span"), ["Configuration", "Deployment", "Docker"])
          assert.isFalse(await page.locator(".tree a.tree-link", { hasText: "Docker" }).isVisible(), "a nested page is folded away")

          await page.locator(".tree a.tree-link", { hasText: "Deployment" }).click()
          await page.waitForURL(/\/deployment$/)
          assert.strictEqual(await heading(page), "Deployment")
          assert.strictEqual(await page.locator(".tree [aria-current=page]").innerText(), "Deployment")
          await page.locator(".tree a.tree-link", { hasText: "Docker" }).click()
          await page.waitForURL(/\/deployment\/docker$/)
          assert.include(await page.locator(".markdown").innerText(), "Run the release in a container.")

          // Previous and next walk the tree in reading order.
          await page.locator("a.pager.next").click()
          await page.waitForURL(/\/faq$/)
          assert.strictEqual(await heading(page), "FAQ")
          await page.locator("a.pager.prev").click()
          await page.waitForURL(/\/deployment\/docker$/)
          await page.locator("a.pager.prev").click()
          await page.waitForURL(/\/deployment$/)

          // The table of contents leads to its headings.
          await page.goto(`${handbook.home}faq`)
          assert.deepStrictEqual(await text(page, ".toc a"), ["Is there a free plan?", "Where is my data stored?", "How do I get help?"])
          await page.locator(".toc a", { hasText: "How do I get help?" }).click()
          await page.waitForURL(/#how-do-i-get-help$/)
          const target = page.locator("#how-do-i-get-help")
          assert.match(await target.innerText(), /^How do I get help\?/)
          assert.isTrue(await target.evaluate((h) => {
            const box = h.getBoundingClientRect()
            return box.top >= 0 && box.top < window.innerHeight
          }), "the heading is scrolled into view")
          assert.deepStrictEqual(errors, [])
        })
      }))

    it.effect("sections as tabs, a section group menu and the variant switcher", () =>
      Effect.gen(function*() {
        const { handbook } = yield* site
        yield* inBrowser(async (context, page) => {
          const errors = errorsOf(context)
          await page.goto(handbook.home)
          assert.deepStrictEqual(await text(page, ".site-tabs > ul > li > a.tab, .site-tabs > ul > li > details > summary"), ["Product", "API reference", "Libraries"])
          assert.strictEqual(await page.locator(".site-tabs a.tab[aria-current=page]").innerText(), "Product")

          await page.locator(".site-tabs a.tab", { hasText: "API reference" }).click()
          await page.waitForURL((url) => url.pathname === handbook.api)
          assert.strictEqual(await heading(page), "Endpoints")
          assert.strictEqual(await page.locator(".site-tabs a.tab[aria-current=page]").innerText(), "API reference")

          // The group is a menu; its section opens from it.
          assert.isFalse(await page.locator(".site-tabs .tab-group a", { hasText: "SDKs" }).isVisible())
          await page.locator(".site-tabs .tab-group summary").click()
          await page.locator(".site-tabs .tab-group a", { hasText: "SDKs" }).click()
          await page.waitForURL(/\/sdks\/$/)
          assert.strictEqual(await heading(page), "JavaScript SDK")
          assert.strictEqual(await page.locator(".site-tabs .tab-group summary.current").count(), 1)

          // Variants of the Product section.
          await page.locator(".site-tabs a.tab", { hasText: "Product" }).click()
          await page.waitForURL((url) => url.pathname === handbook.home)
          assert.strictEqual(await page.locator(".sidebar .variants summary").innerText(), "Product")
          await page.locator(".sidebar .variants summary").click()
          assert.deepStrictEqual(await text(page, ".sidebar .variants .menu-list a"), ["Product", "Product v2"])
          await page.locator(".sidebar .variants a", { hasText: "Product v2" }).click()
          await page.waitForURL((url) => url.pathname === handbook.v2)
          assert.strictEqual(await heading(page), "What's new")
          assert.strictEqual(await page.locator(".sidebar .variants summary").innerText(), "Product v2")
          assert.strictEqual(await page.locator(".site-tabs a.tab[aria-current=page]").innerText(), "Product")
          await page.locator(".sidebar .variants summary").click()
          await page.locator(".sidebar .variants a", { hasText: /^Product$/ }).click()
          await page.waitForURL((url) => url.pathname === handbook.home)
          assert.strictEqual(await heading(page), "Overview")
          assert.deepStrictEqual(errors, [])
        })
      }))

    it.effect("search as you type with JavaScript, and a results page without it", () =>
      Effect.gen(function*() {
        const { handbook } = yield* site
        yield* inBrowser(async (context, page) => {
          const errors = errorsOf(context)
          await page.goto(handbook.home)
          const box = page.locator(".site-header input[name=q]")
          await box.click()
          await box.pressSequentially("walrus")
          const result = page.locator(".search-results a.search-result").first()
          // On a loaded machine the keys can come more than the 150 ms debounce apart, so results
          // for a prefix ("wal") may show first: wait for those of the whole word to replace them.
          await result.locator(".search-result-title", { hasText: /^Endpoints$/ }).waitFor({ timeout: 10_000 })
            .catch(() => undefined)
          assert.strictEqual(await result.locator(".search-result-title").innerText(), "Endpoints")
          assert.isTrue(page.url().endsWith(handbook.home), "the page stays while results appear")
          await result.click()
          await page.waitForURL((url) => url.pathname.startsWith(handbook.api))
          assert.strictEqual(await heading(page), "Endpoints")

          await box.fill("zzzqx")
          await page.locator(".search-results .search-empty").waitFor()
          assert.include(await page.locator(".search-results").innerText(), "No results")
          assert.deepStrictEqual(errors, [])
        })

        yield* inBrowser(async (_context, page) => {
          await page.goto(handbook.home)
          assert.isTrue(await page.locator(".search-results").isHidden())
          await page.locator(".site-header input[name=q]").fill("pelicans")
          await page.locator(".site-header input[name=q]").press("Enter")
          await page.waitForURL(/~search\?q=pelicans$/)
          assert.strictEqual(await page.locator(".search-page .page-header h1").innerText(), "Search")
          const results = page.locator("ol.search-page-results > li > a")
          assert.strictEqual(await results.count(), 1)
          assert.strictEqual(await results.locator(".search-result-title").innerText(), "What's new")
          await results.click()
          await page.waitForURL((url) => url.pathname === handbook.v2)
          assert.include(await page.locator(".markdown").innerText(), "Version two brings pelicans.")
        }, { javaScriptEnabled: false })
      }))

    it.effect("a share-link site: refused without the key, admitted with it, then by its cookie, refused once the link is deactivated", () =>
      Effect.gen(function*() {
        const { api, preview } = yield* site
        // One context throughout: the reader's cookies outlive the API call between the visits.
        const { context, page } = yield* openContext()
        yield* Effect.promise(async () => {
          const refused = await page.goto(preview.home)
          assert.strictEqual(refused?.status(), 401)
          assert.strictEqual(await page.locator("h1").innerText(), "Share link needed")
          assert.notInclude(await page.content(), "Overview")

          const shared = await page.goto(preview.shared)
          assert.strictEqual(shared?.status(), 200)
          assert.strictEqual(await heading(page), "Overview")
          assert.strictEqual(await page.locator("meta[name=robots]").getAttribute("content"), "noindex")

          // The key stays in a cookie: the bare URL and the links of the site open.
          const again = await page.goto(preview.home)
          assert.strictEqual(again?.status(), 200)
          await page.locator(".tree a.tree-link", { hasText: "Quickstart" }).click()
          await page.waitForURL(/\/quickstart$/)
          assert.strictEqual(await heading(page), "Quickstart")
          assert.isTrue((await context.cookies()).some((c) => c.name.startsWith("quire_share_") && c.httpOnly))
        })
        yield* api.siteShareLinks.updateSiteShareLinkById({ params: { ...preview.params, shareLinkId: preview.linkId }, payload: { active: false } })
        yield* Effect.promise(async () => {
          const refused = await page.goto(preview.home)
          assert.strictEqual(refused?.status(), 403)
          assert.strictEqual(await page.locator("h1").innerText(), "Share link not valid")
          assert.isFalse((await context.cookies()).some((c) => c.name.startsWith("quire_share_")), "the stale cookie is removed")
          assert.strictEqual((await page.goto(preview.shared))?.status(), 403)
        })
      }).pipe(Effect.scoped))

    it.effect("a visitor-auth site with a valid, an expired and a wrongly signed token", () =>
      Effect.gen(function*() {
        const { partners } = yield* site
        yield* inBrowser(async (_context, page) => {
          assert.strictEqual((await page.goto(partners.home))?.status(), 401)
          assert.strictEqual(await page.locator("h1").innerText(), "Sign-in needed")
          const valid = visitorToken({ plan: "free" }, partners.key, 3600)
          assert.strictEqual((await page.goto(`${partners.home}?jwt_token=${valid}`))?.status(), 200)
          assert.strictEqual(await heading(page), "Overview")
          // The token stays in a cookie for the rest of the visit.
          await page.locator(".tree a.tree-link", { hasText: "FAQ" }).click()
          await page.waitForURL(/\/faq$/)
          assert.strictEqual(await heading(page), "FAQ")
        })
        yield* inBrowser(async (_context, page) => {
          const expired = visitorToken({ plan: "free" }, partners.key, -3600)
          assert.strictEqual((await page.goto(`${partners.home}?jwt_token=${expired}`))?.status(), 401)
          assert.strictEqual(await page.locator("h1").innerText(), "Sign-in expired")
          const forged = visitorToken({ plan: "enterprise" }, `${partners.key}x`, 3600)
          assert.strictEqual((await page.goto(`${partners.home}?jwt_token=${forged}`))?.status(), 403)
          assert.strictEqual(await page.locator("h1").innerText(), "Access denied")
          assert.notInclude(await page.content(), "Overview")
        })
      }))

    it.effect("on a 390 px phone a long site title shows whole beside the menu and search buttons; a refusal is drawn in the site's fonts", () =>
      Effect.gen(function*() {
        const { api, preview } = yield* site
        const title = "Acme Developer Documentation Portal"
        const before = yield* api.sites.getSiteCustomizationById({ params: preview.params, query: {} })
        yield* api.sites.updateSiteCustomizationById({ params: preview.params, payload: { title } })
        const link = yield* api.siteShareLinks.createSiteShareLink({ params: preview.params, payload: { name: "Phone" } })
        yield* inBrowser(async (context, page) => {
          const errors = errorsOf(context)
          assert.strictEqual((await page.goto(pathOf(link.urls.published)))?.status(), 200)
          const brand = page.locator(".site-header .brand-title")
          assert.strictEqual(await brand.innerText(), title)
          // Neither cut by an ellipsis nor clipped: wrapped within the header, left of the search button.
          const shown = await brand.evaluate((el) => ({ fits: el.scrollWidth <= el.clientWidth && el.scrollHeight <= el.clientHeight + 1, right: el.getBoundingClientRect().right }))
          assert.isTrue(shown.fits)
          const search = await page.locator(".site-header .search").boundingBox()
          assert.isAtMost(shown.right, search!.x)
          assert.isAtMost(search!.x + search!.width, 390)
          assert.deepStrictEqual(errors, [])
        }, { viewport: { width: 390, height: 844 } })
        // A reader without the key: the refusal in the site's title and fonts, not the browser's Times.
        yield* inBrowser(async (context, page) => {
          const errors = errorsOf(context)
          assert.strictEqual((await page.goto(preview.home))?.status(), 401)
          const font = await page.evaluate(() => getComputedStyle(document.body).getPropertyValue("font-family"))
          assert.notMatch(font, /^"?Times/)
          assert.include(font, "system-ui")
          assert.strictEqual(await page.locator(".site-header .brand-title").innerText(), title)
          // The refused document's own 401 is the only error: the page's style and script pass its CSP.
          assert.deepStrictEqual(errors.filter((e) => !e.includes("status of 401")), [])
        }, { viewport: { width: 390, height: 844 } })
        yield* api.sites.updateSiteCustomizationById({ params: preview.params, payload: before as never })
      }))

    it.effect("an adaptive section: in the tabs for a visitor whose claims meet its condition, absent and 404 for another", () =>
      Effect.gen(function*() {
        const { partners } = yield* site
        yield* inBrowser(async (_context, page) => {
          await page.goto(`${partners.home}?jwt_token=${visitorToken({ plan: "enterprise" }, partners.key, 3600)}`)
          assert.deepStrictEqual(await text(page, ".site-tabs a.tab"), ["Product", "Enterprise"])
          await page.locator(".site-tabs a.tab", { hasText: "Enterprise" }).click()
          await page.waitForURL((url) => url.pathname === partners.enterprise)
          assert.strictEqual(await heading(page), "Single sign-on")
        })
        yield* inBrowser(async (_context, page) => {
          await page.goto(`${partners.home}?jwt_token=${visitorToken({ plan: "free" }, partners.key, 3600)}`)
          assert.strictEqual(await page.locator(".site-tabs a.tab", { hasText: "Enterprise" }).count(), 0)
          assert.notInclude(await page.content(), "Enterprise")
          const hidden = await page.goto(partners.enterprise)
          assert.strictEqual(hidden?.status(), 404)
          assert.strictEqual(await heading(page), "Page not found")
          assert.notInclude(await page.content(), "okapis")
        })
      }))

    it.effect("renders under the strict CSP without console errors and highlights code", () =>
      Effect.gen(function*() {
        const { handbook } = yield* site
        yield* inBrowser(async (context, page) => {
          const errors = errorsOf(context)
          const response = await page.goto(`${handbook.home}quickstart`)
          assert.include(response?.headers()["content-security-policy"] ?? "", "script-src 'sha256-")
          // The late script ran (it reveals the theme toggle), so its hash admitted it.
          await page.locator("[data-theme-toggle]").waitFor()
          const spans = page.locator(".markdown pre.shiki span[style*='--shiki-light']")
          assert.isAbove(await spans.count(), 3, "Shiki's tokens")
          const colors = new Set(await spans.evaluateAll((all) => all.map((s) => getComputedStyle(s).color)))
          assert.isAbove(colors.size, 1, `tokens in more than one colour: ${[...colors].join(", ")}`)
          assert.include(await page.locator(".markdown .hint").innerText(), "Stuck?")
          // Revisited, the page is revalidated (304) and still runs under its own policy.
          await page.goto(handbook.home)
          await page.goto(`${handbook.home}quickstart`)
          await page.locator("[data-theme-toggle]").waitFor()
          assert.deepStrictEqual(errors, [])
        })
      }))

    // The screenshots do not depend on storage: taken once, on memory.
    if (backend.name === "memory") {
      it.effect("the home page in light and dark, by the reader's system and by the theme toggle (screenshots)", () =>
        Effect.gen(function*() {
          const { handbook } = yield* site
          const light = yield* inBrowser(async (context, page) => {
            const errors = errorsOf(context)
            await page.goto(handbook.home)
            await page.locator(".markdown img").first().waitFor()
            await screenshot(page, "home-light")
            assert.strictEqual(await primary(page), "#4f46e5", "the customization's light primary colour")
            assert.deepStrictEqual(errors, [])
            return background(page)
          }, { colorScheme: "light" })
          const dark = yield* inBrowser(async (_context, page) => {
            await page.goto(handbook.home)
            await screenshot(page, "home-dark")
            assert.strictEqual(await primary(page), "#a5b4fc", "the customization's dark primary colour")
            return background(page)
          }, { colorScheme: "dark" })
          assert.notStrictEqual(dark, light, "the dark theme has its own background")

          // The toggle switches a light reader to dark, and the choice stays on the next page.
          yield* inBrowser(async (_context, page) => {
            await page.goto(handbook.home)
            await page.locator("[data-theme-toggle]").click()
            assert.strictEqual(await page.locator("html").getAttribute("data-theme"), "dark")
            assert.strictEqual(await background(page), dark)
            await screenshot(page, "home-toggled-dark")
            await page.goto(`${handbook.home}faq`)
            assert.strictEqual(await page.locator("html").getAttribute("data-theme"), "dark")
            await page.locator("[data-theme-toggle]").click()
            assert.strictEqual(await background(page), light)
          }, { colorScheme: "light" })
        }))
    }
  })
}
