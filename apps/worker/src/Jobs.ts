/**
 * The jobs the worker process runs. Add definitions here (`define` from @quire/queue gives a
 * schema-checked payload). Handlers that need services widen the type to
 * `JobDefinition<TheirServices>`; main.ts must then provide those services' layers.
 */
import type { JobDefinition } from "@quire/queue"

export const jobs: ReadonlyArray<JobDefinition> = []
