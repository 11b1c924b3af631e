/**
 * Records a site's questions off the answer's path: `record` forks the write and returns at once;
 * a write that fails is logged and lost, never surfaced to the asker. Readers `flush` first, so what
 * was asked shows at once, and the layer's scope waits for the writes under way when it closes.
 */
import { Clock, Context, Effect, FiberSet, Layer } from "effect"
import { Ids } from "@quire/kernel"
import type { AnswerSource, AskChannel, AskOutcome } from "../domain/SiteQuestion.ts"
import { normalText, questionKey } from "./QuestionKey.ts"
import { SiteQuestionsRepo } from "./SiteQuestionsRepo.ts"

/** A question asked on a site, with what became of it. */
export interface Asked {
  readonly organizationId: string
  readonly siteId: string
  readonly question: string
  readonly channel: AskChannel
  readonly language: string | null
  readonly siteSpaces: ReadonlyArray<string>
  readonly outcome: AskOutcome
  readonly answer: string
  readonly sources: ReadonlyArray<AnswerSource>
}

export interface SiteQuestionRecorderShape {
  /** Stores the asking in the background; never waits on the database, never fails. */
  readonly record: (asked: Asked) => Effect.Effect<void>
  /** Waits for the writes under way. */
  readonly flush: Effect.Effect<void>
}

export class SiteQuestionRecorder extends Context.Service<SiteQuestionRecorder, SiteQuestionRecorderShape>()("@quire/sites/SiteQuestionRecorder") {
  static readonly layer = Layer.effect(
    SiteQuestionRecorder,
    Effect.gen(function*() {
      const repo = yield* SiteQuestionsRepo
      const ids = yield* Ids.Ids
      const writes = yield* FiberSet.make<void>()
      // Finalizers run last first: this one waits for the writes before the set interrupts what is left.
      yield* Effect.addFinalizer(() => FiberSet.awaitEmpty(writes))

      const write = (asked: Asked) =>
        Effect.gen(function*() {
          const at = new Date(yield* Clock.currentTimeMillis)
          const raw = asked.question.trim()
          const text = normalText(raw)
          const questionId = yield* ids.make
          const answerId = yield* ids.make
          const base = { organizationId: asked.organizationId, siteId: asked.siteId }
          yield* repo.record(
            { ...base, id: questionId, key: questionKey(text), text, createdAt: at },
            {
              ...base,
              id: answerId,
              at,
              raw,
              text,
              channel: asked.channel,
              outcome: asked.outcome,
              language: asked.language,
              answer: asked.answer,
              siteSpaces: asked.siteSpaces,
              sources: asked.sources
            }
          )
        }).pipe(Effect.catchCause((cause) => Effect.logWarning("A site question could not be recorded", cause)))

      return SiteQuestionRecorder.of({
        record: (asked) => Effect.asVoid(FiberSet.run(writes, write(asked))),
        flush: FiberSet.awaitEmpty(writes)
      })
    })
  )
}
