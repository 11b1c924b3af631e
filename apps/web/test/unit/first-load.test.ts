import { existsSync, readFileSync } from "node:fs"
import { dirname, join, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"

// What the first load of the app carries is what `src/main.tsx` reaches by static imports: the
// editor (TipTap, ProseMirror), live editing (Yjs, the socket) and KaTeX load with the screens that
// use them. One import of a package's root from a shared screen once put all of them in the first
// load (351 KB of JavaScript against the 300 KB goal), and only the web bench noticed.

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "../../../..")

/** A workspace package's file for `spec` (`@quire/<name>[/<subpath>]`), read from its exports. */
const workspaceFile = (spec: string): string | undefined => {
  const match = /^@quire\/([^/]+)(\/.*)?$/.exec(spec)
  if (match === null) return undefined
  const dir = join(repo, "packages", match[1]!)
  if (!existsSync(join(dir, "package.json"))) return undefined
  const exports = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")).exports as Record<string, string> | string
  const target = typeof exports === "string" ? (match[2] === undefined ? exports : undefined) : exports[match[2] === undefined ? "." : `.${match[2]}`]
  return target === undefined ? undefined : join(dir, target)
}

// `import x from "m"`, `import "m"`, `export * from "m"`; not `import type`, not `import("m")`.
const staticImport = /^\s*(?:import|export)\s+(?!type\b)(?:[^'";]*?\sfrom\s+)?["']([^"']+)["']/gm

/** Every bare specifier reached from `entry` by static imports, with the file that imports it. */
const reachedPackages = (entry: string): Map<string, string> => {
  const seen = new Set<string>()
  const packages = new Map<string, string>()
  const visit = (file: string): void => {
    if (seen.has(file)) return
    seen.add(file)
    for (const [, spec] of readFileSync(file, "utf8").matchAll(staticImport)) {
      if (spec!.startsWith(".")) visit(resolve(dirname(file), spec!))
      else {
        const local = workspaceFile(spec!)
        if (!packages.has(spec!)) packages.set(spec!, file.slice(repo.length + 1))
        if (local !== undefined) visit(local)
      }
    }
  }
  visit(entry)
  return packages
}

describe("the app's first load", () => {
  it("carries neither the editor, nor live editing, nor KaTeX", () => {
    const reached = reachedPackages(join(repo, "apps/web/src/main.tsx"))
    expect(reached.has("react-dom/client")).toBe(true)
    const heavy = [...reached].filter(([spec]) => /^(@tiptap\/|prosemirror-|yjs$|y-|@hocuspocus\/|katex|@quire\/document$)/.test(spec))
    expect(heavy.map(([spec, file]) => `${spec} (imported by ${file})`)).toEqual([])
  })
})
