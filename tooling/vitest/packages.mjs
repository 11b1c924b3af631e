// The workspace packages that have tests, for progress.mjs and summary.mjs.
import { existsSync, readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"

export const root = new URL("../..", import.meta.url).pathname

/**
 * Every package with a `test` script, by its folder (`apps/server`), with the path of the JSON
 * report its last vitest run wrote (tooling/vitest/config.ts). A package without a test script
 * (any more) runs nothing: a report left from before is stale.
 */
export const testedPackages = () => {
  const found = []
  for (const group of ["packages", "apps", "tooling"]) {
    for (const name of readdirSync(join(root, group))) {
      const manifest = join(root, group, name, "package.json")
      if (!existsSync(manifest) || JSON.parse(readFileSync(manifest, "utf8")).scripts?.test === undefined) continue
      found.push({ group, name, folder: `${group}/${name}`, report: join(root, group, name, ".vitest", "report.json") })
    }
  }
  return found
}
