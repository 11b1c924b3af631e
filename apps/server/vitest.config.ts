import { sharedModules, withShared } from "@quire/vitest-config"

export default withShared(sharedModules)
