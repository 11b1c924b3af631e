/** The queued job of a check run: its task name and payload. */
import { Schema } from "effect"

/** The task name of a run on the durable queue. */
export const runTask = "styleguide.run"
export const RunJob = Schema.Struct({ runId: Schema.String })
