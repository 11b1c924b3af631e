/**
 * A page moved or renamed by any write keeps the links to it working: the one write path
 * (RevisionWriter) rewrites them in the same revision, on memory, PostgreSQL and PGlite.
 */
import { assert } from "@effect/vitest"
import { Effect, Layer, Option } from "effect"
import { SqlTransactor } from "@quire/db"
import { Ids, Transactor } from "@quire/kernel"
import { Backends } from "@quire/testkit"
import { ContentLayers, MainObservers, migrations, ParsePool, RevisionsRepo, RevisionWriter, SpacesRepo } from "../src/index.ts"
import { documentHash, flattenPages, type PageNode } from "../src/domain/Revision.ts"
import { spaceHead } from "./contract/Fixtures.ts"

const writerOver = <A, E, R>(repos: Layer.Layer<A, E, R>) => RevisionWriter.layer.pipe(Layer.provideMerge(repos), Layer.provide([Ids.Ids.layer, ParsePool.layerMainThread, MainObservers.layerNone]))

const backends = Backends.make({
  memory: writerOver(Layer.merge(ContentLayers.layerReposMemory, Transactor.Transactor.layerMemory)),
  sql: () => writerOver(Layer.merge(ContentLayers.layerReposSql, SqlTransactor.layer)),
  migrations: [migrations]
})

const stamp = "2024-01-01T00:00:00.000Z"

/** A document page with its markdown (kept beside it for the first revision). */
const doc = (id: string, slug: string, markdown: string, pages: ReadonlyArray<PageNode> = []): PageNode & { markdown: string } => ({
  id,
  type: "document",
  title: slug,
  slug,
  document: documentHash(markdown),
  createdAt: stamp,
  updatedAt: stamp,
  pages,
  markdown
})

const documentsOf = (pages: ReadonlyArray<PageNode>) =>
  new Map(flattenPages(pages).flatMap(({ page }) => {
    const markdown = (page as { markdown?: string }).markdown
    return markdown === undefined ? [] : [[documentHash(markdown), markdown] as const]
  }))

/** A space on a first revision holding `pages`, and the head of its main content. */
const spaceWith = (id: string, pages: ReadonlyArray<PageNode>) => Effect.map(spaceHead(id, "org-moves", pages, documentsOf(pages)), ({ head }) => head)

/** The markdown of every document page of the space's current revision, by page id. */
const markdownNow = Effect.fnUntraced(function*(spaceId: string) {
  const space = Option.getOrThrow(yield* (yield* SpacesRepo).find(spaceId))
  const revisions = yield* RevisionsRepo
  const revision = Option.getOrThrow(yield* revisions.find(space.revisionId))
  const pages = flattenPages(revision.pages)
  const stored = yield* revisions.documents(pages.flatMap(({ page }) => page.document === undefined ? [] : [page.document]))
  return Object.fromEntries(pages.flatMap(({ page }) => page.document === undefined ? [] : [[page.id, stored.get(page.document)!]]))
})

/** Takes page `id` out of the tree, answering it and the rest. */
const takeOut = (pages: ReadonlyArray<PageNode>, id: string): { taken?: PageNode; rest: Array<PageNode> } => {
  let taken: PageNode | undefined
  const visit = (nodes: ReadonlyArray<PageNode>): Array<PageNode> =>
    nodes.flatMap((node) => {
      if (node.id === id) {
        taken = node
        return []
      }
      return [{ ...node, pages: visit(node.pages) }]
    })
  const rest = visit(pages)
  return taken === undefined ? { rest } : { taken, rest }
}

/** Moves page `id` under `parentId` with `slug`. */
const moveInto = (pages: ReadonlyArray<PageNode>, id: string, parentId: string, slug?: string): ReadonlyArray<PageNode> => {
  const { rest, taken } = takeOut(pages, id)
  const moved = { ...taken!, ...(slug === undefined ? {} : { slug }) }
  const visit = (nodes: ReadonlyArray<PageNode>): Array<PageNode> =>
    nodes.map((node) => node.id === parentId ? { ...node, pages: [...node.pages, moved] } : { ...node, pages: visit(node.pages) })
  return visit(rest)
}

/** A page as Git Sync imports it: with its file's blob and path. */
const withGit = (page: PageNode, path: string): PageNode => ({ ...page, git: { oid: `oid-${page.id}`, path } })

