import { assert, describe, it } from "@effect/vitest"
import { appendixOf, atxHeadingTitle, blockChunks, excerpt, gitbookAnchorId, gitbookSlug, headingAnchorsOf, headingIds, headingText, headingTitle, parseMarkdown, leadingTitle, parseDocument, parsePiece, piecePlan, plainText, sections, sectionSplitter, slugify, uniqueSlug } from "../src/Markdown.ts"
import { frontmatterData } from "../src/Frontmatter.ts"
import { type HtmlLinks, links } from "../src/MarkdownLinks.ts"
import { random } from "./support/Random.ts"
import type { RootContent } from "mdast"
import { visit } from "unist-util-visit"

/** The references a parse resolved (micromark makes a reference only of a label some definition has), in order. */
const references = (nodes: ReadonlyArray<RootContent>) => {
  const found: Array<string> = []
  for (const node of nodes) visit(node, (child) => {
    if (child.type === "linkReference" || child.type === "imageReference") found.push(`${child.type} ${child.identifier}`)
  })
  return found
}

/** A label over two lines, the second continuing a quote or a list item (`marker`). */
const multiline = (text: string, marker: string) => text.replace(" ", `\n${marker}`)

// The documents whose links these tests read hold no raw HTML (content's tests read links in HTML with its parser).
const noHtml: HtmlLinks = () => []

/** What parseDocument answers, from a parse of the whole page. */
const fromWholeParse = (page: string) => {
  const children = parseMarkdown(page).children
  const [first] = children
  const frontmatter = first?.type === "yaml" ? frontmatterData(first.value) : {}
  const title = typeof frontmatter["title"] === "string" && frontmatter["title"].trim() !== "" ? frontmatter["title"].trim() : undefined
  const lead = children.find((node) => node.type !== "yaml")
  const heading = title === undefined && lead?.type === "heading" && lead.depth === 1 && headingTitle(lead) !== "" ? headingTitle(lead) : undefined
  return { frontmatter, title: title ?? heading }
}

