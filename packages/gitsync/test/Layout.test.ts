import { Workloads } from "@quire/testkit"
import { Result } from "effect"
import { assert, describe, it } from "vitest"
import {
  assetRefsToFileRefs,
  type ContentToWrite,
  defaultConfig,
  fileRefsToAssetRefs,
  LayoutProblem,
  readRepository,
  type RepoPage,
  type RepositoryContent,
  type RepositoryFiles,
  writeRepository
} from "../src/layout/Layout.ts"
import { referencedFiles } from "../src/layout/AssetReading.ts"

const encoder = new TextEncoder()
const decoder = new TextDecoder()

/** A commit's files from path → text (or bytes); oids are made up from the content. */
const repo = (files: Record<string, string | Uint8Array>): Map<string, { oid: string; bytes: Uint8Array }> =>
  new Map(Object.entries(files).map(([path, value]) => {
    const bytes = typeof value === "string" ? encoder.encode(value) : value
    return [path, { oid: `oid-${path}-${bytes.length}`, bytes }]
  }))

/** The files after `changes` are applied. */
const apply = (files: RepositoryFiles, changes: ReadonlyMap<string, Uint8Array | null>) => {
  const out = new Map(files)
  for (const [path, bytes] of changes) {
    if (bytes === null) out.delete(path)
    else out.set(path, { oid: `oid-${path}-${bytes.length}-new`, bytes })
  }
  return out
}

const read = (files: RepositoryFiles, projectDirectory?: string): RepositoryContent => {
  const result = readRepository(files, { projectDirectory })
  if (Result.isFailure(result)) throw new Error(result.failure.message)
  return result.success
}

const write = (content: ContentToWrite, previous: RepositoryFiles, projectDirectory?: string) => {
  const result = writeRepository(content, previous, { projectDirectory })
  if (Result.isFailure(result)) throw new Error(result.failure.message)
  return result.success
}

const text = (files: RepositoryFiles, path: string): string => {
  const file = files.get(path)
  if (file === undefined) throw new Error(`no ${path}`)
  return decoder.decode(file.bytes)
}

/** Titles and slugs of a tree, indented, for readable comparisons. */
const outline = (pages: ReadonlyArray<RepoPage>, depth = 0): Array<string> =>
  pages.flatMap((p) => [`${"  ".repeat(depth)}${p.kind} ${p.title} /${p.slug}${p.path === undefined ? "" : ` ${p.path}`}${p.href === undefined ? "" : ` ${p.href}`}`, ...outline(p.children, depth + 1)])

const find = (pages: ReadonlyArray<RepoPage>, slug: string): RepoPage => {
  for (const page of pages) {
    if (page.slug === slug) return page
    const inner = (() => {
      try {
        return find(page.children, slug)
      } catch {
        return undefined
      }
    })()
    if (inner !== undefined) return inner
  }
  throw new Error(`no page ${slug}`)
}

const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3])

/** The `.gitbook.yaml` of the docs repository below, with these lines under `redirects:`. */
const gitbookYaml = (...redirects: ReadonlyArray<string>) =>
  ["# GitBook configuration", "root: ./content/", "", "structure:", "  readme: README.md", "  summary: SUMMARY.md", "", "redirects:", ...redirects, ""]
    .join("\n")

