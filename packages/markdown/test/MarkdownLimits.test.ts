import { assert, describe, it } from "@effect/vitest"
import type { Nodes } from "mdast"
import { defaultMarkdownLimits, markdownLimitBreach, markdownLimitNames, parseBody, parseMarkdown, plainTextMarkdown, sections } from "../src/index.ts"
import { adversarialCases, nestedBrackets, nestedHints, nestedList, nestedQuotes } from "../src/testing/Adversarial.ts"
import { random } from "./support/Random.ts"

/** Milliseconds `f` takes. */
const timed = (f: () => void): number => {
  const start = performance.now()
  f()
  return performance.now() - start
}

/**
 * The least time of up to `tries` runs of `f`, stopping once one is within `budget`: a busy
 * neighbour slows one run, a quadratic parse slows every one.
 */
const timedWithin = (f: () => void, budget: number, tries = 3): number => {
  let least = Number.POSITIVE_INFINITY
  for (let i = 0; i < tries && least >= budget; i++) least = Math.min(least, timed(f))
  return least
}

/** An ordinary page of about `bytes` characters: headings, paragraphs with links and emphasis, lists, a table, code. */
const ordinaryPage = (bytes: number): string => {
  const unit = "## A part\n\nWords about [the guide](https://example.com/guide) with **some** _emphasis_ and `code`.\n\n" +
    "- an item\n  - a nested item\n\n> A quote.\n\n| a | b |\n| - | - |\n| 1 | 2 |\n\n```ts\nconst x = [[1]]\n```\n\n"
  return unit.repeat(Math.ceil(bytes / unit.length))
}

