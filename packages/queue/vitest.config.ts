import { withShared } from "@quire/vitest-config"

// graphile-worker's first retry comes after e^1 ≈ 2.7 seconds; nothing else is slow.
export default withShared({ test: { testTimeout: 15_000, hookTimeout: 30_000 } })
