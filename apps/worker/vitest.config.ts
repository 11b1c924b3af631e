import { defineConfig } from "vitest/config"

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // Each test starts the worker as a child process (tsx compiles on start).
    testTimeout: 20_000,
    hookTimeout: 30_000
  }
})
