import { withShared } from "@quire/vitest-config"

export default withShared()
