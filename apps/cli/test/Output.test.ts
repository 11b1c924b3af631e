/** Tables and sizes as the CLI prints them for people. */
import { assert, describe, it } from "@effect/vitest"
import type { RevisionPage } from "@quire/api"
import { flatten, pageColumns } from "../src/Content.ts"
import { bytes, cut, table, terminalWidth } from "../src/Output.ts"

const page = (path: string, title: string, pages: ReadonlyArray<RevisionPage> = []): RevisionPage =>
  ({ id: `id-${path.replaceAll("/", "-")}`.slice(0, 20), path, title, kind: "sheet", type: "document", pages } as unknown as RevisionPage)

describe("Output", () => {
  it("prints sizes as people read them", () => {
    assert.deepStrictEqual([0, 812, 1024, 14_540, 3_250_000, 5 * 1024 ** 3].map(bytes), ["0 B", "812 B", "1.0 KB", "14 KB", "3.1 MB", "5.0 GB"])
  })

  it("cuts text to a width with an ellipsis where text was left out", () => {
    assert.strictEqual(cut("guides/install/linux", 12, "start"), "…stall/linux")
    assert.strictEqual(cut("A very long title", 8, "end"), "A very …")
    assert.strictEqual(cut("short", 8, "end"), "short")
  })

  it("fits a deep page tree into 100 columns, cutting paths at the start and titles at the end, ids whole", () => {
    const deep = "reference/api/v2/organizations/members/invitations/accepting-an-invitation-from-a-link"
    const tree = [page("reference", "Reference", [page(deep, "Accepting an invitation to an organization from a link someone sent you")])]
    const printed = table(pageColumns, flatten(tree), terminalWidth)
    const lines = printed.split("\n")
    for (const line of lines) assert.isAtMost(line.length, terminalWidth, line)
    assert.match(lines[0]!, /^PATH\s+TITLE\s+KIND\s+ID$/)
    assert.match(lines[2]!, /^…[a-z-]*-invitation-from-a-link\s+Accepting an invitation to .*…\s+sheet\s+id-reference-api-v2-$/)
    // Without a width nothing is cut.
    assert.include(table(pageColumns, flatten(tree)), deep)
  })
})
