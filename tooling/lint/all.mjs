// `pnpm test`'s lint: every package's `lint` script (`oxlint -c <config> <paths>`), gathered into
// one oxlint run per configuration instead of a turbo task per package, each of which started pnpm
// and oxlint again. `pnpm lint` still lints package by package. Then the checks oxlint cannot make:
// the web app's stylesheets on its design tokens (css-tokens.mjs).
import { spawnSync } from "node:child_process"
import { readdirSync, readFileSync } from "node:fs"
import { join, relative, resolve } from "node:path"
import { fileURLToPath } from "node:url"

const root = fileURLToPath(new URL("../../", import.meta.url))
const oxlint = fileURLToPath(new URL("node_modules/.bin/oxlint", import.meta.url))

/** Each configuration (relative to the root) and the paths that lint with it. */
const runs = new Map()
for (const group of ["apps", "packages", "tooling"]) {
  for (const name of readdirSync(join(root, group))) {
    const dir = join(root, group, name)
    let script
    try {
      script = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")).scripts?.lint
    } catch {
      continue
    }
    if (script === undefined) continue
    const match = /^oxlint -c (\S+)((?: [^\s-]\S*)+)$/.exec(script)
    if (match === null) throw new Error(`${group}/${name}: its lint script is not "oxlint -c <config> <paths>": ${script}`)
    const config = relative(root, resolve(dir, match[1]))
    const paths = match[2].trim().split(" ").map((path) => relative(root, resolve(dir, path)) || ".")
    runs.set(config, [...(runs.get(config) ?? []), ...paths])
  }
}
let failed = false
for (const [config, paths] of runs) {
  const result = spawnSync(oxlint, ["-c", config, ...paths], { cwd: root, stdio: "inherit" })
  if (result.status !== 0) failed = true
}
const css = spawnSync(process.execPath, [fileURLToPath(new URL("css-tokens.mjs", import.meta.url))], { cwd: root, stdio: "inherit" })
if (css.status !== 0) failed = true
process.exit(failed ? 1 : 0)
