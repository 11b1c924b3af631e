/** bin/fresh.mjs: when `./quire` runs the bundle rather than the sources. */
import { assert, describe, it } from "@effect/vitest"
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
// @ts-expect-error: a plain JavaScript module of the launcher, without types.
import { bundleIsFresh } from "../bin/fresh.mjs"

const isFresh = bundleIsFresh as (root: string) => boolean

/** A checkout with a source file and, built at `builtAt` (seconds), dist/quire.mjs listing it. */
const checkout = (builtAt: number, sourceAt: number) => {
  const root = mkdtempSync(join(tmpdir(), "quire-fresh-"))
  mkdirSync(join(root, "dist"))
  mkdirSync(join(root, "src"))
  writeFileSync(join(root, "src/main.ts"), "")
  writeFileSync(join(root, "dist/quire.mjs"), "")
  writeFileSync(join(root, "dist/quire.inputs.json"), JSON.stringify(["src/main.ts"]))
  utimesSync(join(root, "src/main.ts"), sourceAt, sourceAt)
  utimesSync(join(root, "dist/quire.mjs"), builtAt, builtAt)
  return root
}

describe("bin/fresh.mjs", () => {
  it("the bundle runs when no input is newer than it", () => {
    const root = checkout(2_000_000_000, 1_900_000_000)
    try {
      assert.isTrue(isFresh(root))
    } finally {
      rmSync(root, { recursive: true, force: true })
    }
  })

  it("an input edited after the build, a missing input, a missing list or bundle: the sources run", () => {
    const edited = checkout(1_900_000_000, 2_000_000_000)
    const gone = checkout(2_000_000_000, 1_900_000_000)
    const unlisted = checkout(2_000_000_000, 1_900_000_000)
    const unbuilt = checkout(2_000_000_000, 1_900_000_000)
    try {
      assert.isFalse(isFresh(edited))
      rmSync(join(gone, "src/main.ts"))
      assert.isFalse(isFresh(gone))
      rmSync(join(unlisted, "dist/quire.inputs.json"))
      assert.isFalse(isFresh(unlisted))
      rmSync(join(unbuilt, "dist/quire.mjs"))
      assert.isFalse(isFresh(unbuilt))
    } finally {
      for (const root of [edited, gone, unlisted, unbuilt]) rmSync(root, { recursive: true, force: true })
    }
  })
})
