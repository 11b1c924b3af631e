import { withShared } from "@quire/vitest-config"

// Three files at once, where other suites run two: the server's is the longest suite (its files add
// up to twice any other's) and starts first, and with two it ran alone, two cores half used, for the
// last minutes of `pnpm test`.
export default withShared({ test: { maxWorkers: 3 } })
