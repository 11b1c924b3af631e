import { assert, describe, it } from "@effect/vitest"
import { classifyLinks, type LinkContext, linkStats, resolveLink } from "../src/Links.ts"
import type { HtmlLinks } from "../src/Markdown.ts"

// The pages classified here hold no raw HTML (content's tests read links in HTML with its parser).
const noHtml: HtmlLinks = () => []

const pagesByPath = new Map([
  ["welcome", "p-welcome"],
  ["guides", "p-guides"],
  ["guides/install", "p-install"],
  ["guides/upgrade", "p-upgrade"],
  ["guides/advanced", "p-advanced"],
  ["guides/advanced/tuning", "p-tuning"],
  ["reference", "p-reference"]
])

const context = (pagePath: string, pages: ReadonlyMap<string, string> = pagesByPath): LinkContext => ({
  pagePath,
  pagesByPath: pages,
  fileIds: new Set(["f-logo"]),
  appBaseUrl: "https://docs.example.com/app",
  rootPagePath: "welcome"
})

const resolve = (url: string, pagePath = "guides/install", kind: "link" | "image" = "link") =>
  resolveLink({ url, kind }, context(pagePath))

describe("Links", () => {
  it("resolves relative .md links between pages, as Git Sync lays them out", () => {
    assert.deepStrictEqual(resolve("upgrade.md"), { target: { kind: "page", page: "p-upgrade" }, status: "ok" })
    assert.deepStrictEqual(resolve("./upgrade.md#rollback"), {
      target: { kind: "page", page: "p-upgrade", anchor: "rollback" },
      status: "ok"
    })
    assert.deepStrictEqual(resolve("../reference.md"), { target: { kind: "page", page: "p-reference" }, status: "ok" })
    // A leaf page's README.md is its parent's own page; ../README.md the space's first page.
    assert.deepStrictEqual(resolve("README.md"), { target: { kind: "page", page: "p-guides" }, status: "ok" })
    assert.deepStrictEqual(resolve("../README.md"), { target: { kind: "page", page: "p-welcome" }, status: "ok" })
    assert.deepStrictEqual(resolve("advanced/"), { target: { kind: "page", page: "p-advanced" }, status: "ok" })
    assert.deepStrictEqual(resolve("./advanced/tuning"), { target: { kind: "page", page: "p-tuning" }, status: "ok" })
  })

  it("resolves a page with subpages from its own folder", () => {
    assert.deepStrictEqual(resolve("tuning.md", "guides/advanced"), { target: { kind: "page", page: "p-tuning" }, status: "ok" })
    assert.deepStrictEqual(resolve("../install.md", "guides/advanced"), { target: { kind: "page", page: "p-install" }, status: "ok" })
    assert.deepStrictEqual(resolve("guides/install.md", "welcome"), { target: { kind: "page", page: "p-install" }, status: "ok" })
  })

  it("resolves GitBook's /pages/ forms", () => {
    assert.deepStrictEqual(resolve("/pages/p-tuning#knobs"), { target: { kind: "page", page: "p-tuning", anchor: "knobs" }, status: "ok" })
    assert.deepStrictEqual(resolve("/pages/guides/upgrade"), { target: { kind: "page", page: "p-upgrade" }, status: "ok" })
    assert.deepStrictEqual(resolve("/pages/guides/upgrade.md"), { target: { kind: "page", page: "p-upgrade" }, status: "ok" })
    assert.deepStrictEqual(resolve("/pages/guides/README.md"), { target: { kind: "page", page: "p-guides" }, status: "ok" })
    assert.deepStrictEqual(resolve("/pages/README.md"), { target: { kind: "page", page: "p-welcome" }, status: "ok" })
  })

  it("marks a link to a renamed page as broken, naming the path it looked for", () => {
    const renamed = new Map([...pagesByPath].filter(([path]) => path !== "guides/upgrade").concat([["guides/upgrading", "p-upgrade"]]))
    const [link] = classifyLinks("See [upgrade](upgrade.md).", context("guides/install", renamed), noHtml)
    assert.strictEqual(link?.status, "broken")
    assert.deepStrictEqual(link?.target, { kind: "page", path: "guides/upgrade" })
    assert.deepStrictEqual(resolve("/pages/nope"), { target: { kind: "page", path: "nope" }, status: "broken" })
  })

  it("checks file references against the revision's files", () => {
    assert.deepStrictEqual(resolve("/files/f-logo", "guides/install", "image"), { target: { kind: "file", file: "f-logo" }, status: "ok" })
    assert.deepStrictEqual(resolve("/files/f-gone"), { target: { kind: "file", file: "f-gone" }, status: "broken" })
    assert.deepStrictEqual(resolve("../.gitbook/assets/logo.png", "guides/install", "image"), {
      target: { kind: "file", file: ".gitbook/assets/logo.png" },
      status: "broken"
    })
  })

  it("tells app links from external ones, and skips anchors and mail links", () => {
    assert.deepStrictEqual(resolve("https://docs.example.com/app/s/space-1"), {
      target: { kind: "url", url: "https://docs.example.com/app/s/space-1" },
      status: "in-app"
    })
    assert.deepStrictEqual(resolve("https://docs.example.com/application"), {
      target: { kind: "url", url: "https://docs.example.com/application" },
      status: "ok"
    })
    assert.deepStrictEqual(resolve("https://nowhere.invalid/x"), { target: { kind: "url", url: "https://nowhere.invalid/x" }, status: "ok" })
    assert.isUndefined(resolve("#section"))
    assert.isUndefined(resolve("mailto:team@example.com"))
  })

  it("classifies a whole page and counts its links", () => {
    const links = classifyLinks(
      "[a](upgrade.md) [b](missing.md) [c](#top) [d](https://example.com) ![e](/files/f-logo) [f](mailto:x@y.z)",
      context("guides/install"),
      noHtml
    )
    assert.deepStrictEqual(links.map((link) => link.status), ["ok", "broken", "ok", "ok"])
    assert.deepStrictEqual(linkStats(links), { total: 4, broken: 1 })
    assert.deepStrictEqual(links[1]?.position, { line: 1, column: 17 })
  })
})
