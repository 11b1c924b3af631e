import { withShared } from "@quire/vitest-config"

// Each test starts the worker as a child process (tsx compiles on start).
export default withShared({ test: { testTimeout: 20_000, hookTimeout: 30_000 } })
