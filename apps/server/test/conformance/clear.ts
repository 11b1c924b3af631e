/** The server suite's global setup: the verdicts of an earlier run are removed before this one records its own (Capture.ts). */
import { rmSync } from "node:fs"
import { captureDirectory } from "./Capture.ts"

export default () => {
  rmSync(captureDirectory, { recursive: true, force: true })
}
