import fc from "fast-check"
import type { Node as PMNode } from "@tiptap/pm/model"
import { describe, expect, it } from "vitest"
import { createMarkdownCodec, createSchema, type MarkdownCodec } from "@quire/document"
import { type BlockRow, defaultLimits, lineDiff, nextStop, pageDiff, type RenderedDiff } from "../../../src/features/review/diff.ts"
import { diffSequences } from "../../../src/features/review/sequence.ts"
import { readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { edits, install, quickstart } from "./pages.ts"

const codec = createMarkdownCodec(createSchema())

const rendered = (base: string, head: string): RenderedDiff => {
  const d = pageDiff(codec, base, head)
  if (d.kind !== "rendered") throw new Error(`line diff: ${d.reason}`)
  return d
}

const text = (doc: PMNode, r: { from: number; to: number }) => doc.textBetween(r.from, r.to, "|", "#")

/** The rows that are not `same`, summarised as a reader sees them. */
const shown = (d: RenderedDiff) =>
  d.rows.filter((r) => r.kind !== "same").map((r: BlockRow) => ({
    kind: r.kind,
    type: (r.head ?? r.base)!.type,
    ...(r.kind === "changed"
      ? {
        deleted: r.deleted!.map((x) => text(d.base, x)),
        inserted: r.inserted!.map((x) => text(d.head, x)),
        attributes: r.attributes!.map((a) => `${a.node}.${a.key}`)
      }
      : {})
  }))

/** Blocks of a document as the diff counts them (an empty page has none). */
const count = (doc: PMNode) => (doc.childCount === 1 && doc.firstChild!.type.name === "paragraph" && doc.firstChild!.content.size === 0 ? 0 : doc.childCount)
const order = (refs: Array<number>, n: number) => expect(refs).toEqual(Array.from({ length: n }, (_, i) => i))
const many = (n: number, tag: string) => Array.from({ length: n }, (_, i) => `${tag} ${i}\n`).join("\n")
const lastLineDropped = (s: string) => s.split("\n").slice(0, -1)

const edit = (name: string) => edits.find((e) => e.name === name)!

describe("review diff of GitBook pages", () => {
  it("marks a hint whose style changed, with the style as the attribute change and no text change", () => {
    const d = rendered(edit("hint style changed").base, edit("hint style changed").head)
    expect(shown(d)).toEqual([{ kind: "changed", type: "hint", deleted: [], inserted: [], attributes: ["hint.params"] }])
    const change = d.rows.find((r) => r.kind === "changed")!.attributes![0]!
    expect(change.before).toEqual([{ key: "style", value: "info", quote: "\"" }])
    expect(change.after).toEqual([{ key: "style", value: "warning", quote: "\"" }])
  })

  it("marks an added tab as one inserted range covering the whole tab", () => {
    const d = rendered(edit("tab added").base, edit("tab added").head)
    expect(shown(d)).toEqual([{ kind: "changed", type: "tabs", deleted: [], inserted: ["pnpm add -g quire"], attributes: [] }])
    const range = d.rows.find((r) => r.kind === "changed")!.inserted![0]!
    expect(d.head.nodeAt(range.from)?.type.name).toBe("tab")
    expect(d.head.nodeAt(range.from)?.nodeSize).toBe(range.to - range.from)
  })

  it("marks a removed list item as the whole item deleted", () => {
    const d = rendered(edit("list item removed").base, edit("list item removed").head)
    expect(shown(d)).toEqual([{ kind: "changed", type: "bulletList", deleted: ["PostgreSQL 16 or later"], inserted: [], attributes: [] }])
    const deletion = d.rows.find((r) => r.kind === "changed")!.deleted![0]!
    expect(d.base.nodeAt(deletion.from)?.type.name).toBe("listItem")
    // The inline view shows it between the items around it: right after "Node.js 24 or later".
    expect(d.head.resolve(deletion.at).nodeBefore?.textContent).toBe("Node.js 24 or later")
    expect(d.head.resolve(deletion.at).nodeAfter?.textContent).toBe("1 GB of memory")
  })

  it("marks only the changed table cell's text", () => {
    expect(shown(rendered(edit("table cell changed").base, edit("table cell changed").head))).toEqual([
      { kind: "changed", type: "table", deleted: ["3000"], inserted: ["8080"], attributes: [] }
    ])
    const d = rendered(edit("table cell changed").base, edit("table cell changed").head)
    const row = d.rows.find((r) => r.kind === "changed")!
    // The deleted "3000" shows right where "8080" was inserted.
    expect(row.deleted![0]!.at).toBe(row.inserted![0]!.from)
  })

  it("shows a renamed heading as a changed heading, old and new text", () => {
    expect(shown(rendered(edit("heading renamed").base, edit("heading renamed").head))).toEqual([
      { kind: "changed", type: "heading", deleted: ["Requirements"], inserted: ["What you need"], attributes: [] }
    ])
  })

  it("shows a frontmatter change as the frontmatter block's text, before and after", () => {
    const d = rendered(edit("frontmatter changed").base, edit("frontmatter changed").head)
    expect(shown(d)).toEqual([{ kind: "changed", type: "frontmatter", deleted: [], inserted: [], attributes: ["frontmatter.text"] }])
    const change = d.rows[0]!.attributes![0]!
    expect(String(change.before)).toContain("icon: download")
    expect(String(change.after)).toContain("icon: rocket")
  })

  it("marks words inside paragraphs, expandables, tabs' code, steps, tasks and math", () => {
    expect(shown(rendered(edit("expandable body changed").base, edit("expandable body changed").head))).toEqual([
      { kind: "changed", type: "expandable", deleted: ["1"], inserted: ["true"], attributes: [] }
    ])
    expect(shown(rendered(edit("code in a tab changed").base, edit("code in a tab changed").head))).toEqual([
      { kind: "changed", type: "tabs", deleted: [], inserted: ["ghcr.io/"], attributes: [] }
    ])
    expect(shown(rendered(edit("step added").base, edit("step added").head))).toEqual([
      { kind: "changed", type: "stepper", deleted: [], inserted: ["Write|Open the editor."], attributes: [] }
    ])
    expect(shown(rendered(edit("task checked").base, edit("task checked").head))).toEqual([
      { kind: "changed", type: "taskList", deleted: [], inserted: [], attributes: ["taskItem.checked"] }
    ])
    expect(shown(rendered(edit("math changed").base, edit("math changed").head))).toEqual([
      { kind: "changed", type: "mathBlock", deleted: ["2"], inserted: ["3"], attributes: [] }
    ])
    const reworded = shown(rendered(edit("paragraph reworded").base, edit("paragraph reworded").head))[0]!
    expect(reworded.kind).toBe("changed")
    expect(reworded.inserted!.join("")).toContain("domain")
  })

  it("marks whole blocks added and removed, in reading order, and lists them for next / previous", () => {
    const d = rendered(edit("block added and block removed").base, edit("block added and block removed").head)
    expect(shown(d)).toEqual([{ kind: "added", type: "horizontalRule" }, { kind: "removed", type: "blockquote" }])
    expect(d.changes.map((c) => c.kind)).toEqual(["added", "removed"])
    expect(d.changes[0]!.head).toEqual({ from: d.rows[d.changes[0]!.row]!.head!.from, to: d.rows[d.changes[0]!.row]!.head!.to })
    expect(text(d.base, d.changes[1]!.base!)).toBe("Tip: press Ctrl+K anywhere to search.")
    // The removed quote shows in the inline view just before the math block that followed it.
    expect(d.head.nodeAt(d.rows[d.changes[1]!.row]!.at!)?.type.name).toBe("mathBlock")
  })

  it("gives one stop per changed block across a page edited in many places", () => {
    const head = install
      .replace("icon: download", "icon: rocket")
      .replace("and a database.", "and a domain.")
      .replace(`style="info"`, `style="success"`)
      .replace("## Requirements", "## What you need")
      .replace("* 1 GB of memory\n", "")
      .replace("quire/quire", "ghcr.io/quire/quire")
      .replace("| none |", "| unset |")
      .replace("Behind a proxy?", "Behind a reverse proxy?")
    const d = rendered(install, head)
    expect(d.changes.map((c) => (d.rows[c.row]!.head ?? d.rows[c.row]!.base)!.type)).toEqual([
      "frontmatter", "paragraph", "hint", "heading", "bulletList", "tabs", "table", "expandable"
    ])
    expect(d.changes.every((c) => c.kind === "changed")).toBe(true)
    expect(d.rows.filter((r) => r.kind === "same").map((r) => r.head!.type)).toEqual(["heading", "heading", "contentRef"])
  })

  it("an unchanged page has every block `same` and no stops (the page is still shown)", () => {
    const d = rendered(quickstart, quickstart)
    expect(d.rows.length).toBe(6)
    expect(d.rows.every((r) => r.kind === "same")).toBe(true)
    expect(d.changes).toEqual([])
    expect(d.markdownOnly).toBe(false)
  })

  it("a change only to how the markdown is written shows no block changed, and says so", () => {
    const d = rendered(quickstart, quickstart.replace("- [x] Space created\n- [ ] Team invited", "* [x] Space created\n* [ ] Team invited"))
    expect(d.changes).toEqual([])
    expect(d.markdownOnly).toBe(true)
  })

  it("an added page (empty base) and a deleted page (empty head) show every block", () => {
    const added = rendered("", quickstart)
    expect(added.rows.filter((r) => r.kind === "added").length).toBe(6)
    const deleted = rendered(install, "")
    expect(deleted.rows.filter((r) => r.kind === "removed").length).toBe(11)
  })

  it("aligns the split view: same and changed blocks face each other, a run's removed and added blocks share rows", () => {
    const head = quickstart.replace("> Tip: press `Ctrl+K` anywhere to search.", "{% hint style=\"info\" %}\nPress `Ctrl+K` to search.\n{% endhint %}")
      .replace("# Quickstart", "# Quick start")
    const d = rendered(quickstart, head)
    expect(d.split.map((r) => [r.kind, r.base?.type ?? null, r.head?.type ?? null])).toEqual([
      ["changed", "heading", "heading"],
      ["same", "orderedList", "orderedList"],
      ["same", "stepper", "stepper"],
      ["same", "taskList", "taskList"],
      ["changed", "blockquote", "hint"],
      ["same", "mathBlock", "mathBlock"]
    ])
    // Every block of each side appears once, in order.
    expect(d.split.flatMap((r) => (r.base ? [r.base.index] : []))).toEqual([0, 1, 2, 3, 4, 5])
    expect(d.split.flatMap((r) => (r.head ? [r.head.index] : []))).toEqual([0, 1, 2, 3, 4, 5])
  })
})

describe("line diff fallback", () => {
  it("a page over the size limit gets the markdown's line diff, with the reason", () => {
    const d = pageDiff(codec, install, install.replace("3000", "8080"), { ...defaultLimits, maxMarkdown: 100 })
    expect(d.kind).toBe("lines")
    if (d.kind !== "lines") return
    expect(d.reason).toBe("the page is over 100 characters")
    expect(d.rows.filter((r) => r.kind !== "same").map((r) => `${r.kind} ${r.baseLine ?? r.headLine} ${r.text}`)).toEqual([
      "removed 29 docker run -p 3000:3000 quire/quire",
      "added 29 docker run -p 8080:3000 quire/quire"
    ])
    expect(d.changes.length).toBe(1)
    for (const hunk of d.changes) expect(d.rows.slice(hunk.from, hunk.to).every((r) => r.kind !== "same")).toBe(true)
  })

  it("a codec that throws gives the line diff, never an empty view", () => {
    const broken: MarkdownCodec = { ...codec, parse: () => { throw new Error("boom") } }
    const d = pageDiff(broken, "a\nb\nc\n", "a\nB\nc\n")
    expect(d).toMatchObject({ kind: "lines", reason: "the rendered diff failed: boom" })
    expect(d.kind === "lines" && d.rows.map((r) => `${r.kind[0]} ${r.text}`)).toEqual(["s a", "r b", "a B", "s c"])
    expect(d.kind === "lines" && d.split).toEqual([
      { base: { kind: "same", text: "a", baseLine: 1, headLine: 1 }, head: { kind: "same", text: "a", baseLine: 1, headLine: 1 } },
      { base: { kind: "removed", text: "b", baseLine: 2 }, head: { kind: "added", text: "B", headLine: 2 } },
      { base: { kind: "same", text: "c", baseLine: 3, headLine: 3 }, head: { kind: "same", text: "c", baseLine: 3, headLine: 3 } }
    ])
  })

  it("too many differing blocks fall back to lines, and too many differing lines show the page replaced", () => {
    const d = pageDiff(codec, many(50, "old"), many(50, "new"), { ...defaultLimits, maxBlockEdits: 10 })
    expect(d.kind === "lines" && d.reason).toBe("more than 10 blocks differ")
    const replaced = lineDiff("a\nb\n", "c\nd\n", "test", { ...defaultLimits, maxLineEdits: 1 })
    expect(replaced.rows.map((r) => `${r.kind[0]} ${r.text}`)).toEqual(["r a", "r b", "a c", "a d"])
  })
})

describe("review diff, properties", () => {
  const blockArb = fc.oneof(
    fc.constantFrom(
      "# Title",
      "## Section",
      "{% hint style=\"info\" %}\nA hint.\n{% endhint %}",
      "{% hint style=\"danger\" %}\nCareful.\n{% endhint %}",
      "* one\n* two",
      "1. first\n2. second",
      "| a | b |\n| - | - |\n| 1 | 2 |",
      "```js\nlet x = 1\n```",
      "> quoted",
      "---",
      "<details>\n\n<summary>More</summary>\n\nHidden.\n\n</details>"
    ),
    fc.stringMatching(/^[A-Za-z][A-Za-z ,.]{0,30}$/).map((s) => s.trim() || "Text")
  )
  const pageArb = fc.array(blockArb, { maxLength: 10 }).map((blocks) => blocks.map((b) => `${b}\n`).join("\n"))

  it("every block of both sides appears exactly once, in order, in the rows and in the split view; stops are the non-same rows", () => {
    fc.assert(
      fc.property(pageArb, pageArb, (base, head) => {
        const d = pageDiff(codec, base, head)
        expect(d.kind).toBe("rendered")
        if (d.kind !== "rendered") return
        order(d.rows.flatMap((r) => (r.base ? [r.base.index] : [])), count(d.base))
        order(d.rows.flatMap((r) => (r.head ? [r.head.index] : [])), count(d.head))
        order(d.split.flatMap((r) => (r.base ? [r.base.index] : [])), count(d.base))
        order(d.split.flatMap((r) => (r.head ? [r.head.index] : [])), count(d.head))
        expect(d.changes.map((c) => c.row)).toEqual(d.rows.flatMap((r, i) => (r.kind === "same" ? [] : [i])))
        for (const r of d.rows) {
          if (r.kind === "removed") expect(r.at! >= 0 && r.at! <= d.head.content.size).toBe(true)
          for (const x of r.deleted ?? []) expect(x.from >= r.base!.from && x.to <= r.base!.to && x.from < x.to && x.at >= r.head!.from && x.at <= r.head!.to).toBe(true)
          for (const x of r.inserted ?? []) expect(x.from >= r.head!.from && x.to <= r.head!.to && x.from < x.to).toBe(true)
        }
        if (base === head) expect(d.changes).toEqual([])
      }),
      { numRuns: 300, seed: 42 }
    )
  })

  it("over the editor's real GitBook fixture pages, random line edits give a rendered diff, never empty: stops, or markdownOnly when only the markdown changed", () => {
    const dir = join(import.meta.dirname, "../../../../../packages/document/test/fixtures/beefree")
    const real = readdirSync(dir).filter((f) => f.endsWith(".md")).map((f) => readFileSync(join(dir, f), "utf8"))
    expect(real.length).toBeGreaterThan(0)
    const lineEdit = fc.tuple(fc.constantFrom("delete", "duplicate", "reword"), fc.nat())
    fc.assert(
      fc.property(fc.constantFrom(...real), fc.array(lineEdit, { minLength: 1, maxLength: 4 }), (page, changes) => {
        const lines = page.split("\n")
        for (const [op, n] of changes) {
          const i = n % lines.length
          if (op === "delete") lines.splice(i, 1)
          else if (op === "duplicate") lines.splice(i, 0, lines[i]!)
          else lines[i] = lines[i]!.replace(/[A-Za-z]{4,}/, "Reworded")
        }
        const head = lines.join("\n")
        const d = pageDiff(codec, page, head)
        expect(d.kind).toBe("rendered")
        if (d.kind !== "rendered") return
        expect(d.base.childCount + d.head.childCount).toBeGreaterThan(0)
        // Something differs for a reader, or the diff says only the markdown did.
        if (head !== page) expect(d.changes.length > 0 || d.markdownOnly).toBe(true)
        else expect(d.changes).toEqual([])
      }),
      { numRuns: 100, seed: 17 }
    )
  })

  it("the line diff's rows rebuild both sides' lines", () => {
    const lines = fc.array(fc.constantFrom("a", "b", "c", "{% hint %}", ""), { maxLength: 30 }).map((l) => l.map((x) => `${x}\n`).join(""))
    fc.assert(
      fc.property(lines, lines, (a, b) => {
        const d = lineDiff(a, b, "test")
        expect(d.rows.filter((r) => r.kind !== "added").map((r) => r.text)).toEqual(lastLineDropped(a))
        expect(d.rows.filter((r) => r.kind !== "removed").map((r) => r.text)).toEqual(lastLineDropped(b))
      }),
      { numRuns: 300, seed: 5 }
    )
  })

  it("Myers' edits are a shortest script that rebuilds the other side", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 3 }), { maxLength: 25 }), fc.array(fc.integer({ min: 0, max: 3 }), { maxLength: 25 }), (a, b) => {
        const edits = diffSequences(a, b)!
        expect(edits.flatMap((e) => (e.op === "insert" ? [b[e.b]] : e.op === "equal" ? [a[e.a]] : []))).toEqual(b)
        expect(edits.flatMap((e) => (e.op === "delete" ? [a[e.a]] : e.op === "equal" ? [a[e.a]] : []))).toEqual(a)
        // Shortest: the equal count is the longest common subsequence's length.
        const lcs = Array.from({ length: a.length + 1 }, () => Array<number>(b.length + 1).fill(0))
        for (let i = a.length - 1; i >= 0; i--) {
          for (let j = b.length - 1; j >= 0; j--) lcs[i]![j] = a[i] === b[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!)
        }
        expect(edits.filter((e) => e.op === "equal").length).toBe(lcs[0]![0])
      }),
      { numRuns: 500, seed: 9 }
    )
  })

  it("next and previous wrap around the stops", () => {
    expect(nextStop(0, -1, 1)).toBe(-1)
    expect(nextStop(3, -1, 1)).toBe(0)
    expect(nextStop(3, -1, -1)).toBe(2)
    expect(nextStop(3, 2, 1)).toBe(0)
    expect(nextStop(3, 0, -1)).toBe(2)
  })
})
