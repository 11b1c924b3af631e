/**
 * The behaviour every ImportedLayoutRepo adapter must have: a space's layout kept byte for byte
 * (any bytes, any path), replaced whole, removed alone, and writes that roll back with their transaction.
 */
import { assert, describe, type Vitest } from "@effect/vitest"
import { Effect, Exit, Option } from "effect"
import { Transactor } from "@quire/kernel"
import { type ImportedLayout, ImportedLayoutRepo } from "../../src/ImportedLayoutRepo.ts"

/** The test registrar of a backend's shared layer. */
export type ImportedLayoutRepoTest = Vitest.MethodsNonLive<ImportedLayoutRepo | Transactor.Transactor>

class Abort {
  readonly _tag = "Abort"
}

const encoder = new TextEncoder()

const layout = (commit: string, files: Record<string, string | Uint8Array>, projectDirectory = ""): ImportedLayout => ({
  projectDirectory,
  commit,
  files: new Map(Object.entries(files).map(([path, value]) => [path, { oid: `oid-${path}`, bytes: typeof value === "string" ? encoder.encode(value) : value }]))
})

/** A layout as plain data, to compare (paths in order, bytes as arrays). */
const plain = (found: Option.Option<ImportedLayout>) =>
  Option.map(found, (l) => ({
    projectDirectory: l.projectDirectory,
    commit: l.commit,
    files: [...l.files].toSorted(([a], [b]) => (a < b ? -1 : 1)).map(([path, f]) => [path, f.oid, Array.from(f.bytes)])
  }))

export const importedLayoutRepoContract = (it: ImportedLayoutRepoTest) =>
  describe("ImportedLayoutRepo", () => {
    it.effect("reads the header and one file of a layout without the others", () =>
      Effect.gen(function*() {
        const repo = yield* ImportedLayoutRepo
        assert.isTrue(Option.isNone(yield* repo.header("il-one")))
        assert.isTrue(Option.isNone(yield* repo.file("il-one", ".gitbook.yaml")))
        yield* repo.save("il-one", layout("c".repeat(40), { "site/.gitbook.yaml": "redirects:\n  old: new.md\n", "site/new.md": "# New\n" }, "site"))
        assert.deepStrictEqual(Option.getOrUndefined(yield* repo.header("il-one")), { projectDirectory: "site", commit: "c".repeat(40) })
        const file = Option.getOrUndefined(yield* repo.file("il-one", "site/.gitbook.yaml"))
        assert.strictEqual(file?.oid, "oid-site/.gitbook.yaml")
        assert.strictEqual(new TextDecoder().decode(file?.bytes), "redirects:\n  old: new.md\n")
        assert.isTrue(Option.isNone(yield* repo.file("il-one", ".gitbook.yaml")))
        assert.isTrue(Option.isNone(yield* repo.file("il-other", "site/.gitbook.yaml")))
      }))

    it.effect("keeps a layout's files byte for byte and replaces the layout whole", () =>
      Effect.gen(function*() {
        const repo = yield* ImportedLayoutRepo
        assert.isTrue(Option.isNone(yield* repo.find("il-space-1")))
        const first = layout("a".repeat(40), {
          "docs/.gitbook.yaml": "root: ./content/\n",
          "docs/content/SUMMARY.md": "# Table of contents\n\n* [Welcome](README.md)\n",
          "docs/content/Getting Started/Ａ😀 page.md": "---\ndescription: >-\n  Folded\n---\n\n# Ａ😀\r\n\r\n",
          "docs/content/.gitbook/tags.yaml": new Uint8Array([0, 255, 10, 13, 0x80]),
          "docs/content/empty.md": ""
        }, "docs")
        yield* repo.save("il-space-1", first)
        assert.deepStrictEqual(plain(yield* repo.find("il-space-1")), plain(Option.some(first)))
        const second = layout("b".repeat(40), { "README.md": "# Home\n" })
        yield* repo.save("il-space-1", second)
        assert.deepStrictEqual(plain(yield* repo.find("il-space-1")), plain(Option.some(second)))
        assert.isTrue(Option.isNone(yield* repo.find("il-space-1 ")))
      }))

    it.effect("removes one space's layout and no other", () =>
      Effect.gen(function*() {
        const repo = yield* ImportedLayoutRepo
        yield* repo.save("il-space-2", layout("c".repeat(40), { "README.md": "# Two\n" }))
        yield* repo.save("il-space-2b", layout("d".repeat(40), { "README.md": "# Two b\n" }))
        yield* repo.remove("il-space-2")
        yield* repo.remove("il-space-none")
        assert.isTrue(Option.isNone(yield* repo.find("il-space-2")))
        assert.isTrue(Option.isSome(yield* repo.find("il-space-2b")))
      }))

    it.effect("keeps a thousand files in one save", () =>
      Effect.gen(function*() {
        const repo = yield* ImportedLayoutRepo
        const files = Object.fromEntries(Array.from({ length: 1_200 }, (_, i) => [`pages/page-${i}.md`, `# Page ${i}\n`]))
        yield* repo.save("il-space-3", layout("e".repeat(40), files))
        const found = Option.getOrThrow(yield* repo.find("il-space-3"))
        assert.strictEqual(found.files.size, 1_200)
        assert.strictEqual(new TextDecoder().decode(found.files.get("pages/page-1199.md")?.bytes), "# Page 1199\n")
      }))

    it.effect("rolls back every write of a failed transaction", () =>
      Effect.gen(function*() {
        const repo = yield* ImportedLayoutRepo
        const transactor = yield* Transactor.Transactor
        const kept = layout("f".repeat(40), { "README.md": "# Kept\n" })
        yield* repo.save("il-space-4", kept)
        const aborted = yield* Effect.exit(transactor.transaction(Effect.gen(function*() {
          yield* repo.save("il-space-4", layout("0".repeat(40), { "README.md": "# Replaced\n" }))
          yield* repo.save("il-space-4b", layout("1".repeat(40), { "README.md": "# New\n" }))
          yield* repo.remove("il-space-4")
          return yield* Effect.fail(new Abort())
        })))
        assert.isTrue(Exit.isFailure(aborted))
        assert.deepStrictEqual(plain(yield* repo.find("il-space-4")), plain(Option.some(kept)))
        assert.isTrue(Option.isNone(yield* repo.find("il-space-4b")))
      }))
  })
