/**
 * `~ask?q=…`: Ask on the published site, as JSON. Offered only when the site's customization sets
 * `ai.mode` to "assistant" (404 otherwise, like any path the site does not have); a server without
 * a model refuses with 501, a question that is empty or too long with 400.
 */
import { AiBudgetWords } from "@quire/kernel"
import { Effect } from "effect"
import type { PublishedContent, Similarity } from "@quire/content"
import type { AskModelShape } from "../AskModel.ts"
import { recordedAsk } from "../questions/AskRecording.ts"
import type { SiteQuestionRecorderShape } from "../questions/QuestionRecorder.ts"
import type { RenderAnswer } from "./Answer.ts"
import { ask } from "./Ask.ts"
import type { Reading } from "./ReadingTypes.ts"

const refusal = (code: number, message: string): RenderAnswer => ({ kind: "Json", status: code, body: { error: { code, message } } })

/** Whether the site offers Ask to its readers. */
export const askOffered = (reading: Reading) => reading.site.customization.ai?.mode === "assistant"

export const askAnswer = (
  reading: Reading,
  published: PublishedContent["Service"],
  model: AskModelShape,
  recorder: SiteQuestionRecorderShape,
  similarity?: Similarity
) =>
  Effect.gen(function*(): Effect.fn.Return<RenderAnswer> {
    if (!askOffered(reading)) return refusal(404, "This site does not offer Ask")
    const question = reading.request.query.get("q") ?? ""
    return yield* recordedAsk(recorder, reading, question, ask(reading, published, model, question, undefined, similarity)).pipe(
      Effect.map((reply): RenderAnswer => ({
        kind: "Json",
        body: { answer: reply.answer, sources: reply.sources.map(({ n, title, url, section }) => ({ n, title, url, ...(section === undefined ? {} : { section }) })) }
      })),
      Effect.catch((failure) =>
        Effect.succeed(refusal(
          failure.kind === "NotConfigured" ? 501 : failure.kind === "BadQuestion" ? 400 : AiBudgetWords.isSpent(failure.message) ? 429 : 502,
          failure.message
        ))
      )
    )
  })