describe("parseDocument", () => {
  it("takes the title from the leading heading and leaves it out of the body", () => {
    const page = parseDocument("# Install *Quire*\n\nRun the installer.\n\n## Next\n\nDone.\n")
    assert.strictEqual(page.title, "Install Quire")
    assert.strictEqual(page.body, "Run the installer.\n\n## Next\n\nDone.\n")
    assert.deepStrictEqual(page.frontmatter, {})
    assert.isUndefined(page.description)
  })

  it("prefers the frontmatter's title and description, and keeps the heading in the body", () => {
    const page = parseDocument("---\ntitle: Setup\ndescription: How to set things up\nhidden: true\n---\n\n# Install\n\nText\n")
    assert.strictEqual(page.title, "Setup")
    assert.strictEqual(page.description, "How to set things up")
    assert.strictEqual(page.frontmatter["hidden"], true)
    assert.strictEqual(page.body, "# Install\n\nText\n")
  })

  it("reads frontmatter closed by YAML's `...` as the editor and the page options do", () => {
    const page = parseDocument("---\ntitle: Setup\ndescription: d\n...\n\n# Install\n\nText\n")
    assert.strictEqual(page.title, "Setup")
    assert.strictEqual(page.description, "d")
    assert.strictEqual(page.body, "# Install\n\nText\n")
    assert.strictEqual(plainText("---\ntitle: Setup\n...\nText\n"), "Text")
  })

  it("takes the heading after frontmatter without a title", () => {
    const page = parseDocument("---\ndescription: d\n---\n# Title\nBody")
    assert.strictEqual(page.title, "Title")
    assert.strictEqual(page.body, "Body")
  })

  it("has no title when the page starts with text or a smaller heading", () => {
    assert.isUndefined(parseDocument("Intro\n\n# Later").title)
    assert.isUndefined(parseDocument("## Section\n\ntext").title)
    assert.strictEqual(parseDocument("## Section\n\ntext").body, "## Section\n\ntext")
    assert.strictEqual(parseDocument("\n\n   ###### Deep\n===\n").body, "   ###### Deep\n===\n")
    // Not headings: seven marks, no space after them, four spaces of indentation (code).
    assert.strictEqual(parseDocument("####### Seven\n===\n").title, "####### Seven")
    assert.strictEqual(parseDocument("##Section\n===\n").title, "##Section")
    assert.isUndefined(parseDocument("    ## Code\n").title)
  })

  it("ignores frontmatter that is not a YAML mapping", () => {
    const page = parseDocument("---\n: [broken\n---\n# T\n")
    assert.deepStrictEqual(page.frontmatter, {})
    assert.strictEqual(page.title, "T")
  })

  it("does not mistake a heading inside a code block for the title", () => {
    const page = parseDocument("```\n# not a title\n```\n")
    assert.isUndefined(page.title)
  })

  it("reads a page's frontmatter and title as a parse of the whole page does, whether its start is parsed or not", () => {
    const next = random(7)
    const pick = <A>(all: ReadonlyArray<A>) => all[Math.floor(next() * all.length)]!
    const starts = ["", "\n", "  \n\t\n", "\uFEFF", "---\ntitle: Front\n---\n", "---\n", "-", "<!-- c -->\n"]
    const lines = [
      "# Title", "  # Title #", "    # code", "\t# code", "#", "## Sub", "Title", "Two words", "===", "  ==", "    ===", "---", "- item", "> quote", "> # Quoted",
      "[a]: /u", "[b]:", "/v", "[c]: /w \"t\"", "[^1]: note", "```", "# in a fence?", "<div>", "| a | b |", "| - | - |", "[a] and [b]", "*Title*", "=== not", ""
    ]
    const endings = ["\n", "\r\n", "\r"]
    let titled = 0
    let untitled = 0
    for (let n = 0; n < 1_000; n++) {
      const ending = pick(endings)
      const page = pick(starts) + Array.from({ length: 1 + Math.floor(next() * 8) }, () => pick(lines)).join(ending)
      const expected = fromWholeParse(page)
      const parsed = parseDocument(page)
      assert.deepStrictEqual({ frontmatter: parsed.frontmatter, title: parsed.title }, expected, JSON.stringify(page))
      if (expected.title === undefined) untitled++
      else titled++
    }
    assert.isAbove(titled, 100)
    assert.isAbove(untitled, 100)
  })

  it("reads the title of a page that starts with many definitions without parsing them", () => {
    const definitions = Array.from({ length: 600 }, (_, i) => `[d${i}]: /u${i}`).join("\n")
    const page = `${definitions}\n\n${Array.from({ length: 600 }, (_, i) => `[d${i}]`).join(" ")}`
    const thread = process.threadCpuUsage()
    const parsed = parseDocument(page)
    const used = process.threadCpuUsage(thread)
    assert.deepStrictEqual(parsed, { frontmatter: {}, body: page })
    // A parse of the definitions takes tens of ms.
    assert.isBelow((used.user + used.system) / 1000, 10)
    assert.strictEqual(parseDocument(`${definitions}\n===\n`).title, undefined)
  })
})

describe("heading titles", () => {
  it("reads a title heading's words without GitBook's empty anchor, from a tree or from the line (as Git Sync reads it)", () => {
    assert.strictEqual(parseDocument(`# Install <a href="#install" id="install"></a>\n\nBody`).title, "Install")
    assert.strictEqual(atxHeadingTitle(`Install <a href="#install" id="install"></a>`), "Install")
    assert.strictEqual(atxHeadingTitle("**Quick** start &amp; `setup`  "), "Quick start & setup")
    assert.strictEqual(parseDocument("# **Quick** start &amp; `setup`").title, "Quick start & setup")
  })

  it("finds the title heading a page starts with as parseDocument does, without parsing the page", () => {
    const pages = [
      "# Title\n\nBody", "  # Title #\r\nBody", "Title\n=====\n\nBody", "Title\n===", "## Not a title\n", "#\n\nBody",
      "- item\n===\n", "<div>x</div>\n===\n", "Text\n\n# Later\n", "Title\n-----\n"
    ]
    for (const page of pages) {
      const found = leadingTitle(page)
      assert.strictEqual(found?.title, parseDocument(page).title, JSON.stringify(page))
      if (found !== undefined) assert.isTrue(page.startsWith(found.heading))
    }
    assert.deepStrictEqual(leadingTitle("Title\n=====\n\nBody"), { heading: "Title\n=====\n", title: "Title" })
  })
})

