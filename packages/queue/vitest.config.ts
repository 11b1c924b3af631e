import { withShared } from "@quire/vitest-config"

// The shared limits: graphile-worker's first retry comes after e^1 ≈ 2.7 seconds, and a loaded
// machine stretches that many times over.
export default withShared()
