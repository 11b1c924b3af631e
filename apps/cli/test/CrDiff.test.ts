/** How `quire cr diff` shows a change request's changes: the list, then each edited page's diff, coloured only on a terminal. */
import { assert, describe, it } from "@effect/vitest"
import type { RevisionSemanticChanges } from "@quire/api"
import { colored, plain } from "../src/ConflictDiff.ts"
import { renderChanges } from "../src/commands/CrDiffCommand.ts"

const changes: RevisionSemanticChanges = {
  changes: [
    { type: "page_created", page: { id: "p1", type: "document", title: "Install", path: "guides/install" } },
    {
      type: "page_edited",
      page: { id: "p2", type: "document", title: "Setup", path: "guides/setup" },
      attributes: { title: { before: "Set up", after: "Setup" }, document: { before: "a", after: "b" } },
      diff: "--- a/guides/setup.md\n+++ b/guides/setup.md\n@@ -1,2 +1,2 @@\n Intro.\n-Use apt.\n+Use brew.\n"
    },
    {
      type: "page_moved",
      page: { id: "p3", type: "document", title: "FAQ", path: "guides/faq" },
      parent: { after: { id: "g", type: "document", title: "Guides", path: "guides" } }
    },
    { type: "page_deleted", page: { id: "p4", type: "document", title: "Old", path: "old" } },
    { type: "file_created", file: { id: "f", name: "logo.png", contentType: "image/png", downloadURL: "http://x/files/t" } }
  ],
  more: 2
}

describe("quire cr diff", () => {
  it("lists the changes, then the diff of each edited page", () => {
    const text = renderChanges(changes, plain)
    assert.strictEqual(
      text,
      [
        "5 changes:",
        "  + page     guides/install (Install)",
        "  ~ page     guides/setup (Setup)  [title, document]",
        "  > page     guides/faq (FAQ)  from the top level to guides",
        "  - page     old (Old)",
        "  + file     logo.png",
        "  ... and 2 more",
        "",
        "--- a/guides/setup.md",
        "+++ b/guides/setup.md",
        "@@ -1,2 +1,2 @@",
        " Intro.",
        "-Use apt.",
        "+Use brew."
      ].join("\n")
    )
    assert.notInclude(text, "\u001b[")
    assert.strictEqual(renderChanges({ changes: [] }, plain), "No changes.")
  })

  it("colours removed lines red and added lines green on a terminal", () => {
    const text = renderChanges(changes, colored)
    assert.include(text, "\u001b[31m-Use apt.\u001b[39m")
    assert.include(text, "\u001b[32m+Use brew.\u001b[39m")
    assert.include(text, "\u001b[1m--- a/guides/setup.md\u001b[22m")
    assert.include(text, " Intro.")
  })
})
