import { parallelWorkers, withShared } from "@quire/vitest-config"

// Two projects, one after the other: the server suite, whose test servers check every 2xx answer
// against GitBook's schema as they send it (test/conformance/Capture.ts), then the conformance
// project, which reads every verdict and fails on any answer GitBook's schema does not allow.
export default withShared({
  test: {
    maxWorkers: parallelWorkers,
    projects: [
      { extends: true, test: { name: "server", exclude: ["test/conformance/**"], globalSetup: ["test/conformance/clear.ts"] } },
      // (include adds to the shared `test/**/*.test.ts`: every other test file is excluded.)
      { extends: true, test: { name: "conformance", include: ["test/conformance/**/*.test.ts"], exclude: ["test/*.test.ts", "test/!(conformance)/**"], sequence: { groupOrder: 1 } } }
    ]
  }
})
