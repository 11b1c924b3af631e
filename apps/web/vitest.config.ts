import { parallelWorkers, withShared } from "@quire/vitest-config"

// Two projects: the pure parts and the editor's markdown in Node; the browser flows (test/e2e),
// which start their servers once per run (test/e2e/global-setup.ts) against the built app.
// A browser flow gets five minutes: the longest take 15 to 60 s alone, and a full `pnpm test` on a
// slow two-core machine has run them six to eight times slower than that (docs/testing.md).
export default withShared({
  test: {
    maxWorkers: parallelWorkers,
    projects: [
      { extends: true, test: { name: "unit", include: ["test/**/*.test.ts"], exclude: ["test/e2e/**"] } },
      { extends: true, test: { name: "e2e", include: ["test/e2e/**/*.test.ts"], exclude: ["test/!(e2e)/**"], globalSetup: ["test/e2e/global-setup.ts"], testTimeout: 300_000, hookTimeout: 300_000, expect: { poll: { timeout: 30_000 } } } }
    ]
  }
})
