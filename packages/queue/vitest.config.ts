import { defineConfig } from "vitest/config"

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // graphile-worker's first retry comes after e^1 ≈ 2.7 seconds; nothing else is slow.
    testTimeout: 15_000,
    hookTimeout: 30_000
  }
})
