/**
 * GitBook's card grids on Quire's published page (Cards.ts, a form of the block tree's renderer): real
 * card tables from GitBook repositories (rows left out where noted), each card's cover resolved
 * through the site's files, its target through its links, nothing of the table's HTML or of the
 * cover's file name shown as words.
 */
import { assert, describe, it } from "vitest"
import { type RenderOptions, renderPageSync } from "../src/render/Markdown.ts"

const options: RenderOptions = {
  // Pages by path; a GitBook link to a page it lost (`/broken/pages/…`) resolves to nothing.
  resolveLink: (url) => (/^[a-z]+:|^\/broken\//i.test(url) ? undefined : `/docs/${url.replace(/^(?:\.\.\/)+/, "").replace(/\.md$/, "").replace(/\/$/, "")}`),
  // Files of the space by name: `.gitbook/assets/x.png` from any folder.
  resolveFile: (ref) => {
    const name = /\.gitbook\/assets\/(.+)$/.exec(ref)?.[1]
    return name === undefined ? undefined : { url: `/files/${encodeURIComponent(name)}` }
  },
  resolveTitle: (url) => (url === "share-links.md" ? "Share links" : url === "visual-builders/email-builder.md" ? "Email Builder" : undefined)
}

const draw = (table: string) => renderPageSync(`${table}\n`, options)

/** The HTML's words: what a reader sees of it. */
const words = (html: string) => html.replace(/<[^>]*>/g, " ").replace(/\s+/g, " ")

const noHtmlAsText = (html: string) => {
  assert.notMatch(words(html), /[<>]|&lt;|&gt;|data-card|data-hidden/)
  assert.notInclude(html, "<table")
  assert.notInclude(html, "<td")
}

// GitbookIO/public-docs, documentation/publish/site-audience/authenticated-access/enabling-authenticated-access.md (two of its six rows).
const authenticatedAccess = `<table data-view="cards"><thead><tr><th></th><th data-hidden data-card-cover data-type="image">Cover image</th><th data-hidden data-card-target data-type="content-ref"></th><th data-hidden data-card-cover-dark data-type="image">Cover image (dark)</th></tr></thead><tbody><tr><td>Setting up Auth0</td><td><a href="../../../.gitbook/assets/25_12_10_auth0_1 (1).png">25_12_10_auth0_1 (1).png</a></td><td><a href="setting-up-auth0.md">setting-up-auth0.md</a></td><td><a href="../../../.gitbook/assets/25_12_10_auth0 (1).png">25_12_10_auth0 (1).png</a></td></tr><tr><td>Setting up Azure AD</td><td><a href="../../../.gitbook/assets/25_12_10_azure_1 (1).png">25_12_10_azure_1 (1).png</a></td><td><a href="setting-up-azure-ad.md">setting-up-azure-ad.md</a></td><td><a href="../../../.gitbook/assets/25_12_10_azure (1).png">25_12_10_azure (1).png</a></td></tr></tbody></table>`

// BeefreeSDK/beefree-sdk-docs, README.md: a target column that is shown, a cover column of files.
const builders = `<table data-view="cards"><thead><tr><th data-card-target data-type="content-ref"></th><th data-hidden data-card-cover data-type="files"></th></tr></thead><tbody><tr><td><a href="visual-builders/email-builder.md">email-builder.md</a></td><td><a href=".gitbook/assets/emailbuilder-e1629383000405.png">emailbuilder-e1629383000405.png</a></td></tr><tr><td><a href="visual-builders/page-builder/">page-builder</a></td><td><a href=".gitbook/assets/Page-Builder.jpg">Page-Builder.jpg</a></td></tr><tr><td><a href="visual-builders/popup-builder/">popup-builder</a></td><td><a href=".gitbook/assets/popupbuilder-e1629383038360.png">popupbuilder-e1629383038360.png</a></td></tr></tbody></table>`

// GitbookIO/public-docs, documentation/getting-started/quickstart.md (two of its six rows: one target lost, one kept).
const quickstart = `<table data-view="cards"><thead><tr><th></th><th></th><th data-hidden data-card-cover data-type="image">Cover image</th><th data-hidden data-card-target data-type="content-ref"></th><th data-hidden data-type="image">Cover image (dark)</th><th data-hidden data-type="image">Cover image (dark)</th><th data-hidden data-type="image">Cover image (dark)</th><th data-hidden data-type="image">Cover image (dark)</th><th data-hidden data-card-cover-dark data-type="image">Cover image (dark)</th></tr></thead><tbody><tr><td><strong>Install integrations</strong></td><td>Integrate with your stack and extend functionality with powerful integrations</td><td><a href="../.gitbook/assets/25_12_10_install_integrations_1 (1).png">25_12_10_install_integrations_1 (1).png</a></td><td><a href="/broken/pages/b29aoPwtKZKkAO7zajgr">Broken link</a></td><td><a href="../.gitbook/assets/25_12_10_install_integrations (1).png">25_12_10_install_integrations (1).png</a></td><td></td><td></td><td></td><td><a href="../.gitbook/assets/25_12_10_install_integrations (1).png">25_12_10_install_integrations (1).png</a></td></tr><tr><td><strong>Track docs analytics</strong></td><td>Use the built-in insights to measure success and understand user behavior</td><td><a href="../.gitbook/assets/25_12_10_track_docs_analytics_1 (1).png">25_12_10_track_docs_analytics_1 (1).png</a></td><td><a href="../analytics/insights.md">insights.md</a></td><td><a href="../.gitbook/assets/25_12_10_track_docs_analytics (1).png">25_12_10_track_docs_analytics (1).png</a></td><td></td><td></td><td></td><td></td></tr></tbody></table>`

// GitbookIO/public-docs, developers/README.md (one of its three rows): no target, five shown columns (an icon, links).
const developers = `<table data-view="cards"><thead><tr><th></th><th></th><th></th><th></th><th></th><th data-hidden data-card-cover data-type="image">Cover image</th><th data-hidden data-card-cover-dark data-type="image">Cover image (dark)</th></tr></thead><tbody><tr><td><h4><i class="fa-puzzle-piece">:puzzle-piece:</i></h4></td><td><h4>Custom components</h4></td><td><a href="integrations/quickstart.md">Quickstart</a></td><td><a href="integrations/development/contentkit/">ContentKit</a></td><td><a href="integrations/guides/interactivity.md">Create interactive blocks</a></td><td><a href=".gitbook/assets/create-an-integration.png">create-an-integration.png</a></td><td><a href=".gitbook/assets/create-an-integration-1.png">create-an-integration-1.png</a></td></tr></tbody></table>`

// GitbookIO/public-docs, documentation/publish/site-audience/README.md: titled columns, the target's shown.
const audience = `<table data-view="cards"><thead><tr><th>Access method</th><th data-card-target data-type="content-ref">Learn more</th></tr></thead><tbody><tr><td>Private publishing with share links — Give anyone with a unique link read-only access to your content.</td><td><a href="share-links.md">share-links.md</a></td></tr><tr><td>Authenticated access — Require visitors to sign in through your authentication provider.</td><td><a href="authenticated-access/">authenticated-access</a></td></tr></tbody></table>`

describe("GitBook's card grids", () => {
  it("a card a row, its cover resolved through the site's files above its words, the whole card a link to its target", () => {
    const { html, text } = draw(authenticatedAccess)
    assert.include(html, `<div class="cards"><a href="/docs/setting-up-auth0" class="card">`)
    assert.include(html, `<img src="/files/25_12_10_auth0_1%20(1).png" alt="" loading="lazy" class="card-cover card-cover-light">`)
    assert.include(html, `<div class="card-body"><div class="card-cell">Setting up Auth0</div></div></a>`)
    assert.include(html, `<a href="/docs/setting-up-azure-ad" class="card">`)
    assert.strictEqual(html.split(`class="card"`).length - 1, 2)
    assert.deepStrictEqual(text.split("\n"), ["Setting up Auth0", "Setting up Azure AD"])
    assert.notInclude(html, ".png</")
    assert.notInclude(words(html), "Cover image")
    noHtmlAsText(html)
  })

  it("the dark cover is the light one's variant, shown in dark mode in its place", () => {
    const { html } = draw(authenticatedAccess)
    assert.include(html, `class="card-cover card-cover-light"><img src="/files/25_12_10_auth0%20(1).png" alt="" loading="lazy" class="card-cover card-cover-dark">`)
    // A row with no dark cover has its light one alone, shown in both modes.
    const { html: builder } = draw(builders)
    assert.include(builder, `<img src="/files/emailbuilder-e1629383000405.png" alt="" loading="lazy" class="card-cover">`)
    assert.notInclude(builder, "card-cover-dark")
  })

  it("a target column that is shown shows its page's title; a cover column's file names are never words", () => {
    const { html, text } = draw(builders)
    assert.include(html, `<a href="/docs/visual-builders/email-builder" class="card"><img src="/files/emailbuilder-e1629383000405.png"`)
    // The card is the link: the title inside it is words, not a second link.
    assert.include(html, `<div class="card-cell"><span>Email Builder</span></div>`)
    assert.include(html, `<a href="/docs/visual-builders/page-builder" class="card"><img src="/files/Page-Builder.jpg"`)
    assert.include(html, `<span>page-builder</span>`)
    assert.notMatch(html, /<a [^>]*class="card"[^>]*>(?:(?!<\/a>).)*<a /)
    assert.notMatch(text, /\.png|\.jpg/)
    noHtmlAsText(html)
  })

  it("a lost target leaves its card without a link; a kept one links it", () => {
    const { html } = draw(quickstart)
    assert.include(html, `<div class="card"><img src="/files/25_12_10_install_integrations_1%20(1).png" alt="" loading="lazy" class="card-cover card-cover-light">`)
    assert.include(html, `<div class="card-cell"><strong>Install integrations</strong></div><div class="card-cell">Integrate with your stack and extend functionality with powerful integrations</div>`)
    assert.include(html, `<a href="/docs/analytics/insights" class="card"><img src="/files/25_12_10_track_docs_analytics_1%20(1).png"`)
    assert.notInclude(html, "broken")
    assert.notInclude(words(html), "Broken link")
    noHtmlAsText(html)
  })

  it("a card without a target keeps the links and icons of its cells; column titles are not shown", () => {
    const { html } = draw(developers)
    assert.include(html, `<div class="cards"><div class="card"><img src="/files/create-an-integration.png"`)
    assert.include(html, `<div class="card-cell"><a href="/docs/integrations/quickstart">Quickstart</a></div>`)
    assert.include(html, `<div class="card-cell"><h4>Custom components</h4></div>`)
    assert.match(html, /<div class="card-cell"><h4><span class="gb-icon" aria-hidden="true"><svg/)
    assert.notInclude(html, ":puzzle-piece:")
    assert.notInclude(html, "create-an-integration.png<")

    const { html: titled, text } = draw(audience)
    assert.notInclude(words(titled), "Access method")
    assert.notInclude(words(titled), "Learn more")
    assert.include(titled, `<a href="/docs/share-links" class="card"><div class="card-body"><div class="card-cell">Private publishing with share links`)
    assert.include(titled, `<div class="card-cell"><span>Share links</span></div>`)
    assert.include(text, "Authenticated access — Require visitors")
    noHtmlAsText(titled)
  })

  it("a cover written as an image is drawn as the cover; one Quire does not hold shows no cover", () => {
    // Beefree's README row with its cover cell as an <img>, and GitBook's lost file (`/broken/files/…`).
    const { html } = draw(`<table data-view="cards"><thead><tr><th data-card-target data-type="content-ref"></th><th data-hidden data-card-cover data-type="files"></th></tr></thead><tbody><tr><td><a href="visual-builders/email-builder.md">email-builder.md</a></td><td><img src=".gitbook/assets/emailbuilder-e1629383000405.png" alt=""></td></tr><tr><td><a href="visual-builders/page-builder/">page-builder</a></td><td><a href="/broken/files/LYc9VEC4k1NRXaB3zinZ">Broken link</a></td></tr></tbody></table>`)
    assert.include(html, `<a href="/docs/visual-builders/email-builder" class="card"><img src="/files/emailbuilder-e1629383000405.png" alt="" loading="lazy" class="card-cover">`)
    assert.include(html, `<a href="/docs/visual-builders/page-builder" class="card"><div class="card-body">`)
    assert.notInclude(html, "broken")
    noHtmlAsText(html)
  })

  it("large cards are two to a row; a table naming no cover, target or hidden column stays the table it is", () => {
    const large = draw(authenticatedAccess.replace(`<table data-view="cards">`, `<table data-card-size="large" data-view="cards">`)).html
    assert.include(large, `<div class="cards cards-large">`)
    // BeefreeSDK/beefree-sdk-docs, data-structures/getting-started.md (two of its six rows).
    const plain = draw(`<table data-view="cards"><thead><tr><th></th><th data-type="content-ref"></th></tr></thead><tbody><tr><td>Schema Catalog</td><td><a href="schema-catalog.md">schema-catalog.md</a></td></tr><tr><td>Simple Schema</td><td><a href="simple-schema/">simple-schema</a></td></tr></tbody></table>`).html
    assert.include(plain, `<table class="cards"><thead><tr><th></th><th></th></tr></thead><tbody><tr><td>Schema Catalog</td><td><a href="/docs/schema-catalog">schema-catalog.md</a></td></tr>`)
  })
})