describe("slugify", () => {
  it("makes GitBook-like slugs", () => {
    assert.strictEqual(slugify("Getting Started"), "getting-started")
    assert.strictEqual(slugify("  Crème brûlée & Straße!  "), "creme-brulee-strasse")
    assert.strictEqual(slugify("API v2.0 -- (beta)"), "api-v2-0-beta")
    assert.strictEqual(slugify("日本語"), "untitled")
    assert.strictEqual(slugify(""), "untitled")
  })

  it("keeps slugs at 100 characters without a trailing hyphen", () => {
    const slug = slugify(`${"a".repeat(99)} b`)
    assert.strictEqual(slug, "a".repeat(99))
    assert.isAtMost(slugify("word ".repeat(50)).length, 100)
  })

  it("numbers slugs that are taken", () => {
    assert.strictEqual(uniqueSlug("intro", new Set()), "intro")
    assert.strictEqual(uniqueSlug("intro", new Set(["intro"])), "intro-2")
    assert.strictEqual(uniqueSlug("intro", new Set(["intro", "intro-2"])), "intro-3")
    assert.strictEqual(uniqueSlug("a".repeat(100), new Set(["a".repeat(100)])), `${"a".repeat(98)}-2`)
  })
})

describe("sections", () => {
  const page = [
    "Welcome to **Quire**, see [the guide](guide.md).",
    "",
    "## Install it",
    "",
    "Run `npm install` then:",
    "",
    "```sh",
    "quire start",
    "```",
    "",
    "### Install it",
    "",
    "- one",
    "- two",
    "",
    "## Configure",
    "",
    "{% hint style=\"info\" %}",
    "Set QUIRE_DATA_DIR.",
    "{% endhint %}",
    ""
  ].join("\n")

  it("splits a page at its headings into plain-text sections with anchors", () => {
    const result = sections(page, "Quire")
    assert.deepStrictEqual(result.map(({ id, level, title }) => ({ id, level, title })), [
      { id: "", level: 0, title: "Quire" },
      { id: "install-it", level: 2, title: "Install it" },
      { id: "install-it-1", level: 3, title: "Install it" },
      { id: "configure", level: 2, title: "Configure" }
    ])
    assert.strictEqual(result[0]?.body, "Welcome to Quire, see the guide.")
    assert.strictEqual(result[1]?.body, "Run npm install then:\nquire start")
    assert.strictEqual(result[2]?.body, "one\ntwo")
    assert.strictEqual(result[3]?.body, "Set QUIRE_DATA_DIR.")
  })

  it("keeps bare URLs and emails as they are written (GFM's autolink literals are not parsed for search text)", () => {
    const [section] = sections("See https://example.com/a, www.example.org or ada@example.com, and [a link](https://example.com/b).", "T")
    assert.strictEqual(section?.body, "See https://example.com/a, www.example.org or ada@example.com, and a link.")
  })

  it("reads plain paragraphs and headings as a parse does", () => {
    const blocks = [
      "Plain words, with: punctuation (and brackets) {% hint %} and a URL https://example.com/a.",
      "# Title #", "## Title ##   ", "###No heading", "####### Seven", "#", "# a # b", "Two lines\nof one paragraph  \nwith a hard break",
      "Setext\n===", "Setext two\n---", "in\n2024 we", "1. item", "- item\n\n  continued", "> quote\nlazy", "    indented code",
      "```\nfenced\n\ncode\n```", "<div>\nhtml\n</div>", "a | b\n- | -\n1 | 2", "*emphasis* and _more_", "[ref] and [link](x)",
      "&amp; entity", "back\\slash", "~~struck~~", "Text\twith\ttabs   and   spaces", "[^1]: footnote", "[ref]: https://example.com/ref",
      "Ünïcödé words — and “quotes”", "---", "***", "Last\r\nline endings\r"
    ]
    const page = Array.from({ length: 1_200 }, (_, i) => blocks[i % blocks.length]!).join("\n\n")
    const expected = sectionSplitter("P")
    const plan = piecePlan(page)
    for (const text of plan.chunks) expected.add(parsePiece(text, plan.appendix, true).children)
    assert.isAbove(plan.chunks.length, 1)
    assert.deepStrictEqual(sections(page, "P"), expected.done())
    for (const block of blocks) {
      const one = sectionSplitter("P")
      one.add(parsePiece(block, "", true).children)
      assert.deepStrictEqual(sections(block, "P"), one.done(), block)
    }
  })

  it("leaves out an empty introduction, and gives an empty page one section", () => {
    assert.deepStrictEqual(sections("## Only\n\ntext", "T").map((s) => s.id), ["only"])
    assert.deepStrictEqual(sections("", "Empty"), [{ id: "", title: "Empty", level: 0, body: "" }])
  })
})

