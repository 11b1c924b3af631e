#!/usr/bin/env node
// Launcher for `./quire`, `npx quire` and `pnpm exec quire`. It runs the CLI's bundle
// (dist/quire.mjs, made by `pnpm build`) when the bundle is newer than every source it was built
// from (dist/quire.inputs.json lists them), which starts in a tenth of the time; otherwise it
// registers tsx in this process and runs the TypeScript sources, so an edit never runs stale
// code. QUIRE_CLI_SOURCES=1 always runs the sources.
import { readFileSync, statSync } from "node:fs"
import { fileURLToPath } from "node:url"

const root = fileURLToPath(new URL("../../../", import.meta.url))
const bundle = new URL("../../../dist/quire.mjs", import.meta.url)

/** Whether dist/quire.mjs exists and no input of its build changed since it was written. */
const fresh = () => {
  try {
    const built = statSync(bundle).mtimeMs
    const inputs = JSON.parse(readFileSync(new URL("../../../dist/quire.inputs.json", import.meta.url), "utf8"))
    return inputs.every((input) => statSync(root + input).mtimeMs <= built)
  } catch {
    // No bundle, no list, or an input that is gone: the sources are what there is.
    return false
  }
}

if (process.env.QUIRE_CLI_SOURCES !== "1" && fresh()) {
  await import(bundle.href)
} else {
  const { register } = await import("tsx/esm/api")
  register()
  await import("../src/main.ts")
}