// A docs repository in GitBook's layout, as GitBook's Git Sync writes one, inside a monorepo.
const gitbookRepo = () => repo({
  "package.json": "{\"name\":\"monorepo\"}\n",
  "apps/web/index.ts": "export {}\n",
  "docs/.gitbook.yaml": gitbookYaml("  previous/page: getting-started/quickstart.md # moved in 2023", "  old-install: getting-started/install.md"),
  "docs/content/SUMMARY.md": [
    "# Table of contents",
    "",
    "* [Welcome](README.md)",
    "* [Getting started](getting-started/README.md)",
    "  * [Quickstart](getting-started/quickstart.md)",
    "  * [Install on Linux](<getting-started/install linux.md>)",
    "* [GitHub](https://github.com/acme/widgets)",
    "",
    "## Guides <a href=\"#guides\" id=\"guides\"></a>",
    "",
    "* [Writing](guides/writing.md)",
    "* [Missing page](guides/missing.md)",
    "* [Publishing](guides/publishing/README.md)",
    "  * [Custom domains](guides/publishing/custom-domains.md)",
    "",
    "***",
    "",
    "* [FAQ](faq.md)",
    "* [Changelog](changelog.md)",
    ""
  ].join("\n"),
  "docs/content/changelog.md": "Version 2 shipped.\n",
  "docs/content/README.md": [
    "---",
    "description: Everything about Widgets.",
    "cover: .gitbook/assets/cover.png",
    "coverY: 0",
    "layout:",
    "  cover:",
    "    visible: true",
    "    size: hero",
    "  title:",
    "    visible: true",
    "  description:",
    "    visible: true",
    "  tableOfContents:",
    "    visible: true",
    "  outline:",
    "    visible: true",
    "  pagination:",
    "    visible: true",
    "---",
    "",
    "# Welcome",
    "",
    "Widgets make things. Start with the [quickstart](getting-started/quickstart.md#step-1) or the [FAQ](faq.md).",
    "",
    "<figure><img src=\".gitbook/assets/cover.png\" alt=\"\"><figcaption></figcaption></figure>",
    ""
  ].join("\n"),
  "docs/content/getting-started/README.md": "# Getting started\n\nStart here.\n",
  "docs/content/getting-started/quickstart.md": [
    "---",
    "icon: rocket",
    "description: >-",
    "  Five minutes from nothing to a running widget, with every step explained",
    "  along the way.",
    "owner: docs-team # who to ask",
    "tags: [start, basics]",
    "---",
    "",
    "# Quickstart",
    "",
    "{% hint style=\"info\" %}",
    "You need **Node 24**.",
    "{% endhint %}",
    "",
    "{% tabs %}",
    "{% tab title=\"npm\" %}",
    "```bash",
    "npm install widgets",
    "```",
    "{% endtab %}",
    "{% tab title=\"pnpm\" %}",
    "```bash",
    "pnpm add widgets",
    "```",
    "{% endtab %}",
    "{% endtabs %}",
    "",
    "![Diagram](<../.gitbook/assets/diagram (1).png>)",
    "",
    "{% content-ref url=\"install linux.md\" %}",
    "[install linux.md](<install linux.md>)",
    "{% endcontent-ref %}",
    ""
  ].join("\n"),
  "docs/content/getting-started/install linux.md": "# Install on Linux\n\n{% code title=\"install.sh\" lineNumbers=\"true\" %}\n```sh\ncurl -fsSL https://example.com | sh\n```\n{% endcode %}\n",
  "docs/content/guides/writing.md": "---\nhidden: true\n---\n\n# Writing\nNo blank line after the heading.\n\n\n\nThree blank lines above.\n",
  "docs/content/guides/publishing/README.md": "---\nlayout:\n  width: wide\n  title:\n    visible: true\n  tags:\n    visible: false\n---\n\n# Publishing\n\n{% embed url=\"https://www.youtube.com/watch?v=abc\" %}\n",
  "docs/content/guides/publishing/custom-domains.md": "# Custom domains\r\n\r\nWindows line endings.\r\n",
  "docs/content/faq.md": "# FAQ <a href=\"#faq\" id=\"faq\"></a>\n\n<details>\n<summary>Why?</summary>\nBecause.\n</details>\n",
  "docs/content/notes/draft.md": "# A draft not in the summary\n",
  "docs/content/.gitbook/assets/cover.png": png,
  "docs/content/.gitbook/assets/diagram (1).png": png,
  "docs/content/.gitbook/assets/unused.pdf": "%PDF-1.4\n"
})

