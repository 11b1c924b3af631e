/**
 * GitBook's blocks on a published page over HTTP (issue 20): formulas, diagrams and players load
 * their files from the site itself, the CSP allows those files and frames the players' origins
 * only, and `{% if %}` shows each reader the branch of their claims.
 */
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { memory } from "./Harness.ts"
import { get, publishedSite, write } from "./SiteFixtures.ts"

const blocks = `Area $$\\pi r^2$$ of a circle.

\`\`\`mermaid
flowchart TD
  A --> B
\`\`\`

{% embed url="https://www.youtube.com/watch?v=D_uLM5i0Z4c" %}

{% if visitor.claims.unsigned.pro %}
Pro readers see this.
{% else %}
Everyone else sees this.
{% endif %}
`

for (const backend of [memory]) {
  layer(backend.layer, { timeout: 300_000, excludeTestServices: true })(`published blocks on ${backend.name}`, (it) => {
    it.effect("a page with formulas, a diagram and a player loads their files from its site, and its CSP allows just those", () =>
      Effect.gen(function*() {
        const s = yield* publishedSite("public")
        yield* write(s.api, s.guides.id, [{ operation: "insert_page", title: "Blocks", slug: "blocks", document: { markdown: blocks } }])
        const page = yield* get(`${s.path}blocks`)
        assert.strictEqual(page.status, 200)
        assert.include(page.text, `<link rel="stylesheet" href="${s.path}~assets/katex/katex.min.css">`)
        assert.include(page.text, `<span class="katex">`)
        assert.include(page.text, `<pre class="mermaid">flowchart TD`)
        assert.include(page.text, `<script src="${s.path}~assets/blocks.js" defer data-mermaid="${s.path}~assets/mermaid.min.js"></script>`)
        assert.include(page.text, `data-embed-src="https://www.youtube-nocookie.com/embed/D_uLM5i0Z4c?autoplay=1"`)
        assert.notInclude(page.text, "<iframe")
        assert.notInclude(page.text, "{%")
        assert.notInclude(page.text, "$$")
        const policy = page.headers.get("content-security-policy") ?? ""
        assert.match(policy, new RegExp(`script-src [^;]*https?://[^/]+${s.path}~assets/blocks\\.js`))
        assert.match(policy, new RegExp(`style-src [^;]*https?://[^/]+${s.path}~assets/katex/katex\\.min\\.css`))
        assert.match(policy, /frame-src https:\/\/www\.youtube-nocookie\.com https:\/\/player\.vimeo\.com [^;]*;/)
        assert.notMatch(policy, /frame-src[^;]* https:(?:;| )/)

        const css = yield* get(`${s.path}~assets/katex/katex.min.css`)
        assert.strictEqual(css.status, 200)
        assert.match(css.headers.get("content-type") ?? "", /^text\/css/)
        const font = yield* get(`${s.path}~assets/katex/fonts/KaTeX_Main-Regular.woff2`)
        assert.strictEqual(font.status, 200)
        assert.strictEqual(font.headers.get("content-type"), "font/woff2")
        const script = yield* get(`${s.path}~assets/blocks.js`)
        assert.match(script.headers.get("content-type") ?? "", /^text\/javascript/)
        assert.include(script.text, "embed-play")
        const mermaid = yield* get(`${s.path}~assets/mermaid.min.js`)
        assert.strictEqual(mermaid.status, 200)
        assert.strictEqual((yield* get(`${s.path}~assets/nope.js`)).status, 404)
      }))

    it.effect("on `/~sites/<id>/` of a site with its own hostname, the formulas' stylesheet is the one its CSP allows", () =>
      Effect.gen(function*() {
        const s = yield* publishedSite("public")
        yield* write(s.api, s.guides.id, [{ operation: "insert_page", title: "Blocks", slug: "blocks", document: { markdown: blocks } }])
        const hostname = `docs-${s.siteId.toLowerCase().replaceAll(/[^a-z0-9]/g, "")}.example.com`
        yield* s.api.sites.updateSiteById({ params: { organizationId: s.organizationId, siteId: s.siteId }, payload: { hostname } })
        const page = yield* get(`${s.path}blocks`)
        const href = /<link rel="stylesheet" href="([^"]*katex[^"]*)">/.exec(page.text)?.[1]
        const policy = page.headers.get("content-security-policy") ?? ""
        const styles = /style-src ([^;]*)/.exec(policy)?.[1]?.split(" ") ?? []
        assert.isDefined(href)
        assert.isTrue(styles.some((source) => source.endsWith(href!)), `${href} in ${styles.join(" ")}`)
      }))

    it.effect("{% if %} shows the branch of the reader's claims, never both, and no reader gets another's page", () =>
      Effect.gen(function*() {
        const s = yield* publishedSite("public")
        yield* write(s.api, s.guides.id, [{ operation: "insert_page", title: "Blocks", slug: "blocks", document: { markdown: blocks } }])
        const anonymous = yield* get(`${s.path}blocks`)
        assert.include(anonymous.text, "Everyone else sees this.")
        assert.notInclude(anonymous.text, "Pro readers see this.")
        const pro = yield* get(`${s.path}blocks?visitor.pro=true`)
        assert.include(pro.text, "Pro readers see this.")
        assert.notInclude(pro.text, "Everyone else sees this.")
        const again = yield* get(`${s.path}blocks`)
        assert.notInclude(again.text, "Pro readers see this.")
      }))
  })
}
