import { assert, describe, it } from "@effect/vitest"
import { linkResolver, type LinkStatus, type LinkTarget } from "@quire/markdown"
import { type FileNode, flattenPages, type PageNode, type Revision } from "../src/domain/Revision.ts"
import { buildGraph, decodeGraph, encodeGraph, type LinkGraph, linkItems, pageLinkContext, revisionLinkIndex } from "../src/ContentLinks.ts"

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
    assert.deepStrictEqual(graph.pageBacklinks("nodes"), ["setup", "fresh"])
    assert.deepStrictEqual(graph.fileBacklinks("f-rig"), ["setup"])
  })
})

type Link = { readonly url: string; readonly kind: "link" | "image" }
const random = (seed: number) => () => {
  seed = (seed * 1103515245 + 12345) % 2147483648
  return seed / 2147483648
}
const push = (map: Map<string, Array<string>>, key: string, value: string) => {
  const list = map.get(key) ?? []
  if (list.at(-1) !== value) list.push(value)
  map.set(key, list)
}
const targetKey = (target: LinkTarget) => JSON.stringify({ ...target, anchor: undefined })

// The graph resolves a link that reads alike on every page once and keeps no object per link: it
// must answer what resolving every link of every page on its own answers.

/** A tree of groups and pages, some from Git (their file elsewhere than the tree says), with covers and links of every form. */
const generated = (seed: number) => {
  const next = random(seed)
  const pick = <A>(list: ReadonlyArray<A>): A => list[Math.floor(next() * list.length)]!
  const files: Array<FileNode> = [
    file("f-rig", "rig.png", "mining/images/rig.png"),
    file("f-shot", "image (3).png", ".gitbook/assets/image (3).png"),
    { id: "f-plain", name: "plain.pdf", contentType: "application/pdf", size: 1, blob: "b" } as unknown as FileNode
  ]
  const ids: Array<string> = []
  const paths: Array<string> = []
  const documents = new Map<string, ReadonlyArray<Link>>()
  const make = (depth: number, base: string, count: number): Array<PageNode> =>
    Array.from({ length: count }, (_, i) => {
      const id = `p${ids.length}`
      ids.push(id)
      const slug = `s${i}`
      const path = base === "" ? slug : `${base}/${slug}`
      paths.push(path)
      const git = next() < 0.6 ? `${pick(["docs", "mining/setup", "mining/overview", ""])}/${pick(["a", "b", "README"])}${i}.md`.replace(/^\//, "") : undefined
      const children = depth < 2 && next() < 0.4 ? make(depth + 1, path, 1 + Math.floor(next() * 3)) : []
      const cover = next() < 0.1 ? { cover: { ref: { kind: "file", file: pick(["f-rig", "f-gone"]) } } } : {}
      const node = { ...page(id, slug, git, children), ...cover } as PageNode
      documents.set(`doc-${id}`, [])
      return node
    })
  const pages = make(0, "", 12)
  const forms = (): Link => {
    const target = pick(ids)
    const somePath = pick(paths)
    return pick<Link>([
      { url: `/pages/${target}`, kind: "link" },
      { url: `/pages/${target}#part`, kind: "link" },
      { url: `/pages/${somePath}`, kind: "link" },
      { url: `/pages/${somePath}.md#x`, kind: "link" },
      { url: `${somePath.split("/").at(-1)}.md`, kind: "link" },
      { url: `../${somePath}`, kind: "link" },
      { url: `./${pick(["a", "b", "README"])}${Math.floor(next() * 3)}.md`, kind: "link" },
      { url: `../overview/${pick(["a", "b"])}0.md?x=1#y`, kind: "link" },
      { url: "README.md", kind: "link" },
      { url: "", kind: "link" },
      { url: "#only-an-anchor", kind: "link" },
      { url: "mailto:someone@example.com", kind: "link" },
      { url: `https://example.com/${Math.floor(next() * 4)}`, kind: "link" },
      { url: "https://app.example.com/o/x/s/y", kind: "link" },
      { url: "//cdn.example.com/x.js", kind: "link" },
      { url: "/files/f-rig", kind: pick(["link", "image"]) },
      { url: "/files/f-gone", kind: "image" },
      { url: "/.gitbook/assets/image (3).png", kind: "image" },
      { url: "<../.gitbook/assets/image (3).png>", kind: "image" },
      { url: "../images/rig.png", kind: pick(["link", "image"]) },
      { url: "images/missing.png", kind: "image" },
      { url: "/pages/%70%30", kind: "link" },
      { url: "f-plain", kind: "image" }
    ])
  }
  for (const id of ids) if (next() < 0.85) documents.set(`doc-${id}`, Array.from({ length: Math.floor(next() * 8) }, forms))
  const revision = { id: `r${seed}`, spaceId: "s1", parents: [], type: "edits", createdAt: at, variables: {}, pages, files } as unknown as Revision
  return { revision, documents, ids, fileIds: [...files.map((f) => f.id), "f-gone"] }
}

/** What the graph answers, computed as it was before the graph kept anything: each link resolved on its page, items kept by target. */
const expected = (revision: Revision, documents: ReadonlyMap<string, ReadonlyArray<Link>>, appBaseUrl: string) => {
  const index = revisionLinkIndex(revision)
  const links: Array<{ pageId: string; url: string; target: LinkTarget; status: LinkStatus }> = []
  const pageBacklinks = new Map<string, Array<string>>()
  const fileBacklinks = new Map<string, Array<string>>()
  for (const { page, path } of index.entries) {
    if (page.cover?.ref.kind === "file" && index.fileIds.has(page.cover.ref.file)) push(fileBacklinks, page.cover.ref.file, page.id)
    if (page.document === undefined) continue
    const resolve = linkResolver(pageLinkContext(index, page, path, appBaseUrl))
    for (const link of documents.get(page.document) ?? []) {
      const resolution = resolve(link)
      if (resolution === undefined) continue
      links.push({ pageId: page.id, url: link.url, ...resolution })
      if (resolution.status !== "ok") continue
      const target = resolution.target
      if (target.kind === "page" && "page" in target && target.page !== page.id) push(pageBacklinks, target.page, page.id)
      if (target.kind === "file") push(fileBacklinks, target.file, page.id)
    }
  }
  const itemsOf = (list: typeof links) => {
    const items = new Map<string, { status: LinkStatus; target: LinkTarget; url: string; locations: Array<string> }>()
    for (const link of list) {
      const item = items.get(targetKey(link.target))
      if (item === undefined) {
        const { anchor: _anchor, ...target } = link.target as LinkTarget & { anchor?: string }
        items.set(targetKey(link.target), { status: link.status, target: target as LinkTarget, url: link.url, locations: [link.pageId] })
      } else if (item.locations.at(-1) !== link.pageId) item.locations.push(link.pageId)
    }
    return Array.from(items.values())
  }
  return { links, pageBacklinks, fileBacklinks, itemsOf }
}

/** Asserts that `graph` answers what resolving every link of every page on its own answers. */
const assertAnswers = (graph: LinkGraph, made: ReturnType<typeof generated>, appBaseUrl: string, seed: number) => {
  const { revision, documents, ids, fileIds } = made
  const want = expected(revision, documents, appBaseUrl)
  const items = want.itemsOf(want.links)
  assert.deepStrictEqual(linkItems(graph), items, `seed ${seed}`)
  assert.strictEqual(graph.broken, items.filter((item) => item.status === "broken").length)
  for (const id of [...ids, "not-a-page"]) {
    const own = want.links.filter((link) => link.pageId === id)
    assert.deepStrictEqual(linkItems(graph, id), want.itemsOf(own), `seed ${seed}, items of ${id}`)
    assert.deepStrictEqual(graph.pageBacklinks(id), want.pageBacklinks.get(id) ?? [], `seed ${seed}, backlinks of ${id}`)
  }
  for (const id of fileIds) assert.deepStrictEqual(graph.fileBacklinks(id), want.fileBacklinks.get(id) ?? [], `seed ${seed}, backlinks of ${id}`)
  assert.deepStrictEqual(Array.from(graph.pages.keys()), flattenPages(revision.pages).map(({ page }) => page.id))
}

describe("buildGraph against every link resolved on its own page", () => {
  it("answers the same items, page links, page items and backlinks", () => {
    for (let seed = 1; seed <= 40; seed++) {
      const made = generated(seed)
      const appBaseUrl = "https://app.example.com/o/x"
      assertAnswers(buildGraph(made.revision, made.documents, appBaseUrl), made, appBaseUrl, seed)
    }
  })

  it("answers the same once stored and read back, and a graph of other pages is not read back", () => {
    for (let seed = 1; seed <= 40; seed++) {
      const made = generated(seed)
      const appBaseUrl = "https://app.example.com/o/x"
      const text = encodeGraph(buildGraph(made.revision, made.documents, appBaseUrl))!
      const decoded = decodeGraph(made.revision, text)
      assert.isDefined(decoded, `seed ${seed}`)
      assertAnswers(decoded!, made, appBaseUrl, seed)
      // Read back against another tree (its pages otherwise named), or cut short: built again instead.
      const other = generated(seed + 1000)
      const renamed = { ...other.revision, pages: other.revision.pages.map((page) => ({ ...page, id: `x-${page.id}` })) }
      if (decoded!.items.length > 0) assert.isUndefined(decodeGraph(renamed, text), `seed ${seed}, other pages`)
      assert.isUndefined(decodeGraph(made.revision, text.slice(0, -2)), `seed ${seed}, cut short`)
    }
  })

  it("keeps a link written otherwise than its target's first link, and links with a space or a non-ASCII character", () => {
    const graph = buildGraph(revision, new Map([
      ["doc-setup", [{ url: "../overview/node-types.md#top", kind: "link" as const }, { url: "https://example.com/é 𝄞", kind: "link" as const }]],
      ["doc-fresh", [{ url: "./node-types.md", kind: "link" as const }, { url: "<../.gitbook/assets/image (3).png>", kind: "image" as const }]]
    ]), "https://app.example.com")
    const decoded = decodeGraph(revision, encodeGraph(graph)!)!
    for (const pageId of ["setup", "fresh", undefined]) assert.deepStrictEqual(linkItems(decoded, pageId), linkItems(graph, pageId))
    assert.deepStrictEqual(linkItems(decoded, "fresh").map((item) => item.url), ["./node-types.md", "<../.gitbook/assets/image (3).png>"])
    assert.deepStrictEqual(decoded.pageBacklinks("nodes"), ["setup", "fresh"])
  })
})