describe("readRepository", () => {
  it("reads GitBook's layout: config, summary order, groups, links, nesting, metadata, assets", () => {
    const files = gitbookRepo()
    const content = read(files, "docs")
    assert.deepStrictEqual(content.config, {
      root: "./content/",
      readme: "README.md",
      summary: "SUMMARY.md",
      redirects: { "previous/page": "getting-started/quickstart.md", "old-install": "getting-started/install.md" }
    })
    assert.deepStrictEqual(outline(content.pages), [
      "document Welcome /welcome docs/content/README.md",
      "document Getting started /getting-started docs/content/getting-started/README.md",
      "  document Quickstart /quickstart docs/content/getting-started/quickstart.md",
      "  document Install on Linux /install-linux docs/content/getting-started/install linux.md",
      "link GitHub /github https://github.com/acme/widgets",
      "group Guides /guides",
      "  document Writing /writing docs/content/guides/writing.md",
      "  document Publishing /publishing docs/content/guides/publishing/README.md",
      "    document Custom domains /custom-domains docs/content/guides/publishing/custom-domains.md",
      "document FAQ /faq docs/content/faq.md",
      "document Changelog /changelog docs/content/changelog.md"
    ])
    assert.deepStrictEqual(content.warnings, ["docs/content/SUMMARY.md line 12: docs/content/guides/missing.md does not exist; skipped"])
    const welcome = find(content.pages, "welcome")
    assert.strictEqual(welcome.description, "Everything about Widgets.")
    assert.strictEqual(welcome.cover, "/.gitbook/assets/cover.png")
    assert.strictEqual(welcome.coverY, 0)
    assert.deepStrictEqual(welcome.layout, { cover: true, coverSize: "hero", title: true, description: true, tableOfContents: true, outline: true, pagination: true })
    assert.strictEqual(welcome.markdown, "Widgets make things. Start with the [quickstart](getting-started/quickstart.md#step-1) or the [FAQ](faq.md).\n\n<figure><img src=\"/.gitbook/assets/cover.png\" alt=\"\"><figcaption></figcaption></figure>\n")
    const quickstart = find(content.pages, "quickstart")
    assert.strictEqual(quickstart.icon, "rocket")
    assert.strictEqual(quickstart.description, "Five minutes from nothing to a running widget, with every step explained along the way.")
    assert.isTrue(quickstart.markdown.startsWith("{% hint style=\"info\" %}\nYou need **Node 24**.\n{% endhint %}\n\n{% tabs %}"))
    assert.include(quickstart.markdown, "![Diagram](</.gitbook/assets/diagram (1).png>)")
    assert.include(quickstart.markdown, "{% content-ref url=\"install linux.md\" %}")
    assert.strictEqual(find(content.pages, "writing").hidden, true)
    assert.strictEqual(find(content.pages, "writing").markdown, "No blank line after the heading.\n\n\n\nThree blank lines above.\n")
    assert.deepStrictEqual(find(content.pages, "publishing").layout, { width: "wide", title: true })
    assert.deepStrictEqual(content.files.map((f) => [f.path, f.name, f.ref]), [
      ["docs/content/.gitbook/assets/cover.png", "cover.png", "/.gitbook/assets/cover.png"],
      ["docs/content/.gitbook/assets/diagram (1).png", "diagram (1).png", "/.gitbook/assets/diagram (1).png"],
      ["docs/content/.gitbook/assets/unused.pdf", "unused.pdf", "/.gitbook/assets/unused.pdf"]
    ])
  })

  it("infers the tree from folders without a SUMMARY.md: README first, then files and folders by name", () => {
    const content = read(repo({
      "README.md": "# Home\n",
      "zebra.md": "# Zebra\n",
      "api/README.md": "# API\n",
      "api/tokens.md": "# Tokens\n",
      "api/auth.md": "# Auth\n",
      "basics/intro.md": "Intro without a heading.\n",
      "apps/notes.txt": "not markdown\n",
      ".github/PULL_REQUEST_TEMPLATE.md": "# ignored\n"
    }))
    assert.deepStrictEqual(outline(content.pages), [
      "document Home /home README.md",
      "document API /api api/README.md",
      "  document Auth /auth api/auth.md",
      "  document Tokens /tokens api/tokens.md",
      "group basics /basics",
      "  document intro /intro basics/intro.md",
      "document Zebra /zebra zebra.md"
    ])
  })

  it("orders inferred pages by code point as Git orders names, not by UTF-16 unit", () => {
    // U+FF21 is one UTF-16 unit above the surrogates that encode U+1F600, so `<` puts the emoji first.
    const content = read(repo({
      "README.md": "# Home\n",
      "😀.md": "# Emoji\n",
      "Ａ.md": "# Fullwidth\n",
      "z.md": "# Latin\n",
      "😀 folder/page.md": "# Inside\n"
    }))
    assert.deepStrictEqual(content.pages.map((p) => p.path ?? p.title), ["README.md", "z.md", "Ａ.md", "😀.md", "😀 folder"])
  })

  it("names the file when YAML is malformed instead of throwing", () => {
    const page = readRepository(repo({ "README.md": "# Home\n", "SUMMARY.md": "* [Home](README.md)\n* [Bad](bad.md)\n", "bad.md": "---\ndescription: [unclosed\n---\n# Bad\n" }))
    assert.isTrue(Result.isFailure(page))
    if (Result.isFailure(page)) {
      assert.instanceOf(page.failure, LayoutProblem)
      assert.strictEqual(page.failure.path, "bad.md")
      assert.match(page.failure.message, /^bad\.md: frontmatter is not valid YAML/)
    }
    const config = readRepository(repo({ ".gitbook.yaml": "root: ./docs/\nstructure: [\n", "docs/README.md": "# Home\n" }))
    assert.isTrue(Result.isFailure(config))
    if (Result.isFailure(config)) assert.match(config.failure.message, /^\.gitbook\.yaml: not valid YAML/)
  })

  it("reads odd frontmatter without throwing: aliases past the library's limit, scalars where mappings belong", () => {
    const aliases = `---\na: &a [x, x, x, x, x, x, x, x, x, x]\n${Array.from({ length: 12 }, (_, i) => `b${i}: &b${i} [${Array.from({ length: 10 }, () => i === 0 ? "*a" : `*b${i - 1}`).join(", ")}]`).join("\n")}\n---\n# Bomb\n`
    const bomb = readRepository(repo({ "README.md": aliases }))
    assert.isTrue(Result.isFailure(bomb))
    if (Result.isFailure(bomb)) assert.match(bomb.failure.message, /^README\.md: frontmatter/)
    const files = repo({ "README.md": "---\nlayout:\n  cover: true\n  width: 3\nhidden: sometimes\n---\n# Home\n" })
    const content = read(files)
    assert.deepStrictEqual(content.warnings, ["README.md: `hidden` is not true or false; ignored", "README.md: layout.width 3 is not default or wide; ignored"])
    const pages = content.pages.map((p) => ({ ...p, layout: { cover: false, coverSize: "full" as const } }))
    const after = apply(files, write({ ...content, pages }, files).changes)
    assert.deepStrictEqual(read(after).pages[0]!.layout, { cover: false, coverSize: "full" })
  })

  it("stays inside the project directory and the documentation root", () => {
    const outside = readRepository(repo({ "docs/.gitbook.yaml": "root: ../\n", "README.md": "# Home\n" }), { projectDirectory: "docs" })
    assert.isTrue(Result.isFailure(outside))
    if (Result.isFailure(outside)) assert.strictEqual(outside.failure.message, "docs/.gitbook.yaml: root leads outside the project directory")
    const content = read(repo({ "docs/SUMMARY.md": "* [Home](README.md)\n* [Secret](../apps/secret.md)\n", "docs/README.md": "# Home\n", "apps/secret.md": "# Secret\n" }), "docs")
    assert.deepStrictEqual(content.pages.map((p) => p.title), ["Home"])
    assert.deepStrictEqual(content.warnings, ["docs/SUMMARY.md line 2: ../apps/secret.md is outside the documentation root; skipped"])
  })

  it("refuses a root outside the repository: climbing, absolute, or through a symbolic link", () => {
    const tree = { "README.md": "# Home\n", "guide/intro.md": "# Intro\n", "docs": "../../etc" }
    const cases: ReadonlyArray<readonly [root: string, reason: string]> = [
      ["../", "root leads outside the repository"],
      ["../guide/", "root leads outside the repository"],
      ["guide/../../guide", "root leads outside the repository"],
      ["/etc/", "root leads outside the repository"],
      ["./docs/", "root \"./docs/\" is not a folder (docs is a file or a symbolic link)"]
    ]
    for (const [root, reason] of cases) {
      const outcome = readRepository(repo({ ...tree, ".gitbook.yaml": `root: ${root}\n` }))
      assert.isTrue(Result.isFailure(outcome), root)
      if (Result.isFailure(outcome)) assert.strictEqual(outcome.failure.message, `.gitbook.yaml: ${reason}`)
    }
    assert.deepStrictEqual(read(repo({ ...tree, ".gitbook.yaml": "root: ./guide/../guide/\n" })).pages.map((p) => p.title), ["Intro"])
  })

  it("gives siblings unique slugs and keeps a page listed twice once", () => {
    const content = read(repo({
      "SUMMARY.md": "* [A](a/intro.md)\n* [B](b/intro.md)\n* [A again](a/intro.md)\n",
      "a/intro.md": "# A\n",
      "b/intro.md": "# B\n"
    }))
    assert.deepStrictEqual(content.pages.map((p) => p.slug), ["intro", "intro-2"])
    assert.deepStrictEqual(content.warnings, ["SUMMARY.md line 3: a/intro.md is listed twice; the second one is skipped"])
  })
})

