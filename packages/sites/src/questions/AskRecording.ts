/**
 * A site's Ask with its question recorded once answered (or refused for want of a model, or failed):
 * the recorder forks the write, so the asker never waits on it. A question refused as empty or too
 * long is not a question and is not recorded.
 */
import { Effect, Exit, Option } from "effect"
import { citedNumbers } from "@quire/content"
import type { AskFailure, AskReply } from "../answer/Ask.ts"
import type { Reading } from "../answer/ReadingTypes.ts"
import type { AnswerSource, AskOutcome } from "../domain/SiteQuestion.ts"
import type { SiteQuestionRecorderShape } from "./QuestionRecorder.ts"

const sourcesOf = (reply: AskReply): ReadonlyArray<AnswerSource> => {
  const numbers = citedNumbers(reply.answer)
  return reply.sources.map((s) => ({
    n: s.n,
    title: s.title,
    spaceId: s.spaceId,
    pageId: s.pageId,
    revisionId: s.revisionId,
    sections: s.sections.map(({ id, title }) => ({ id, title })),
    cited: numbers.has(s.n)
  }))
}

/** `answering` (the reader's Ask), its question handed to `recorder` when it ends. */
export const recordedAsk = (recorder: SiteQuestionRecorderShape, reading: Reading, question: string, answering: Effect.Effect<AskReply, AskFailure>) =>
  Effect.onExit(answering, (exit) => {
    const asker = reading.request.asker
    const base = {
      organizationId: reading.site.site.organizationId,
      siteId: reading.site.site.id,
      question,
      channel: asker?.via ?? "site",
      language: asker?.language ?? null,
      siteSpaces: reading.visible.places.map((p) => p.siteSpace.siteSpace.id)
    } as const
    if (Exit.isSuccess(exit)) {
      return recorder.record({ ...base, outcome: exit.value.outcome, answer: exit.value.answer, sources: sourcesOf(exit.value) })
    }
    const failure = Option.getOrUndefined(Exit.findErrorOption(exit))
    if (failure === undefined || failure.kind === "BadQuestion") return Effect.void
    const outcome: AskOutcome = failure.kind === "NotConfigured" ? "no-model" : "failed"
    return recorder.record({ ...base, outcome, answer: failure.message, sources: [] })
  })
