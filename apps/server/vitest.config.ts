import { parallelWorkers, withShared } from "@quire/vitest-config"

export default withShared({ test: { maxWorkers: parallelWorkers } })
