/** Outbound's AiLog over reviews' log of AI calls: the model adapters' calls, kept for the organization's admins. */
import { Effect, Layer } from "effect"
import { AiLog } from "@quire/outbound"
import { aiLogRecorder } from "@quire/reviews"

export const layer = Layer.effect(AiLog, Effect.map(aiLogRecorder, (record) => AiLog.of({ record })))
