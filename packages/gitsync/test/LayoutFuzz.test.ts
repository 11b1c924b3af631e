import { Result } from "effect"
import { assert, it } from "vitest"
import { readRepository, type RepoPage, type RepositoryFiles, writeRepository } from "../src/layout/Layout.ts"

// Repositories glued from pieces of GitBook's layout and of broken markdown and YAML.
const pieces = [
  "---\n", "# T\n", "* [a](a.md)\n", "  * [b](b/README.md)\n", "## G\n", "***\n", "- [x](<y z.md>)\n", "\n", "layout: 3\n",
  "cover: ../.gitbook/assets/a b.png\n", "[", "](", ")", "<a href=\"#x\" id=\"x\"></a>", "\r\n", "description: >-\n  x\n",
  "{% hint %}\n", "\t* [t](t.md)\n", "* [u](https://u)\n", "* [v](../v.md)\n", "* [w]()\n", "title: x\n", "&a x\n*a\n", "...\n", "# \n",
  "hidden: true\n", "icon: x\n", "![](.gitbook/assets/a b.png)\n", "[c](b/c.md)\n"
]
const names = ["README.md", "SUMMARY.md", "a.md", "b/README.md", "b/c.md", "y z.md", "t.md", ".gitbook.yaml", ".gitbook/assets/a b.png", "v.md"]

const encoder = new TextEncoder()
const dump = (files: RepositoryFiles) => JSON.stringify([...files].map(([path, file]) => [path, new TextDecoder().decode(file.bytes)]))
const shape = (pages: ReadonlyArray<RepoPage>): unknown =>
  pages.map((p) => [p.kind, p.title, p.kind === "document" ? p.markdown : "", shape(p.children)])

it("never throws, changes nothing without edits, and reads back what it wrote", () => {
  let seed = 7
  const random = (n: number) => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648
    return seed % n
  }
  let checked = 0
  for (let i = 0; i < 600; i++) {
    const files = new Map<string, { oid: string; bytes: Uint8Array }>()
    for (const name of names) {
      if (random(3) === 0) continue
      let text = ""
      for (let k = random(8); k > 0; k--) text += pieces[random(pieces.length)]
      files.set(name, { oid: `${i}-${name}`, bytes: encoder.encode(text) })
    }
    const read = readRepository(files)
    if (Result.isFailure(read)) continue
    const unchanged = writeRepository(read.success, files)
    assert.isTrue(Result.isSuccess(unchanged) && unchanged.success.changes.size === 0, `changes without edits: ${dump(files)}`)
    const pages: Array<RepoPage> = [
      ...read.success.pages.map((p) => ({ ...p, title: `${p.title}!`, slug: `${p.slug}-x` })),
      { kind: "document", title: "New", slug: "new", markdown: "x\n", children: [] }
    ]
    const edited = writeRepository({ ...read.success, pages }, files)
    if (Result.isFailure(edited)) throw new Error(`${edited.failure.message}: ${dump(files)}`)
    const after = new Map(files)
    for (const [path, bytes] of edited.success.changes) {
      if (bytes === null) after.delete(path)
      else after.set(path, { oid: "new", bytes })
    }
    const again = readRepository(after)
    if (Result.isFailure(again)) throw new Error(`unreadable after a write: ${again.failure.message}: ${dump(after)}`)
    assert.deepStrictEqual(shape(again.success.pages), shape(pages), dump(after))
    const stable = writeRepository(again.success, after)
    assert.isTrue(Result.isSuccess(stable) && stable.success.changes.size === 0, `unstable: ${dump(after)}`)
    checked++
  }
  assert.isAbove(checked, 500)
})
