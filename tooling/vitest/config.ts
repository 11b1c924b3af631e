/**
 * The test setup every package shares: generous timeouts (fresh databases take seconds to start
 * on two cores) and a JSON report per package, which `summary.mjs` adds up after `pnpm test`.
 */
import { defineConfig, mergeConfig, type ViteUserConfig } from "vitest/config"

export const shared = defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    reporters: ["default", ["json", { outputFile: ".vitest/report.json" }]]
  }
})

/** The shared setup with a package's own settings on top. */
export const withShared = (config: ViteUserConfig = {}) => mergeConfig(shared, config)
