import { assert, describe, it } from "@effect/vitest"
import type { FileNode, PageNode, Revision } from "../src/domain/Revision.ts"
import { buildGraph, linkItems } from "../src/ContentLinks.ts"

const at = "2026-01-01T00:00:00.000Z"
const page = (id: string, slug: string, git: string | undefined, pages: ReadonlyArray<PageNode> = []): PageNode => ({
  id, type: "document", title: id, slug, document: `doc-${id}`, createdAt: at, updatedAt: at, pages,
  ...(git === undefined ? {} : { git: { oid: "0", path: git } })
})
const file = (id: string, name: string, git: string): FileNode => ({ id, name, contentType: "image/png", size: 1, blob: "b", git: { oid: "0", path: git } })

// SUMMARY.md put the setup guide under "Get started" (a group), while its file lives in mining/setup/.
const revision: Revision = {
  id: "r1", spaceId: "s1", parents: [], type: "edits", createdAt: at, variables: {},
  pages: [
    page("home", "home", "README.md"),
    { id: "g", type: "group", title: "Get started", slug: "getting-started", createdAt: at, updatedAt: at, pages: [page("setup", "setup", "mining/setup/getting-started.md")] },
    page("nodes", "node-types", "mining/overview/node-types.md"),
    page("fresh", "fresh", undefined)
  ],
  files: [file("f-rig", "rig.png", "mining/images/rig.png"), file("f-shot", "image (3).png", ".gitbook/assets/image (3).png")]
} as unknown as Revision

describe("ContentLinks over pages imported from Git", () => {
  it("counts relative links and images from a page's file as fine, and sees the backlinks", () => {
    const graph = buildGraph(revision, new Map([
      ["doc-setup", [
        { url: "../overview/node-types.md", kind: "link" as const },
        { url: "../images/rig.png", kind: "image" as const },
        { url: "/.gitbook/assets/image (3).png", kind: "image" as const },
        { url: "../images/missing.png", kind: "image" as const }
      ]],
      // A page written in Quire links from its place in the tree.
      ["doc-fresh", [{ url: "node-types.md", kind: "link" as const }]]
    ]), "https://app.example.com")
    const items = linkItems(graph)
    assert.deepStrictEqual(items.map((item) => [item.url, item.status]), [
      ["../overview/node-types.md", "ok"],
      ["../images/rig.png", "ok"],
      ["/.gitbook/assets/image (3).png", "ok"],
      ["../images/missing.png", "broken"]
    ])
    assert.deepStrictEqual(graph.pageBacklinks.get("nodes"), ["setup", "fresh"])
    assert.deepStrictEqual(graph.fileBacklinks.get("f-rig"), ["setup"])
  })
})
