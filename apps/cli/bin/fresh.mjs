// Whether the CLI's bundle under `root` is up to date: dist/quire.mjs exists and no file that
// dist/quire.inputs.json lists (the build's inputs outside node_modules, and the lockfile) is
// newer than it. bin/quire.mjs runs the bundle only then.
import { readFileSync, statSync } from "node:fs"
import { join } from "node:path"

/** @param {string} root the repository's root directory */
export const bundleIsFresh = (root) => {
  try {
    const built = statSync(join(root, "dist/quire.mjs")).mtimeMs
    const inputs = JSON.parse(readFileSync(join(root, "dist/quire.inputs.json"), "utf8"))
    return Array.isArray(inputs) && inputs.length > 0 && inputs.every((input) => statSync(join(root, input)).mtimeMs <= built)
  } catch {
    // No bundle, no list, or an input that is gone: the sources are what there is.
    return false
  }
}