describe("markdown limits", () => {
  it("measures the nesting of each construct in one linear pass, naming the limit and the line", () => {
    assert.deepStrictEqual(markdownLimitBreach(nestedBrackets(33)), { limit: "bracketDepth", max: 32, found: 33, line: 1 })
    assert.isUndefined(markdownLimitBreach(nestedBrackets(32)))
    assert.strictEqual(markdownLimitBreach(nestedList(40))?.limit, "containerDepth")
    assert.strictEqual(markdownLimitBreach(nestedList(40))?.line, 33)
    assert.isUndefined(markdownLimitBreach(nestedList(32)))
    assert.strictEqual(markdownLimitBreach(nestedQuotes(20_000))?.limit, "containerDepth")
    assert.strictEqual(markdownLimitBreach(nestedHints(3_000))?.limit, "gitbookDepth")
    assert.isUndefined(markdownLimitBreach(nestedHints(10)))
    // A tag written over two lines counts where it opens.
    assert.deepStrictEqual(markdownLimitBreach(`${"{% hint\nstyle=\"info\" %}\n".repeat(40)}x\n${"{% endhint %}\n".repeat(40)}`), { limit: "gitbookDepth", max: 32, found: 33, line: 65 })
    // Frontmatter is not markdown; its lines still count in the line number.
    assert.deepStrictEqual(markdownLimitBreach(`---\ntitle: "[[["\n---\n\n${nestedBrackets(40)}`), { limit: "bracketDepth", max: 32, found: 33, line: 5 })
  })

  it("lets ordinary pages through: code, thematic breaks, balanced brackets, tables, HTML", () => {
    const ordinary = [
      ordinaryPage(100_000),
      `\`\`\`\n${"[".repeat(500)}\n${">".repeat(500)}\n\`\`\`\n`,
      "- - -\n\n***\n\n" + "*".repeat(80) + "\n",
      "a[0][1][2][3] and [link](u) [[wiki]] ".repeat(2000),
      "> [!NOTE]\n> A note.\n>\n> More of it.\n".repeat(600),
      `<div>\n<p>\n<img src="x">\n<br>\n</p>\n</div>\n\n`.repeat(200),
      `| ${Array.from({ length: 40 }, (_, i) => `c${i}`).join(" | ")} |\n`,
      "{% tabs %}\n{% tab title=\"a\" %}\n{% hint style=\"info\" %}\nx\n{% endhint %}\n{% endtab %}\n{% endtabs %}\n"
    ]
    for (const markdown of ordinary) assert.deepStrictEqual(markdownLimitBreach(markdown), undefined, markdown.slice(0, 60))
  })

  it("either refuses each adversarial page with a named limit or parses it in about an ordinary page's time, without overflowing the stack", () => {
    for (const bytes of [64 * 1024, 400 * 1024]) {
      // Warm, then the time of an ordinary page of the same size: the yardstick on a noisy machine.
      parseMarkdown(ordinaryPage(bytes))
      const ordinary = timed(() => parseMarkdown(ordinaryPage(bytes)))
      for (const { markdown, name } of adversarialCases(bytes)) {
        let breach: ReturnType<typeof markdownLimitBreach>
        const scan = timed(() => {
          breach = markdownLimitBreach(markdown)
        })
        // The scan is linear: about a parse of an ordinary page at most (a quadratic one takes
        // seconds here), with room for a collection or a busy neighbour in the same run.
        assert.isBelow(scan, Math.max(500, 2 * ordinary), `${name}: the scan took ${scan} ms`)
        let depth = 0
        const budget = 5 * ordinary + 500
        const parse = timedWithin(() => {
          depth = 0
          const stack: Array<readonly [Nodes, number]> = [[parseMarkdown(markdown), 0]]
          for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
            const [node, level] = next
            depth = Math.max(depth, level)
            if ("children" in node) for (const child of node.children) stack.push([child, level + 1])
          }
        }, budget)
        assert.isBelow(parse, budget, `${name} (${markdown.length} characters, ${breach === undefined ? "within the limits" : breach.limit}): ${parse} ms against ${budget}`)
        if (breach !== undefined) {
          assert.include(Object.keys(markdownLimitNames), breach.limit)
          assert.isAbove(breach.found, defaultMarkdownLimits[breach.limit], name)
        }
        assert.isBelow(depth, 200, name)
      }
    }
  })

  it("parses a page over a limit as plain text with a note naming the limit", () => {
    const markdown = `# Title\n\n${nestedBrackets(5_000)}\n\n\`\`\`\`code\`\`\`\`\n`
    const tree = parseBody(markdown)
    assert.deepStrictEqual(tree.children.map((node) => node.type), ["paragraph", "code"])
    const [note, code] = tree.children
    assert.include(JSON.stringify(note), "bracket-nesting limit")
    assert.strictEqual(code?.type === "code" ? code.value : "", markdown)
    assert.strictEqual(plainTextMarkdown(markdown, markdownLimitBreach(markdown)!).split("\n").at(-2), "`````")
    // Search reads its words, as text.
    assert.include(sections(markdown).map((section) => section.body).join("\n"), "x]]]")
  })

  it("reads plain and empty lines in its shortcut as its full reading does, over generated pages with small limits", () => {
    const next = random(34)
    const lines = [
      "", "", "Plain words", "Plain words", "# A heading", "第一段文字", "Words with [a link](u) and *emphasis*", "- an item", "  - nested",
      "1. first", "> a quote", "> > nested quote", ">", "```", "~~~", "    indented", "| a | b | c | d |", "[def]: https://example.com",
      "`code` ``more``", "<div>", "</div>", "{% hint %}", "{% endhint %}", "***", "a ~~b~~ c", "Lazy words", "\u00a0", "x\r"
    ]
    const small = {
      bracketDepth: 2, containerDepth: 3, emphasisRun: 2, emphasisDelimiters: 6, codeSpanLengths: 2, htmlDepth: 2,
      gitbookDepth: 1, tableColumns: 3, quotes: 3, definitions: 2
    }
    let breaches = 0
    for (let n = 0; n < 3_000; n++) {
      const page = Array.from({ length: 1 + Math.floor(next() * 40) }, () => lines[Math.floor(next() * lines.length)]!).join("\n")
      // The same page with no line the shortcut takes: an empty line holds a space, a plain one ends
      // with "{" (which no limit counts without a "%").
      const full = page.split("\n").map((line) => line === "" ? " " : /^[A-Za-z#]|^[^\s\0-\x7f]/.test(line) ? `${line}{` : line).join("\n")
      const breach = markdownLimitBreach(page, small)
      if (breach !== undefined) breaches++
      assert.deepStrictEqual(breach, markdownLimitBreach(full, small), JSON.stringify(page))
    }
    assert.isAbove(breaches, 500)
  })
})