describe("plainText", () => {
  it("drops markdown syntax, frontmatter, HTML tags and link targets", () => {
    const text = plainText("---\ntitle: x\n---\n# Hello _world_\n\nA [link](https://example.com) and ![logo](/files/f1).\n\n<div>raw</div>\n\n| a | b |\n|---|---|\n| 1 | 2 |\n")
    assert.strictEqual(text, "Hello world\nA link and logo.\nraw\na b\n1 2")
  })

  it("keeps the words of HTML tables and code, cell by cell, without comments, scripts or styles", () => {
    const html = [
      "<table><thead><tr><th>Shortcut</th><th>Action</th></tr></thead>",
      "<tbody><tr><td><kbd>Shift</kbd>+<kbd>Enter</kbd></td><td>Insert a soft line break in a paragraph</td></tr></tbody></table>",
      "",
      "<pre><code>const limits = await client.getCurrentStorageLimitsByFid(fid) // &lt;Fid&gt; &amp; more",
      "</code></pre>",
      "",
      "<!-- a note to writers --><script>track()</script><style>.x{color:red}</style><p>Seen&nbsp;text &#x2713;</p>"
    ].join("\n")
    assert.strictEqual(plainText(html), [
      "Shortcut Action",
      "Shift+Enter Insert a soft line break in a paragraph",
      "const limits = await client.getCurrentStorageLimitsByFid(fid) // <Fid> & more",
      "Seen text ✓"
    ].join("\n"))
  })
})

describe("excerpt", () => {
  const text = `${"Lorem ipsum dolor sit amet. ".repeat(12)}Quire needs Postgres for search. ${"More text follows here. ".repeat(12)}`

  it("shows the words around the first match of the query, ellipsised", () => {
    const result = excerpt(text, "postgres", 160)
    assert.include(result, "Postgres")
    assert.isAtMost(result.length, 160)
    assert.isTrue(result.startsWith("…"))
    assert.isTrue(result.endsWith("…"))
  })

  it("matches any query word, case-insensitively", () => {
    assert.include(excerpt(text, "missing SEARCH", 80), "search")
  })

  it("starts at the beginning when nothing matches, and keeps short text whole", () => {
    const result = excerpt(text, "absent", 60)
    assert.isTrue(result.startsWith("Lorem ipsum"))
    assert.isAtMost(result.length, 60)
    assert.strictEqual(excerpt("Short text.", "text"), "Short text.")
  })

  it("slides back near the end of the text", () => {
    const result = excerpt(`${"word ".repeat(100)}finale`, "finale", 50)
    assert.isTrue(result.endsWith("finale"))
    assert.isAtMost(result.length, 50)
  })
})

