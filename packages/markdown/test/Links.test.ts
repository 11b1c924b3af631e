import { assert, describe, it } from "@effect/vitest"
import { classifyLinks, type LinkContext, linkStats, plainJoin, resolveLink } from "../src/Links.ts"
import type { HtmlLinks } from "../src/MarkdownLinks.ts"

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

  it("reads an app link in any form the URL parser reads alike, however many links share its site", () => {
    const page = classifyLinks(
      "[a](HTTPS://Docs.Example.COM/app/x) [b](https://docs.example.com:443/app/y) [c](https://docs.example.com/other) " +
        "[d](https://docs.example.com.evil.test/app/z) [e](https://user@docs.example.com/app/w) [f](https://docs.example.com/app)",
      context("guides/install"),
      noHtml
    )
    assert.deepStrictEqual(page.map((link) => link.status), ["in-app", "in-app", "ok", "ok", "in-app", "in-app"])
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

describe("Links from a page's file in the repository (GitBook's layout)", () => {
  // SUMMARY nests the setup guide under "Get started", while its file lives in mining/setup/.
  const pages = new Map([
    ["welcome", "p-welcome"],
    ["get-started/getting-started", "p-setup"],
    ["concepts/node-types", "p-nodes"],
    ["concepts", "p-concepts"]
  ])
  const gitContext: LinkContext = {
    pagePath: "get-started/getting-started",
    pagesByPath: pages,
    fileIds: new Set(["f-rig", "f-shot", "f-logo"]),
    appBaseUrl: "https://docs.example.com/app",
    rootPagePath: "welcome",
    pageFilePath: "docs/mining/setup/getting-started.md",
    pagesByFile: new Map([
      ["docs/README.md", "p-welcome"],
      ["docs/mining/setup/getting-started.md", "p-setup"],
      ["docs/mining/overview/node-types.md", "p-nodes"],
      ["docs/mining/overview/README.md", "p-concepts"]
    ]),
    filesByPath: new Map([
      ["docs/mining/images/rig.png", "f-rig"],
      ["docs/.gitbook/assets/image (3).png", "f-shot"],
      ["docs/mining/setup/img/logo.png", "f-logo"]
    ])
  }
  const at = (url: string, kind: "link" | "image" = "link") => resolveLink({ url, kind }, gitContext)

  it("resolves relative links against the page's file, wherever the table of contents nests it", () => {
    assert.deepStrictEqual(at("../overview/node-types.md"), { target: { kind: "page", page: "p-nodes" }, status: "ok" })
    assert.deepStrictEqual(at("../overview/node-types.md#miners"), { target: { kind: "page", page: "p-nodes", anchor: "miners" }, status: "ok" })
    assert.deepStrictEqual(at("../overview/"), { target: { kind: "page", page: "p-concepts" }, status: "ok" })
    assert.deepStrictEqual(at("../../README.md"), { target: { kind: "page", page: "p-welcome" }, status: "ok" })
  })

  it("resolves images beside pages and in any folder, angle brackets and percent-encoding read as the path", () => {
    assert.deepStrictEqual(at("../images/rig.png", "image"), { target: { kind: "file", file: "f-rig" }, status: "ok" })
    assert.deepStrictEqual(at("img/logo.png", "image"), { target: { kind: "file", file: "f-logo" }, status: "ok" })
    assert.deepStrictEqual(at("<../../.gitbook/assets/image (3).png>", "image"), { target: { kind: "file", file: "f-shot" }, status: "ok" })
    assert.deepStrictEqual(at("../../.gitbook/assets/image%20(3).png", "image"), { target: { kind: "file", file: "f-shot" }, status: "ok" })
    // Git Sync keeps references to the assets folder in a neutral form, from the documentation root.
    assert.deepStrictEqual(at("/.gitbook/assets/image (3).png", "image"), { target: { kind: "file", file: "f-shot" }, status: "ok" })
    assert.deepStrictEqual(at("/.gitbook/assets/image%20(3).png", "image"), { target: { kind: "file", file: "f-shot" }, status: "ok" })
  })

  it("resolves a path from the root as GitBook does: from the repository's root or the project's, percent-encoded, with its anchor", () => {
    assert.deepStrictEqual(at("/docs/mining/overview/node-types.md"), { target: { kind: "page", page: "p-nodes" }, status: "ok" })
    assert.deepStrictEqual(at("/mining/overview/node-types.md#miners"), { target: { kind: "page", page: "p-nodes", anchor: "miners" }, status: "ok" })
    assert.deepStrictEqual(at("/mining/overview/README.md"), { target: { kind: "page", page: "p-concepts" }, status: "ok" })
    assert.deepStrictEqual(at("/mining/overview"), { target: { kind: "page", page: "p-concepts" }, status: "ok" })
    assert.deepStrictEqual(at("/mining/setup/img/logo.png", "image"), { target: { kind: "file", file: "f-logo" }, status: "ok" })
    const spaced: LinkContext = {
      ...gitContext,
      pagesByFile: new Map([...gitContext.pagesByFile!, ["docs/Mobile Application/Android/Intent Vulnerabilities/README.md", "p-intent"]])
    }
    assert.deepStrictEqual(
      resolveLink({ url: "/Mobile%20Application/Android/Intent%20Vulnerabilities/README.md#intent-filter", kind: "link" }, spaced),
      { target: { kind: "page", page: "p-intent", anchor: "intent-filter" }, status: "ok" }
    )
    // A path from the root that names no file is still looked up in the tree, and broken there.
    assert.strictEqual(at("/Container/Escaping/exposed-docker-socket.md")?.status, "broken")
  })

  it("names the repository path of an image that is not there", () => {
    assert.deepStrictEqual(at("../images/gone.png", "image"), { target: { kind: "file", file: "docs/mining/images/gone.png" }, status: "broken" })
  })

  it("falls back to the page's place in the tree for pages that have no file yet", () => {
    assert.deepStrictEqual(at("../concepts/node-types.md"), { target: { kind: "page", page: "p-nodes" }, status: "ok" })
  })
})

describe("plainJoin, the string shortcut of a relative path from a page's file", () => {
  /** The join it stands for, as a file system joins: `.` and empty segments dropped, `..` back one (never above the root), `%` decoded. */
  const reference = (folder: ReadonlyArray<string>, path: string): string => {
    const out: Array<string> = []
    for (const segment of [...folder, ...path.split("/")]) {
      if (segment === "" || segment === ".") continue
      if (segment === "..") out.pop()
      else out.push(segment.includes("%") ? (() => { try { return decodeURIComponent(segment) } catch { return segment } })() : segment)
    }
    return out.join("/")
  }

  it("joins every plain path as the segments would, and leaves every other path to them", () => {
    let seed = 7
    const next = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648
      return Math.floor((seed / 2147483648) * n)
    }
    const pieces = ["a", "b.md", "README.md", ".", "..", "", "..x", ".hidden", "%20", "c%2Fd", "...", "e f"]
    const folders: ReadonlyArray<ReadonlyArray<string>> = [[], ["docs"], ["docs", "area-1"], ["x", "..", "y"], ["a%20b", "c"], ["p", ".", "q"]]
    let plain = 0
    for (let i = 0; i < 20_000; i++) {
      const folder = folders[next(folders.length)]!
      const path = Array.from({ length: 1 + next(5) }, () => pieces[next(pieces.length)]).join("/")
      const joined = plainJoin(folder)(path)
      if (joined === undefined) continue
      plain++
      assert.strictEqual(joined, reference(folder, path), `${JSON.stringify(folder)} + ${path}`)
    }
    assert.isAbove(plain, 2_000)
    for (const path of ["", ".", "..", "../..", "./", "a/", "a//b", "a/./b", "a/../b", "a%20b", "/a"]) {
      assert.isUndefined(plainJoin(["docs"])(path), path)
    }
    assert.strictEqual(plainJoin(["docs", "area-3"])("../area-85/topic-8439.md"), "docs/area-85/topic-8439.md")
    assert.strictEqual(plainJoin(["docs"])("../../../x.md"), "x.md")
  })
})
