/** `cr apply` of a folder keeps the order its table of contents gives, as GitBook's import does. */
import { assert, describe, it } from "@effect/vitest"
import { NodeServices } from "@effect/platform-node"
import { Effect } from "effect"
import * as fs from "node:fs"
import * as os from "node:os"
import * as nodePath from "node:path"
import { linkTargets, readFolder, titleOfFolder } from "../src/Apply.ts"

const folderOf = (files: Record<string, string>) => {
  const dir = fs.mkdtempSync(nodePath.join(os.tmpdir(), "quire-apply-order-"))
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(nodePath.dirname(nodePath.join(dir, name)), { recursive: true })
    fs.writeFileSync(nodePath.join(dir, name), text)
  }
  return dir
}

const planOf = (files: Record<string, string>) =>
  readFolder(folderOf(files)).pipe(
    Effect.map((documents) => documents.map((document) => [document.path, document.fallbackTitle])),
    Effect.provide(NodeServices.layer)
  )

describe("cr apply's page order", () => {
  it("reads link targets in the order a reader meets them, relative ones only", () => {
    assert.deepStrictEqual(
      linkTargets("See [b](./b.md), [a](a.md#x), [site](https://x.io), [top](#top), [up](../c.md), [again](b.md)\n\n[ref]: <guides/install.md>\n<a href=\"z%20z.md\">z</a>"),
      ["b.md", "a.md", "guides/install.md", "z z.md"]
    )
  })

  it("orders a folder's pages as its README links them, the others after by name; the top README first", () =>
    Effect.gen(function*() {
      const plan = yield* planOf({
        "README.md": "# Home\n",
        "guide/README.md": "# Guide\n\n1. [Install](install.md)\n2. [Configure](configure.md)\n3. [Advanced](advanced/)\n",
        "guide/configure.md": "# Configure\n",
        "guide/install.md": "# Install\n",
        "guide/appendix.md": "# Appendix\n",
        "guide/advanced/tuning.md": "# Tuning\n"
      })
      assert.deepStrictEqual(plan.map(([path]) => path), [
        "readme", "guide", "guide/install", "guide/configure", "guide/advanced", "guide/advanced/tuning", "guide/appendix"
      ])
    }))

  it("follows a SUMMARY.md over the README, into subfolders, and never makes it a page", () =>
    Effect.gen(function*() {
      const plan = yield* planOf({
        "README.md": "# Home\n\n[Zeta](zeta.md) [Alpha](alpha.md)\n",
        "SUMMARY.md": "# Summary\n\n* [Home](README.md)\n* [Alpha](alpha.md)\n* [Reference](reference/README.md)\n  * [Second](reference/second.md)\n  * [First](reference/first.md)\n* [Zeta](zeta.md)\n",
        "alpha.md": "# Alpha\n",
        "zeta.md": "# Zeta\n",
        "reference/README.md": "# Reference\n",
        "reference/first.md": "# First\n",
        "reference/second.md": "# Second\n",
        "reference/SUMMARY.md": "* [Second](second.md)\n* [First](first.md)\n"
      })
      assert.deepStrictEqual(plan.map(([path]) => path), ["readme", "alpha", "reference", "reference/second", "reference/first", "zeta"])
    }))

  it("titles a folder without README after the folder, in title case", () =>
    Effect.gen(function*() {
      const plan = yield* planOf({ "getting-started/first_steps.md": "# First steps\n", "api_reference/v2/auth.md": "# Auth\n" })
      assert.deepStrictEqual(plan, [
        ["api_reference", "Api Reference"],
        ["api_reference/v2", "V2"],
        ["api_reference/v2/auth", "auth"],
        ["getting-started", "Getting Started"],
        ["getting-started/first_steps", "first_steps"]
      ])
      assert.strictEqual(titleOfFolder("release notes"), "Release Notes")
    }))
})