/** The lines of each chunk. */
const linesOfChunks = (chunks: ReadonlyArray<string>) => chunks.map((chunk) => chunk.split("\n").length)

describe("large documents", () => {
  // About 130 KB: parsed a piece at a time, with the same results as a small document.
  const paragraphs = (from: number, count: number) =>
    Array.from({ length: count }, (_, i) => `Paragraph ${from + i} with [a link](https://example.com/${from + i}) and words.`).join("\n\n")
  const fenced = "```md\n# not a heading\n\n" + "inside the fence\n\n".repeat(300) + "```"
  const large = [
    "---\ntitle: Big\n---",
    "## First",
    paragraphs(0, 1000),
    fenced,
    "## Second",
    "- item one\n\n" + "  continued item text\n\n".repeat(200) + "- item two",
    paragraphs(1000, 1000),
    "## Third\n\nEnd."
  ].join("\n\n")

  it("reads the title and body of a large page from its start", () => {
    const page = parseDocument(`# Big page\n\n${large}`)
    assert.strictEqual(page.title, "Big page")
    assert.strictEqual(page.body, large)
    const fromFrontmatter = parseDocument(large)
    assert.strictEqual(fromFrontmatter.title, "Big")
    assert.isTrue(fromFrontmatter.body.startsWith("## First"))
    // A leading heading's reference resolves through a definition at the end, as in a parse of the whole.
    const referenced = `# The [guide][g]\n\n${paragraphs(0, 1000)}\n\n[g]: https://example.com/guide\n`
    assert.strictEqual(parseDocument(referenced).title, "The guide")
    assert.strictEqual(parseDocument(referenced.replace("[g]: https://example.com/guide", "")).title, "The [guide][g]")
  })

  it("splits a large page into the same sections, never inside a code block or a list", () => {
    assert.isAbove(large.length, 100_000)
    const found = sections(large, "Big")
    assert.deepStrictEqual(found.map((s) => s.title), ["First", "Second", "Third"])
    assert.include(found[0]!.body, "Paragraph 999 with a link and words.")
    assert.include(found[0]!.body, "# not a heading")
    assert.include(found[1]!.body, "item two")
    assert.include(found[1]!.body, "Paragraph 1999 with a link and words.")
    assert.strictEqual(found[2]!.body, "End.")
  })

  it("resolves references across pieces of a large page, as in a parse of the whole", () => {
    const withReferences = `See [the guide][guide] first.\n\n${paragraphs(0, 400)}\n\n[guide]: https://example.com/guide\n[unused]: https://example.com/unused\n`
    const found = links(withReferences, noHtml).filter((link) => !link.url.startsWith("https://example.com/") || /guide|unused/.test(link.url))
    assert.deepStrictEqual(found.map((link) => [link.url, link.position.line]), [
      ["https://example.com/guide", 1],
      ["https://example.com/unused", withReferences.split("\n").indexOf("[unused]: https://example.com/unused") + 1]
    ])
    assert.strictEqual(sections(withReferences)[0]!.body.split("\n")[0], "See the guide first.")
  })

  it("parses a piece with only the definitions it may use: its references resolve as with all of them", () => {
    const next = random(41)
    const labels = ["a", "B", "c d", "e\\]f", "ü", "long label", "x"]
    const label = () => labels[Math.floor(next() * labels.length)]!
    const blocks = [
      () => `See [${label()}] and [text][${label()}], ![img][${label()}] and [${label()}][].`,
      () => `> Quoted [text][${multiline(label(), "> ")}]\n> across [${label()}] lines.`,
      () => `- item [${multiline(label(), "  ")}]\n  [other][${label()}]`,
      () => `[${label()}]: https://example.com/${Math.floor(next() * 100)} "title"`,
      () => `   [${label().toUpperCase()}]:   /relative/${Math.floor(next() * 100)}`,
      () => "Plain words with no brackets.",
      () => `\`[${label()}]\` in code, [not [nested]][${label()}]`,
      () => `| [${label()}] | b |\n| - | - |\n| [c][${label()}] | d |`
    ]
    let checked = 0
    // Pieces with a reference that a definition of the appendix resolves.
    let used = 0
    for (let n = 0; n < 300; n++) {
      const page = Array.from({ length: 2 + Math.floor(next() * 12) }, () => blocks[Math.floor(next() * blocks.length)]!()).join("\n\n")
      // The appendix a piece of a page of several pieces is parsed with: the page's definitions.
      const appendix = appendixOf(page)
      for (const text of page.split("\n\n")) {
        const all = parseMarkdown(text + appendix).children.filter((node) => (node.position?.start.offset ?? 0) < text.length)
        const resolved = references(all)
        assert.deepStrictEqual(references(parsePiece(text, appendix).children), resolved, JSON.stringify({ text, appendix }))
        checked++
        if (resolved.length > 0) used++
      }
    }
    assert.isAbove(checked, 1_000)
    assert.isAbove(used, 200)
  })

  it("is cut by its shortcut for plain lines where its full reading of each line cuts it", () => {
    const next = random(36)
    const lines = [
      "", "", "", "Plain words", "# Heading", "第一段", "- item", "  indented", "1. first", "> quote", "| a | b |", "```", "~~~~",
      "<pre>", "</pre>", "<!-- a", "-->", "<div>", "{% hint %}", "[def]: u", "    code", "\u00a0", "x\r", "Words </pre> -->"
    ]
    let cuts = 0
    for (let n = 0; n < 2_000; n++) {
      const page = Array.from({ length: 1 + Math.floor(next() * 60) }, () => lines[Math.floor(next() * lines.length)]!)
      // The same page with plain lines that do not take the shortcut: their first character is
      // "=" (same length, no fence, no HTML, a block's start for the reading in full).
      const full = page.map((line) => /^[A-Za-z#]|^[^\s\0-\x7f]/.test(line) ? `=${line.slice(1)}` : line)
      const target = 1 + Math.floor(next() * 40)
      const shortcut = linesOfChunks(blockChunks(page.join("\n"), target))
      assert.deepStrictEqual(shortcut, linesOfChunks(blockChunks(full.join("\n"), target)), JSON.stringify(page))
      cuts += shortcut.length - 1
    }
    assert.isAbove(cuts, 1_000)
  })

  it("finds every link of a large page at its line", () => {
    const found = links(large, noHtml)
    assert.strictEqual(found.length, 2000)
    const lines = large.split("\n")
    for (const link of [found[0]!, found[1500]!, found[1999]!]) {
      assert.include(lines[link.position.line - 1]!, link.url)
    }
  })
})

describe("GitBook's heading anchors", () => {
  const page = [
    "Intro.",
    "",
    "## Install the CLI <a href=\"#install\" id=\"install\"></a>",
    "",
    "Run it.",
    "",
    "## Install",
    "",
    "- ### Nested <a href='#deep' id='deep'></a>",
    ""
  ].join("\n")

  it("gives a heading the id of its empty anchor, and its text without the anchor", () => {
    const ids = [...headingIds(parseMarkdown(page))]
    assert.deepStrictEqual(ids.map(([heading, id]) => [headingText(heading), id]), [
      ["Install the CLI", "install"],
      // The anchor's id is taken: a heading whose text slugs the same gets the next one.
      ["Install", "install-1"],
      ["Nested", "deep"]
    ])
  })

  it("names search sections (and so the outline's #links) by the same ids", () => {
    const found = sections(page, "Setup")
    assert.deepStrictEqual(found.map((s) => [s.id, s.title]), [["", "Setup"], ["install", "Install the CLI"], ["install-1", "Install"]])
  })

  it("reads the id of an anchor as written", () => {
    assert.strictEqual(gitbookAnchorId("Get Started <a href=\"#getting-started\" id=\"getting-started\"></a>"), "getting-started")
    assert.strictEqual(gitbookAnchorId("Plain heading"), undefined)
  })
})

describe("GitBook's generated heading ids", () => {
  it("spells & as and, keeps a numbered heading's dot behind an id- prefix, and trims hyphens at the ends", () => {
    assert.strictEqual(gitbookSlug("Math & TeX"), "math-and-tex")
    assert.strictEqual(gitbookSlug("1. Create a new application in Auth0"), "id-1.-create-a-new-application-in-auth0")
    assert.strictEqual(gitbookSlug("3. Configure Auth0 for adaptive content (optional)"), "id-3.-configure-auth0-for-adaptive-content-optional")
    assert.strictEqual(gitbookSlug("Page ratings (Pro and Enterprise plans)"), "page-ratings-pro-and-enterprise-plans")
    assert.strictEqual(gitbookSlug("(Beta) Webhooks!"), "beta-webhooks")
  })

  it("drops apostrophes but turns any other run of punctuation into one hyphen, as GitBook's own links expect", () => {
    // Anchors written in Airstack's and GitBook's repositories: `#...-user-s`, `#whats-new`.
    assert.strictEqual(gitbookSlug("Get Farcaster Followers of Farcaster User(s)"), "get-farcaster-followers-of-farcaster-user-s")
    assert.strictEqual(gitbookSlug("Get All 0x addresses of Farcaster user(s)"), "get-all-0x-addresses-of-farcaster-user-s")
    assert.strictEqual(gitbookSlug("What's new"), "whats-new")
    assert.strictEqual(gitbookSlug("Don’t panic"), "dont-panic")
    assert.strictEqual(gitbookSlug("Input/output: the basics"), "input-output-the-basics")
    assert.strictEqual(gitbookSlug("snake_case and v1.2-beta"), "snake_case-and-v1.2-beta")
    assert.strictEqual(gitbookSlug("Café résumé"), "café-résumé")
  })

  it("spells |, < and > as words, as Airstack's and Beefree's links to such headings expect", () => {
    assert.strictEqual(gitbookSlug("Get All Farcaster Users With Social Capital Scores > X"), "get-all-farcaster-users-with-social-capital-scores-greater-than-x")
    assert.strictEqual(gitbookSlug("Get All Farcaster Users With Social Capital Rank < X"), "get-all-farcaster-users-with-social-capital-rank-less-than-x")
    assert.strictEqual(gitbookSlug("Mobile Badge | Released March 2025"), "mobile-badge-or-released-march-2025")
  })

  it("gives headings GitBook's ids and remembers the GitHub-style slug they had before", () => {
    const tree = parseMarkdown("## Math & TeX\n\n## 1. Create an app\n\n## Plain\n\n## Plain\n")
    const anchors = [...headingAnchorsOf(tree).values()]
    assert.deepStrictEqual(anchors, [
      { id: "math-and-tex", legacy: "math--tex" },
      { id: "id-1.-create-an-app", legacy: "1-create-an-app" },
      { id: "plain" },
      { id: "plain-1" }
    ])
    // Search sections and the outline link to the same ids.
    assert.deepStrictEqual(sections("## Math & TeX\n\ntext\n\n## 1. Create an app\n\nmore").map((s) => s.id), ["math-and-tex", "id-1.-create-an-app"])
  })
})

describe("headings with inline HTML", () => {
  it("leave the tags of an inline image out of their text and id", () => {
    const tree = parseMarkdown(`### Custom logo <picture><source srcset="dark.png" media="(prefers-color-scheme: dark)"><img src="light.png" alt=""></picture>\n\n## A <mark>marked</mark> word`)
    const headings = tree.children.filter((node) => node.type === "heading")
    assert.deepStrictEqual(headings.map((node) => headingText(node)), ["Custom logo", "A marked word"])
    assert.deepStrictEqual([...headingIds(tree).values()], ["custom-logo", "a-marked-word"])
  })
})
