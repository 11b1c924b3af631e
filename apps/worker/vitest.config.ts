import { withShared } from "@quire/vitest-config"

// The process tests run the production build's worker and server (made once, in the global setup).
export default withShared({ test: { globalSetup: ["test/global-setup.ts"] } })
