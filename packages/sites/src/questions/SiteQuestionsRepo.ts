/** Port: the questions asked on a site and each asking with its answer. */
import { Context, Effect, Layer, Option } from "effect"
import { MemoryStore } from "@quire/kernel"
import type { StoredAnswer, StoredQuestion } from "../domain/SiteQuestion.ts"

export interface SiteQuestionsRepoShape {
  /**
   * Stores an asking under the site's question of the same key: `question` when the site has none
   * yet, else the one it has (one transaction). Answers the question's id.
   */
  readonly record: (question: StoredQuestion, answer: Omit<StoredAnswer, "questionId">) => Effect.Effect<string>
  /** A site's questions that have an asking, oldest first. */
  readonly questions: (siteId: string) => Effect.Effect<ReadonlyArray<StoredQuestion>>
  readonly question: (siteId: string, questionId: string) => Effect.Effect<Option.Option<StoredQuestion>>
  /** A site's askings with `from <= at < to`, newest first, at most `limit`. */
  readonly answers: (siteId: string, from: Date, to: Date, limit: number) => Effect.Effect<ReadonlyArray<StoredAnswer>>
  readonly answer: (siteId: string, answerId: string) => Effect.Effect<Option.Option<StoredAnswer>>
  /** Forgets a site's questions (the site deleted). */
  readonly removeSite: (siteId: string) => Effect.Effect<void>
  /** Forgets askings older than `before`, and the questions left without one (retention); answers how many askings. */
  readonly purgeBefore: (before: Date) => Effect.Effect<number>
}

const newestFirst = (a: StoredAnswer, b: StoredAnswer) => b.at.getTime() - a.at.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0)

export class SiteQuestionsRepo extends Context.Service<SiteQuestionsRepo, SiteQuestionsRepoShape>()("@quire/sites/SiteQuestionsRepo") {
  static readonly layerMemory = Layer.sync(SiteQuestionsRepo, () => {
    const questions = new MemoryStore.TxMap<string, StoredQuestion>()
    const answers = new MemoryStore.TxMap<string, StoredAnswer>()
    const dropOrphans = () => {
      const asked = new Set(Array.from(answers.values(), (a) => a.questionId))
      for (const q of Array.from(questions.values())) if (!asked.has(q.id)) questions.delete(q.id)
    }
    return SiteQuestionsRepo.of({
      record: (question, answer) =>
        Effect.sync(() => {
          const found = Array.from(questions.values()).find((q) => q.siteId === question.siteId && q.key === question.key)
          const id = found?.id ?? question.id
          if (found === undefined) questions.set(question.id, question)
          answers.set(answer.id, { ...answer, questionId: id })
          return id
        }),
      questions: (siteId) =>
        Effect.sync(() =>
          Array.from(questions.values())
            .filter((q) => q.siteId === siteId)
            .toSorted((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
        ),
      question: (siteId, questionId) =>
        Effect.sync(() => Option.fromNullishOr(questions.get(questionId)).pipe(Option.filter((q) => q.siteId === siteId))),
      answers: (siteId, from, to, limit) =>
        Effect.sync(() =>
          Array.from(answers.values())
            .filter((a) => a.siteId === siteId && a.at.getTime() >= from.getTime() && a.at.getTime() < to.getTime())
            .toSorted(newestFirst)
            .slice(0, limit)
        ),
      answer: (siteId, answerId) =>
        Effect.sync(() => Option.fromNullishOr(answers.get(answerId)).pipe(Option.filter((a) => a.siteId === siteId))),
      removeSite: (siteId) =>
        Effect.sync(() => {
          for (const a of Array.from(answers.values())) if (a.siteId === siteId) answers.delete(a.id)
          for (const q of Array.from(questions.values())) if (q.siteId === siteId) questions.delete(q.id)
        }),
      purgeBefore: (before) =>
        Effect.sync(() => {
          let removed = 0
          for (const a of Array.from(answers.values())) {
            if (a.at.getTime() < before.getTime()) {
              answers.delete(a.id)
              removed++
            }
          }
          dropOrphans()
          return removed
        })
    })
  })
}
