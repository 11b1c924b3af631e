#!/usr/bin/env node
// Launcher for `./quire`, `npx quire` and `pnpm exec quire`. It runs the CLI's bundle
// (dist/quire.mjs, made by `pnpm build`) when the bundle is newer than every source it was built
// from (bin/fresh.mjs), which starts in a tenth of the time; otherwise it registers tsx in this
// process and runs the TypeScript sources, so an edit never runs stale code. QUIRE_CLI_SOURCES=1
// always runs the sources.
import { fileURLToPath } from "node:url"
import { bundleIsFresh } from "./fresh.mjs"

const root = fileURLToPath(new URL("../../../", import.meta.url))

if (process.env.QUIRE_CLI_SOURCES !== "1" && bundleIsFresh(root)) {
  await import(new URL("../../../dist/quire.mjs", import.meta.url).href)
} else {
  const { register } = await import("tsx/esm/api")
  register()
  await import("../src/main.ts")
}
