import { withShared } from "@quire/vitest-config"

export default withShared({ test: { globalSetup: ["test/global-setup.ts"] } })
