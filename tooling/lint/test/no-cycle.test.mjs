// The shared lint config refuses an import cycle, type-only imports included: a facade and its
// job modules must share their shapes through a module of their own.
import { spawnSync } from "node:child_process"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll as after, test } from "vitest"
import assert from "node:assert/strict"

const here = new URL("..", import.meta.url).pathname
const oxlint = join(here, "node_modules", ".bin", "oxlint")
const config = join(here, "oxlintrc.json")
const folders = []
after(() => folders.forEach((folder) => rmSync(folder, { recursive: true, force: true })))

/** Lints a folder holding `files`; answers the exit status and the report. */
const lint = (files) => {
  const folder = mkdtempSync(join(tmpdir(), "quire-no-cycle-"))
  folders.push(folder)
  for (const [name, text] of Object.entries(files)) writeFileSync(join(folder, name), text)
  const run = spawnSync(oxlint, ["-c", config, folder], { encoding: "utf8" })
  return { status: run.status, report: run.stdout + run.stderr }
}

test("a facade that imports its job module, which imports a type back from it, fails the lint", () => {
  const { status, report } = lint({
    "Things.ts": 'import { create } from "./Create.ts"\nexport interface CreateInput { readonly title: string }\nexport const things = { create }\n',
    "Create.ts": 'import type { CreateInput } from "./Things.ts"\nexport const create = (input: CreateInput) => input.title\n'
  })
  assert.equal(status, 1)
  assert.match(report, /import\(no-cycle\)/)
  assert.match(report, /Things\.ts/)
})

test("two modules that import only types from each other fail the lint", () => {
  const { status, report } = lint({
    "A.ts": 'import type { B } from "./B.ts"\nexport interface A { readonly b: B }\n',
    "B.ts": 'import type { A } from "./A.ts"\nexport interface B { readonly a?: A }\n'
  })
  assert.equal(status, 1)
  assert.match(report, /import\(no-cycle\)/)
})

test("the shared shapes in a module of their own pass", () => {
  const { status, report } = lint({
    "ThingTypes.ts": "export interface CreateInput { readonly title: string }\n",
    "Things.ts": 'import { create } from "./Create.ts"\nexport type { CreateInput } from "./ThingTypes.ts"\nexport const things = { create }\n',
    "Create.ts": 'import type { CreateInput } from "./ThingTypes.ts"\nexport const create = (input: CreateInput) => input.title\n'
  })
  assert.equal(status, 0, report)
  assert.doesNotMatch(report, /no-cycle/)
})