describe("writeRepository", () => {
  it("changes no file when a repository is imported and exported without edits", () => {
    const files = gitbookRepo()
    const written = write(read(files, "docs"), files, "docs")
    assert.deepStrictEqual([...written.changes.keys()], [])
  })

  it("changes no file when asset references went through content's file ids and back", () => {
    const files = gitbookRepo()
    const content = read(files, "docs")
    const ids = content.files.map((f, i) => ({ name: f.name, id: `file${i}` }))
    const through = (pages: ReadonlyArray<RepoPage>): Array<RepoPage> =>
      pages.map((p) => {
        const stored = assetRefsToFileRefs(p.markdown, ids)
        const cover = p.cover === undefined ? undefined : fileRefsToAssetRefs(assetRefsToFileRefs(p.cover, ids), ids)
        return { ...p, markdown: fileRefsToAssetRefs(stored, ids), cover, children: through(p.children) }
      })
    assert.include(assetRefsToFileRefs(find(content.pages, "quickstart").markdown, ids), "![Diagram](</files/file1>)")
    assert.include(fileRefsToAssetRefs("![Diagram](</files/file1>)", ids), "![Diagram](</.gitbook/assets/diagram%20(1).png>)")
    const files2 = content.files.map((f) => ({ path: f.path, name: f.name }))
    const written = write({ ...content, pages: through(content.pages), files: files2 }, files, "docs")
    assert.deepStrictEqual([...written.changes.keys()], [])
  })

  it("changes no file for a repository without SUMMARY.md", () => {
    const files = repo({ "README.md": "# Home\n", "a.md": "# A\n", "b/README.md": "# B\n", "b/c.md": "# C\n" })
    assert.deepStrictEqual([...write(read(files), files).changes.keys()], [])
  })

  it("rewrites exactly the edited page, keeping its unknown frontmatter keys, comments and style", () => {
    const files = gitbookRepo()
    const content = read(files, "docs")
    const edit = (pages: ReadonlyArray<RepoPage>): Array<RepoPage> =>
      pages.map((p) => p.slug === "quickstart"
        ? { ...p, description: "Start in five minutes.", markdown: p.markdown.replace("**Node 24**", "**Node 24** or later") }
        : { ...p, children: edit(p.children) })
    const written = write({ ...content, pages: edit(content.pages) }, files, "docs")
    assert.deepStrictEqual([...written.changes.keys()], ["docs/content/getting-started/quickstart.md"])
    const after = apply(files, written.changes)
    assert.strictEqual(
      text(after, "docs/content/getting-started/quickstart.md"),
      text(files, "docs/content/getting-started/quickstart.md")
        .replace(">-\n  Five minutes from nothing to a running widget, with every step explained\n  along the way.", "Start in five minutes.")
        .replace("**Node 24**", "**Node 24** or later")
    )
    assert.strictEqual(find(read(after, "docs").pages, "quickstart").description, "Start in five minutes.")
  })

  it("edits only the layout key that changed", () => {
    const files = gitbookRepo()
    const content = read(files, "docs")
    const pages = content.pages.map((p) => p.slug === "guides"
      ? { ...p, children: p.children.map((c) => c.slug === "publishing" ? { ...c, layout: { width: "default" as const, title: false } } : c) }
      : p)
    const written = write({ ...content, pages }, files, "docs")
    assert.deepStrictEqual([...written.changes.keys()], ["docs/content/guides/publishing/README.md"])
    assert.strictEqual(
      text(apply(files, written.changes), "docs/content/guides/publishing/README.md"),
      "---\nlayout:\n  width: default\n  title:\n    visible: false\n  tags:\n    visible: false\n---\n\n# Publishing\n\n{% embed url=\"https://www.youtube.com/watch?v=abc\" %}\n"
    )
  })

  it("removes metadata keys in place, and the frontmatter when nothing is left in it", () => {
    const files = gitbookRepo()
    const content = read(files, "docs")
    const strip = (pages: ReadonlyArray<RepoPage>): Array<RepoPage> =>
      pages.map((p) => p.slug === "writing" ? { ...p, hidden: undefined } : p.slug === "quickstart" ? { ...p, icon: undefined, coverY: 40 } : { ...p, children: strip(p.children) })
    const written = write({ ...content, pages: strip(content.pages) }, files, "docs")
    assert.deepStrictEqual([...written.changes.keys()].toSorted(), ["docs/content/getting-started/quickstart.md", "docs/content/guides/writing.md"])
    const after = apply(files, written.changes)
    assert.strictEqual(text(after, "docs/content/guides/writing.md"), "# Writing\nNo blank line after the heading.\n\n\n\nThree blank lines above.\n")
    assert.strictEqual(
      text(after, "docs/content/getting-started/quickstart.md"),
      text(files, "docs/content/getting-started/quickstart.md").replace("icon: rocket\n", "").replace("tags: [start, basics]\n", "tags: [start, basics]\ncoverY: 40\n")
    )
  })

  it("renames a page's title in its heading and in SUMMARY.md only", () => {
    const files = gitbookRepo()
    const content = read(files, "docs")
    const pages = content.pages.map((p) => p.slug === "faq" ? { ...p, title: "Questions [and answers]" } : p)
    const written = write({ ...content, pages }, files, "docs")
    assert.deepStrictEqual([...written.changes.keys()].toSorted(), ["docs/content/SUMMARY.md", "docs/content/faq.md"])
    const after = apply(files, written.changes)
    assert.strictEqual(text(after, "docs/content/faq.md"), text(files, "docs/content/faq.md").replace("# FAQ", "# Questions [and answers]"))
    // The summary is written again in its style; the entry of the missing file, which is no page, goes.
    assert.strictEqual(
      text(after, "docs/content/SUMMARY.md"),
      text(files, "docs/content/SUMMARY.md").replace("* [FAQ](faq.md)", "* [Questions \\[and answers\\]](faq.md)").replace("* [Missing page](guides/missing.md)\n", "")
    )
    assert.strictEqual(read(after, "docs").pages.at(-2)!.title, "Questions [and answers]")
  })

  it("adds, moves and deletes pages: SUMMARY.md and the right files change", () => {
    const files = gitbookRepo()
    const content = read(files, "docs")
    const [welcome, started, github, guides, faq, changelog] = content.pages as [RepoPage, RepoPage, RepoPage, RepoPage, RepoPage, RepoPage]
    const writing = guides.children[0]!
    const publishing = guides.children[1]!
    const added: RepoPage = { kind: "document", title: "Troubleshooting", slug: "troubleshooting", markdown: "See ![the log](/.gitbook/assets/log.png).\n", icon: "bug", children: [] }
    const pages: Array<RepoPage> = [
      welcome,
      // Quickstart moves under Guides; Install on Linux is deleted; a new page joins Getting started.
      { ...started, children: [added] },
      github,
      { ...guides, children: [writing, { ...started.children[0]!, slug: "quickstart" }, { ...publishing, slug: "publish" }] },
      faq,
      changelog
    ]
    const written = write({ ...content, pages, files: [...content.files, { name: "log.png", bytes: png }] }, files, "docs")
    const after = apply(files, written.changes)
    assert.deepStrictEqual([...written.summary.deleted].toSorted(), [
      "docs/content/getting-started/install linux.md",
      "docs/content/getting-started/quickstart.md",
      "docs/content/guides/publishing/README.md",
      "docs/content/guides/publishing/custom-domains.md"
    ])
    assert.deepStrictEqual([...written.summary.added].toSorted(), [
      "docs/content/.gitbook/assets/log.png",
      "docs/content/getting-started/troubleshooting.md",
      "docs/content/guides/publish/README.md",
      "docs/content/guides/publish/custom-domains.md",
      "docs/content/guides/quickstart.md"
    ])
    assert.deepStrictEqual(written.summary.modified.toSorted(), ["docs/content/README.md", "docs/content/SUMMARY.md"])
    // Links to a moved page follow it; the rest of the page keeps its bytes.
    assert.strictEqual(
      text(after, "docs/content/README.md"),
      text(files, "docs/content/README.md").replace("(getting-started/quickstart.md#step-1)", "(guides/quickstart.md#step-1)")
    )
    assert.strictEqual(text(after, "docs/content/SUMMARY.md"), [
      "# Table of contents",
      "",
      "* [Welcome](README.md)",
      "* [Getting started](getting-started/README.md)",
      "  * [Troubleshooting](getting-started/troubleshooting.md)",
      "* [GitHub](https://github.com/acme/widgets)",
      "",
      "## Guides <a href=\"#guides\" id=\"guides\"></a>",
      "",
      "* [Writing](guides/writing.md)",
      "* [Quickstart](guides/quickstart.md)",
      "* [Publishing](guides/publish/README.md)",
      "  * [Custom domains](guides/publish/custom-domains.md)",
      "",
      "***",
      "",
      "* [FAQ](faq.md)",
      "* [Changelog](changelog.md)",
      ""
    ].join("\n"))
    assert.strictEqual(text(after, "docs/content/getting-started/troubleshooting.md"), "---\nicon: bug\n---\n\n# Troubleshooting\n\nSee ![the log](../.gitbook/assets/log.png).\n")
    // The moved page keeps its bytes but for the relative path to its asset, one folder up now.
    assert.strictEqual(
      text(after, "docs/content/guides/quickstart.md"),
      text(files, "docs/content/getting-started/quickstart.md").replace("../.gitbook/assets/diagram (1).png", "../.gitbook/assets/diagram (1).png")
    )
    assert.strictEqual(text(after, "docs/content/guides/publish/custom-domains.md"), text(files, "docs/content/guides/publishing/custom-domains.md"))
    // Export then import gives the same tree.
    const again = read(after, "docs")
    assert.deepStrictEqual(outline(again.pages).map((l) => l.replace(/ docs\/\S.*$/, "")), outline(pages).map((l) => l.replace(/ docs\/\S.*$/, "")))
    assert.strictEqual(find(again.pages, "troubleshooting").markdown, added.markdown)
    assert.strictEqual(find(again.pages, "troubleshooting").icon, "bug")
    // The unused asset nobody deleted stays.
    assert.isTrue(after.has("docs/content/.gitbook/assets/unused.pdf"))
  })

  it("keeps a page without a title heading as it is, and gives it one when its title changes", () => {
    const files = gitbookRepo()
    const content = read(files, "docs")
    assert.strictEqual(find(content.pages, "changelog").markdown, "Version 2 shipped.\n")
    const pages = content.pages.map((p) => p.slug === "changelog" ? { ...p, title: "Release notes" } : p)
    const written = write({ ...content, pages }, files, "docs")
    const after = apply(files, written.changes)
    assert.strictEqual(text(after, "docs/content/changelog.md"), "# Release notes\n\nVersion 2 shipped.\n")
    assert.strictEqual(find(read(after, "docs").pages, "changelog").title, "Release notes")
  })

  it("edits .gitbook.yaml's redirects without touching its other lines and comments", () => {
    const files = gitbookRepo()
    const content = read(files, "docs")
    const redirects = { "previous/page": "getting-started/quickstart.md", "legacy/faq": "faq.md" }
    const written = write({ ...content, config: { ...content.config, redirects } }, files, "docs")
    assert.deepStrictEqual([...written.changes.keys()], ["docs/.gitbook.yaml"])
    const after = apply(files, written.changes)
    assert.strictEqual(
      text(after, "docs/.gitbook.yaml"),
      gitbookYaml("  previous/page: getting-started/quickstart.md # moved in 2023", "  legacy/faq: faq.md")
    )
    assert.deepStrictEqual(read(after, "docs").config.redirects, redirects)
  })

  it("follows the previous SUMMARY.md's header, bullets, indentation and lines when it must rewrite it", () => {
    const files = repo({
      "SUMMARY.md": "# Summary\n\nThe book's chapters.\n\n- [Part I](part1/README.md)\n    - [Writing is nice](part1/writing.md \"Writing\")\n- [Part II](part2.md)\n",
      "part1/README.md": "# Part I\n",
      "part1/writing.md": "# Writing is nice\n",
      "part2.md": "# Part II\n"
    })
    const content = read(files)
    const pages: Array<RepoPage> = [...content.pages, { kind: "document", title: "Part III", slug: "part3", markdown: "Soon.\n", children: [] }]
    const written = write({ ...content, pages }, files)
    assert.deepStrictEqual([...written.changes.keys()], ["part3.md", "SUMMARY.md"])
    assert.strictEqual(
      text(apply(files, written.changes), "SUMMARY.md"),
      "# Summary\n\nThe book's chapters.\n\n- [Part I](part1/README.md)\n    - [Writing is nice](part1/writing.md \"Writing\")\n- [Part II](part2.md)\n- [Part III](part3.md)\n"
    )
  })

  it("rebases a moved page's relative links to pages and files", () => {
    const files = repo({
      "SUMMARY.md": "* [Home](README.md)\n* [Guide](guide.md)\n* [API](api/README.md)\n  * [Tokens](api/tokens.md)\n",
      "README.md": "# Home\n",
      "guide.md": "# Guide\n\nSee [tokens](api/tokens.md#scopes), [the spec](<specs/open api.md>), {% content-ref url=\"README.md\" %}\n[Home](README.md)\n{% endcontent-ref %} and [the site](https://example.com/x.md).\n",
      "api/README.md": "# API\n",
      "api/tokens.md": "# Tokens\n",
      "specs/open api.md": "# Not in the summary\n"
    })
    const content = read(files)
    const [home, guide, api] = content.pages as [RepoPage, RepoPage, RepoPage]
    const written = write({ ...content, pages: [home, { ...api, children: [...api.children, guide] }] }, files)
    assert.deepStrictEqual(written.summary.added, ["api/guide.md"])
    assert.strictEqual(
      text(apply(files, written.changes), "api/guide.md"),
      "# Guide\n\nSee [tokens](tokens.md#scopes), [the spec](<../specs/open api.md>), {% content-ref url=\"../README.md\" %}\n[Home](../README.md)\n{% endcontent-ref %} and [the site](https://example.com/x.md).\n"
    )
  })

  it("rebases the page paths of GitBook's tags however they are quoted, as the site reads them", () => {
    const files = repo({
      "SUMMARY.md": "* [Home](README.md)\n* [Guide](guide.md)\n* [API](api/README.md)\n",
      "README.md": "# Home\n",
      "guide.md": "# Guide\n\n{%- content-ref url='README.md' -%}\n[Home](README.md)\n{% endcontent-ref %}\n\n{% include 'README.md' %}\n\n`{% include \"x.md\" %}`\n",
      "api/README.md": "# API\n"
    })
    const content = read(files)
    const [home, guide, api] = content.pages as [RepoPage, RepoPage, RepoPage]
    const written = write({ ...content, pages: [home, { ...api, children: [...api.children, guide] }] }, files)
    assert.strictEqual(
      text(apply(files, written.changes), "api/guide.md"),
      "# Guide\n\n{%- content-ref url='../README.md' -%}\n[Home](../README.md)\n{% endcontent-ref %}\n\n{% include '../README.md' %}\n\n`{% include \"x.md\" %}`\n"
    )
  })

  it("imports the files GitBook's blocks name however their arguments are quoted", () => {
    const files = repo({
      "SUMMARY.md": "* [Home](README.md)\n",
      "README.md": "# Home\n\n{% file src='files/manual.pdf' %}\n\n{% openapi src=specs/petstore.yaml path=\"/pets\" method=\"get\" %}\n{% endopenapi %}\n",
      "files/manual.pdf": "%PDF-1.4\n",
      "specs/petstore.yaml": "openapi: 3.0.0\n"
    })
    assert.deepStrictEqual(referencedFiles([{ path: "README.md", body: text(files, "README.md") }], files), ["files/manual.pdf", "specs/petstore.yaml"])
  })

  it("keeps what it writes inside the documentation root, whatever the names", () => {
    const files = repo({ "README.md": "# Home\n", "SUMMARY.md": "* [Home](README.md)\n" })
    const content = read(files)
    const pages: Array<RepoPage> = [...content.pages, { kind: "document", title: "Escape", slug: "../../etc/passwd", markdown: "x\n", children: [] }]
    const written = write({ ...content, pages, files: [{ name: "../../README.md", bytes: png }, { name: "..", bytes: png }] }, files)
    assert.deepStrictEqual([...written.changes.keys()].toSorted(), [".gitbook/assets/..-..-README.md", ".gitbook/assets/file", "SUMMARY.md", "etc-passwd.md"])
  })

  it("deletes the assets the space deleted and renames a new asset whose name is taken", () => {
    const files = gitbookRepo()
    const content = read(files, "docs")
    const other = new Uint8Array([9, 9, 9])
    const pages = content.pages.map((p) => p.slug === "faq" ? { ...p, markdown: `${p.markdown}\n![](/.gitbook/assets/cover.png)\n` } : p)
    const written = write({ ...content, pages, files: [...content.files.filter((f) => f.name !== "unused.pdf"), { name: "cover.png", bytes: other }] }, files, "docs")
    assert.strictEqual(written.changes.get("docs/content/.gitbook/assets/unused.pdf"), null)
    assert.deepStrictEqual([...written.changes.get("docs/content/.gitbook/assets/cover (1).png")!], [9, 9, 9])
    assert.deepStrictEqual([...written.renamedAssets], [["cover.png", "cover (1).png"]])
    assert.include(text(apply(files, written.changes), "docs/content/faq.md"), "![](.gitbook/assets/cover (1).png)")
  })

  it("writes a new space in GitBook's layout, and reads it back to the same pages", () => {
    const pages: Array<RepoPage> = [
      { kind: "document", title: "Introduction", slug: "introduction", markdown: "Hello.\n", children: [] },
      {
        kind: "document", title: "Setup", slug: "setup", markdown: "", description: "How to set up", hidden: true,
        layout: { width: "wide", cover: true, coverSize: "full", outline: false }, emoji: "🚀",
        children: [{ kind: "document", title: "Docker", slug: "docker", markdown: "{% hint style=\"warning\" %}\nRoot.\n{% endhint %}\n\n![](</.gitbook/assets/shot (1).png>)\n", children: [] }]
      },
      { kind: "group", title: "Reference", slug: "reference", markdown: "", children: [
        { kind: "document", title: "CLI", slug: "cli", markdown: "`quire`\n", children: [] },
        { kind: "link", title: "Status", slug: "status", markdown: "", href: "https://status.example.com", children: [] }
      ] },
      { kind: "document", title: "Changelog", slug: "changelog", markdown: "v1\n", children: [] }
    ]
    const config = { ...defaultConfig, root: "./docs/", redirects: { "old/path": "setup/README.md" } }
    const written = write({ config, pages, files: [{ name: "shot (1).png", bytes: png }] }, new Map())
    const files = apply(new Map(), written.changes)
    assert.deepStrictEqual([...files.keys()].toSorted(), [
      ".gitbook.yaml", "docs/.gitbook/assets/shot (1).png", "docs/README.md", "docs/SUMMARY.md", "docs/changelog.md", "docs/reference/cli.md", "docs/setup/README.md", "docs/setup/docker.md"
    ])
    assert.strictEqual(text(files, ".gitbook.yaml"), "root: ./docs/\nstructure:\n  readme: README.md\n  summary: SUMMARY.md\nredirects:\n  old/path: setup/README.md\n")
    assert.strictEqual(text(files, "docs/SUMMARY.md"), [
      "# Table of contents",
      "",
      "* [Introduction](README.md)",
      "* [Setup](setup/README.md)",
      "  * [Docker](setup/docker.md)",
      "",
      "## Reference",
      "",
      "* [CLI](reference/cli.md)",
      "* [Status](https://status.example.com)",
      "",
      "***",
      "",
      "* [Changelog](changelog.md)",
      ""
    ].join("\n"))
    assert.strictEqual(text(files, "docs/setup/README.md"), [
      "---",
      "description: How to set up",
      "emoji: 🚀",
      "hidden: true",
      "layout:",
      "  width: wide",
      "  cover:",
      "    visible: true",
      "    size: full",
      "  outline:",
      "    visible: false",
      "---",
      "",
      "# Setup",
      "",
      ""
    ].join("\n"))
    const back = read(files)
    assert.deepStrictEqual(back.config, config)
    assert.deepStrictEqual(outline(back.pages).map((l) => l.replace(/ docs\/\S+$/, "")), outline(pages))
    const setup = find(back.pages, "setup")
    assert.deepStrictEqual([setup.description, setup.hidden, setup.emoji, setup.layout], [
      "How to set up", true, "🚀", { width: "wide", cover: true, coverSize: "full", outline: false }
    ])
    assert.strictEqual(find(back.pages, "docker").markdown, pages[1]!.children[0]!.markdown)
    assert.include(text(files, "docs/setup/docker.md"), "![](<../.gitbook/assets/shot (1).png>)")
    assert.deepStrictEqual(back.files.map((f) => [f.ref, [...f.bytes]]), [["/.gitbook/assets/shot (1).png", [...png]]])
    // And exporting what was read changes nothing.
    assert.strictEqual(write(back, files).changes.size, 0)
  })

  // Its time is measured by `pnpm bench --unit` (goal: under a second), not here.
  it("reads and writes a 1,000-page repository, changing only the edited page", () => {
    const files = repo(Workloads.gitBookRepository())
    const content = read(files)
    const pages = content.pages.map((g, i) => i === 7 ? { ...g, children: g.children.map((c, j) => j === 3 ? { ...c, markdown: `${c.markdown}More.\n` } : c) } : g)
    const written = write({ ...content, pages }, files)
    assert.strictEqual(content.pages.flatMap((g) => g.kind === "group" ? g.children : [g]).length, 1001)
    assert.deepStrictEqual([...written.changes.keys()], ["section-6/page-3.md"])
  })
})
