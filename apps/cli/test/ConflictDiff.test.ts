/** How `quire cr merge`, `update` and `resolve` show conflicts, and how `resolve` reads its choices (no server). */
import { assert, describe, it } from "@effect/vitest"
import { Option } from "effect"
import type { MergeConflict } from "@quire/api"
import { colored, plain, renderConflict, resolveHint } from "../src/ConflictDiff.ts"
import { choose } from "../src/commands/CrResolveCommand.ts"

type Conflict = typeof MergeConflict.Type

const content: Conflict = {
  id: "c1",
  pageId: "p1",
  path: "guides/install",
  kind: "content",
  field: "document",
  hunks: [{ base: "Run it.\nThen stop.", ours: "Run it with npm.\nThen stop.", theirs: "Run it with pnpm." }],
  context: { before: ["# Install", ""], after: [] }
}
const title: Conflict = { id: "c2", pageId: "p2", path: "faq", kind: "metadata", field: "title", ours: "\"FAQ\"", theirs: "\"Questions\"" }
const deleted: Conflict = { id: "c3", pageId: "p3", path: "old", kind: "delete-edit", ours: "null", theirs: "edited" }

describe("conflicts as people read them", () => {
  it("a content conflict is two line diffs from the common ancestor, between the merged lines around it", () => {
    assert.strictEqual(
      renderConflict(content, plain),
      [
        "c1  guides/install  content",
        "  main (from the common ancestor):",
        "      # Install",
        "",
        "    - Run it.",
        "    + Run it with npm.",
        "      Then stop.",
        "  change request (from the common ancestor):",
        "      # Install",
        "",
        "    - Run it.",
        "    - Then stop.",
        "    + Run it with pnpm."
      ].join("\n")
    )
  })

  it("metadata shows both values, a delete-edit who deleted and who edited", () => {
    assert.strictEqual(renderConflict(title, plain), "c2  faq  metadata title\n  main:           \"FAQ\"\n  change request: \"Questions\"")
    assert.strictEqual(renderConflict(deleted, plain), "c3  old  delete-edit\n  main:           deleted it\n  change request: edited it")
  })

  it("colours removed lines red and added lines green only when asked (a terminal)", () => {
    const shown = renderConflict(content, colored)
    assert.include(shown, "\u001b[31m- Run it.\u001b[39m")
    assert.include(shown, "\u001b[32m+ Run it with npm.\u001b[39m")
    assert.include(shown, "\u001b[2m  # Install\u001b[22m")
    assert.notInclude(renderConflict(content, plain), "\u001b[")
  })

  it("the hint names the command and the conflicts' ids", () => {
    assert.strictEqual(resolveHint("S", "3", [content]), "quire cr resolve S 3 --markdown c1=FILE.md")
    assert.strictEqual(resolveHint("S", "3", [content, title]), "quire cr resolve S 3 --main c1 --change-request c2")
  })
})

/** The refusal's message ("" when the choices were taken). */
const message = (result: ReturnType<typeof choose>) => (result.ok ? "" : result.message)

describe("quire cr resolve's choices", () => {
  const none = { main: [], changeRequest: [], markdown: {}, all: Option.none() } as const

  it("one choice per conflict, in the conflicts' order; --all fills the rest", () => {
    assert.deepStrictEqual(choose([content, title], { ...none, changeRequest: ["c2"], markdown: { c1: "a.md" } }), {
      ok: true,
      choices: [{ conflict: "c1", take: "markdown", file: "a.md" }, { conflict: "c2", take: "change-request" }]
    })
    assert.deepStrictEqual(choose([content, title, deleted], { ...none, main: ["c2"], all: Option.some("change-request") }), {
      ok: true,
      choices: [{ conflict: "c1", take: "change-request" }, { conflict: "c2", take: "main" }, { conflict: "c3", take: "change-request" }]
    })
  })

  it("refuses unknown ids, two choices for one conflict, markdown for metadata, and a conflict left out", () => {
    assert.strictEqual(message(choose([content], { ...none, main: ["c7"] })), "No conflict c7 on this change request (its conflicts: c1)")
    assert.strictEqual(message(choose([content], { ...none, main: ["c1"], changeRequest: ["c1"] })), "c1 is given more than one resolution")
    assert.match(message(choose([title], { ...none, markdown: { c2: "x.md" } })), /^--markdown resolves only content conflicts; c2 \(faq: metadata title\)/)
    assert.match(message(choose([content, title], { ...none, main: ["c1"] })), /^Without a resolution: c2 \(faq: metadata title\)/)
  })
})