const rename = (pages: ReadonlyArray<PageNode>, id: string, slug: string): ReadonlyArray<PageNode> =>
  pages.map((node) => node.id === id ? { ...node, slug } : { ...node, pages: rename(node.pages, id, slug) })

const home = "# Home\n\nSee [setup](setup.md), [setup again](./setup.md#install), [by URL](/setup) and [by path](/pages/setup.md).\n\n" +
  "{% content-ref url=\"setup.md\" %}\n[setup.md](setup.md)\n{% endcontent-ref %}\n\nA [reference][s].\n\n[s]: setup.md\n\n" +
  "```md\n[not a link](setup.md)\n```\n\n<a href=\"setup.md\">html</a> and [the guide](guides/README.md).\n"
const setup = "# Setup\n\nBack [home](README.md), to [the guide](guides/README.md).\n\n![diagram](.gitbook/assets/flow.png)\n"

const tree = () => [
  doc("home", "home", home),
  doc("setup", "setup", setup),
  doc("guides", "guides", "# Guides\n\nStart with [setup](../setup.md).\n", [doc("intro", "intro", "# Intro\n\nSee [setup](../setup.md \"Setup\").\n")])
]

Backends.each(backends, (it) => {
  it.effect("moving a page rewrites the links to it, in every form, and its own relative links, in the same revision", () =>
    Effect.gen(function*() {
      const writer = yield* RevisionWriter
      const head = yield* spaceWith("mv-1", tree())
      const written = yield* writer.write(head, (parent) => Effect.succeed({ pages: moveInto(parent.pages, "setup", "guides") }))
      const now = yield* markdownNow("mv-1")
      assert.strictEqual(
        now.home,
        "# Home\n\nSee [setup](guides/setup.md), [setup again](./guides/setup.md#install), [by URL](/guides/setup) and [by path](/pages/guides/setup.md).\n\n" +
          "{% content-ref url=\"guides/setup.md\" %}\n[guides/setup.md](guides/setup.md)\n{% endcontent-ref %}\n\nA [reference][s].\n\n[s]: guides/setup.md\n\n" +
          "```md\n[not a link](setup.md)\n```\n\n<a href=\"guides/setup.md\">html</a> and [the guide](guides/README.md).\n"
      )
      // The moved page now lives in guides/: its relative links and images start there.
      assert.strictEqual(now.setup, "# Setup\n\nBack [home](../README.md), to [the guide](README.md).\n\n![diagram](../.gitbook/assets/flow.png)\n")
      assert.strictEqual(now.guides, "# Guides\n\nStart with [setup](setup.md).\n")
      assert.strictEqual(now.intro, "# Intro\n\nSee [setup](setup.md \"Setup\").\n")
      // One revision: the move and the links together.
      assert.strictEqual(written.revision.parents.length, 1)
    }))

  it.effect("moving a page rewrites a content reference however its tag is written, as the site reads it", () =>
    Effect.gen(function*() {
      const writer = yield* RevisionWriter
      const card = "# Cards\n\n{%- content-ref   url = 'setup.md' -%}\n[setup.md](setup.md)\n{% endcontent-ref %}\n"
      const head = yield* spaceWith("mv-tags", [...tree(), doc("cards", "cards", card)])
      yield* writer.write(head, (parent) => Effect.succeed({ pages: moveInto(parent.pages, "setup", "guides") }))
      assert.strictEqual(
        (yield* markdownNow("mv-tags")).cards,
        "# Cards\n\n{%- content-ref   url = 'guides/setup.md' -%}\n[guides/setup.md](guides/setup.md)\n{% endcontent-ref %}\n"
      )
    }))

  it.effect("renaming a page rewrites the links to it; a write that moves nothing leaves every link as written", () =>
    Effect.gen(function*() {
      const writer = yield* RevisionWriter
      const head = yield* spaceWith("mv-2", tree())
      yield* writer.write(head, (parent) => Effect.succeed({ pages: rename(parent.pages, "setup", "installation") }))
      const now = yield* markdownNow("mv-2")
      assert.include(now.home, "See [setup](installation.md), [setup again](./installation.md#install), [by URL](/installation)")
      assert.include(now.intro, "See [setup](../installation.md \"Setup\")")
      // A broken link nobody moved stays as it is.
      const broken = "# Broken\n\n[nowhere](nowhere.md)\n"
      yield* writer.write(head, (parent) =>
        Effect.succeed({ pages: [...parent.pages, doc("broken", "broken", broken)], documents: documentsOf([doc("broken", "broken", broken)]) }))
      assert.strictEqual((yield* markdownNow("mv-2")).broken, broken)
    }))

  it.effect("a write that points a link at the page now at the old place keeps that link; an untouched page's link follows its page", () =>
    Effect.gen(function*() {
      const writer = yield* RevisionWriter
      const head = yield* spaceWith("mv-3", tree())
      const edited = "# Home\n\nThe new [setup](setup.md).\n"
      yield* writer.write(head, (parent) => {
        const renamed = rename(parent.pages, "setup", "old-setup")
        const withNew = [...renamed.map((p) => p.id === "home" ? { ...p, document: documentHash(edited) } : p), doc("setup-2", "setup", "# New setup\n")]
        return Effect.succeed({ pages: withNew, documents: documentsOf([doc("home", "home", edited), doc("setup-2", "setup", "# New setup\n")]) })
      })
      const now = yield* markdownNow("mv-3")
      assert.strictEqual(now.home, edited)
      // guides/README.md was not edited: its link still means the page that was renamed.
      assert.strictEqual(now.guides, "# Guides\n\nStart with [setup](../old-setup.md).\n")
    }))

  it.effect("a Git import that moves a file (a new page with the same blob) rewrites the links to it", () =>
    Effect.gen(function*() {
      const writer = yield* RevisionWriter
      const head = yield* spaceWith("mv-4", tree().map((page) => page.id === "setup" ? withGit(page, "setup.md") : page))
      yield* writer.write(head, (parent) => {
        const { rest, taken } = takeOut(parent.pages, "setup")
        const imported: PageNode = { ...taken!, id: "setup-imported", slug: "install", git: { oid: taken!.git!.oid, path: "guides/install.md" } }
        return Effect.succeed({
          pages: rest.map((p) => p.id === "guides" ? { ...p, pages: [...p.pages, imported] } : p)
        })
      })
      const now = yield* markdownNow("mv-4")
      assert.include(now.home, "See [setup](guides/install.md)")
      assert.strictEqual(now.intro, "# Intro\n\nSee [setup](install.md \"Setup\").\n")
    }))

  it.effect("pages from Git: a moved file's links are written from file to file, and a page moved in the tree keeps links that still resolve by file", () =>
    Effect.gen(function*() {
      const writer = yield* RevisionWriter
      const home = withGit(doc("home", "home", "# Home\n\n[Install](docs/setup.md) and [intro](docs/intro.md).\n"), "README.md")
      const setupPage = withGit(doc("setup", "setup", "# Setup\n\nSee [intro](intro.md).\n"), "docs/setup.md")
      const intro = withGit(doc("intro", "introduction", "# Intro\n"), "docs/intro.md")
      const head = yield* spaceWith("mv-5", [home, setupPage, intro])
      // Moved in the tree only: its file, and so every relative link, stays.
      yield* writer.write(head, (parent) => Effect.succeed({ pages: moveInto(parent.pages, "setup", "intro") }))
      assert.deepStrictEqual(yield* markdownNow("mv-5"), {
        home: "# Home\n\n[Install](docs/setup.md) and [intro](docs/intro.md).\n",
        intro: "# Intro\n",
        setup: "# Setup\n\nSee [intro](intro.md).\n"
      })
      // A Git import of the file moved to guides/install.md: a new page with the same blob.
      yield* writer.write(head, (parent) => {
        const { rest, taken } = takeOut(parent.pages, "setup")
        const imported: PageNode = { ...taken!, id: "setup-git", slug: "install", git: { oid: taken!.git!.oid, path: "guides/install.md" } }
        return Effect.succeed({ pages: [...rest, imported] })
      })
      const now = yield* markdownNow("mv-5")
      assert.strictEqual(now.home, "# Home\n\n[Install](guides/install.md) and [intro](docs/intro.md).\n")
      assert.strictEqual(now["setup-git"], "# Setup\n\nSee [intro](../docs/intro.md).\n")
    }))
})
