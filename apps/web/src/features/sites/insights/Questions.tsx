/**
 * The insights screen's "Questions readers asked": what readers asked the site's Ask (its page, its
 * MCP server, the API), newest or most asked first, all, answered or unanswered; a question opens
 * on its answers and the pages they came from, and an unanswered one offers a change request.
 */
import type { SiteQuestion, SiteQuestionAnswer, SiteQuestionAnswerSource } from "@quire/api"
import { useState } from "react"
import { AsyncResult } from "effect/reactivity"
import { useAtomValue } from "../../../api/react.ts"
import { EmptyState } from "../../../ui/EmptyState.tsx"
import { ChevronDownIcon, QuestionIcon } from "../../../ui/icons.tsx"
import { Failure, Loading } from "../../../ui/States.tsx"
import { OpenChangeRequest } from "./OpenChangeRequest.tsx"
import { PageName } from "./PageName.tsx"
import { type QuestionOrder, questionDetailAtom, questionsAtom, questionsRef, type QuestionShown } from "./questionQueries.ts"
import type { Insights as Data, PageInfo } from "./queries.ts"

const times = (n: number) => (n === 1 ? "once" : `${n} times`)
const dateOf = (iso: string) => new Date(iso).toLocaleDateString(undefined, { year: "numeric", month: "short", day: "numeric" })

const outcomes: Readonly<Record<SiteQuestionAnswer["outcome"], string>> = {
  answered: "Answered from the pages",
  "no-pages": "No page matched",
  "not-in-pages": "The pages did not answer",
  failed: "The model failed",
  "no-model": "No model configured"
}
const channels: Readonly<Record<SiteQuestionAnswer["via"], string>> = { site: "on the site", mcp: "by an agent (MCP)", api: "through the API" }

/** A source's page as the site shows it now, else its title when asked. */
const pageOfSource = (pages: ReadonlyMap<string, PageInfo>, source: SiteQuestionAnswerSource) => pages.get(`${source.space}/${source.page}`)

const Detail = (props: { readonly refBase: string; readonly question: SiteQuestion; readonly data: Data; readonly answered: boolean; readonly firstSpace: PageInfo | undefined }) => {
  const detail = useAtomValue(questionDetailAtom(`${props.refBase}\n${props.question.id}`))
  if (AsyncResult.isFailure(detail)) return <Failure result={detail} />
  if (!AsyncResult.isSuccess(detail)) return <Loading what="the answers" />
  const { answers, sources } = detail.value
  const first = sources[0] === undefined ? undefined : pageOfSource(props.data.pages, sources[0])
  const space = first ?? props.firstSpace
  return (
    <div className="insights-question-detail">
      <h4>Pages the answers came from</h4>
      {sources.length === 0 ? <p className="muted">No page of the site matched this question.</p> : (
        <ul className="insights-question-sources">
          {sources.map((source) => (
            <li key={source.id}>
              <PageName page={pageOfSource(props.data.pages, source)} fallback={source.title} />
              <span className="insights-count">{source.answers === 1 ? "1 answer" : `${source.answers} answers`}</span>
            </li>
          ))}
        </ul>
      )}
      <h4>Answers</h4>
      <ol className="insights-question-answers">
        {answers.map((answer) => (
          <li key={answer.id}>
            <span className="muted">
              {dateOf(answer.createdAt)} · {channels[answer.via]} · <span className={`outcome outcome-${answer.answered}`}>{outcomes[answer.outcome]}</span>
            </span>
            {answer.input.text === props.question.question ? null : <q>{answer.input.text}</q>}
            <p className="insights-question-answer">{answer.output.markdown}</p>
          </li>
        ))}
      </ol>
      {props.answered || space === undefined ? null : (
        <OpenChangeRequest
          spaceId={space.spaceId}
          pagePath={first?.path}
          subject={`Readers asked “${props.question.question}”`}
          about={`for the question “${props.question.question}”`}
        />
      )}
    </div>
  )
}

const Question = (props: { readonly refBase: string; readonly question: SiteQuestion; readonly data: Data; readonly firstSpace: PageInfo | undefined }) => {
  const { question } = props
  const [open, setOpen] = useState(false)
  const answered = question.stats.answered.yes + question.stats.answered.partially > 0
  return (
    <li className="insights-question">
      <details onToggle={(event) => setOpen(event.currentTarget.open)}>
        <summary>
          <ChevronDownIcon />
          <q>{question.question}</q>
          <span className={`outcome outcome-${answered ? "yes" : "no"}`}>{answered ? "Answered" : "Unanswered"}</span>
          <span className="insights-count">Asked {times(question.stats.answers)} · last {dateOf(question.askedAt)}</span>
        </summary>
        {open ? <Detail refBase={props.refBase} question={question} data={props.data} answered={answered} firstSpace={props.firstSpace} /> : null}
      </details>
    </li>
  )
}

export const Questions = (props: { readonly organizationId: string; readonly siteId: string; readonly data: Data; readonly firstSpace: PageInfo | undefined }) => {
  const [order, setOrder] = useState<QuestionOrder>("newest")
  const [shown, setShown] = useState<QuestionShown>("all")
  const listing = useAtomValue(questionsAtom(questionsRef(props.organizationId, props.siteId, order, shown)))
  const refBase = `${props.organizationId}\n${props.siteId}`
  return (
    <section className="insights-part panel insights-questions" aria-labelledby="insights-questions">
      <h2 id="insights-questions">Questions readers asked</h2>
      <div className="insights-question-controls">
        <label>
          Order
          <select value={order} onChange={(event) => setOrder(event.target.value as QuestionOrder)}>
            <option value="newest">Newest first</option>
            <option value="most-asked">Most asked first</option>
          </select>
        </label>
        <label>
          Show
          <select value={shown} onChange={(event) => setShown(event.target.value as QuestionShown)}>
            <option value="all">All questions</option>
            <option value="answered">Answered</option>
            <option value="unanswered">Unanswered</option>
          </select>
        </label>
      </div>
      {AsyncResult.isFailure(listing) ? <Failure result={listing} /> : !AsyncResult.isSuccess(listing) ? <Loading what="the questions" /> : (
        <>
          <p className="insights-total">
            <strong>{listing.value.stats.total}</strong> {listing.value.stats.total === 1 ? "question" : "questions"} asked{" "}
            <strong>{listing.value.stats.answers}</strong> {listing.value.stats.answers === 1 ? "time" : "times"} ·{" "}
            <strong>{listing.value.stats.answered.no}</strong> unanswered
          </p>
          {listing.value.questions.length === 0
            ? shown === "all"
              ? <EmptyState icon={<QuestionIcon size={20} />} title="No questions yet">Questions readers ask the site’s assistant show here, with whether the pages answered them.</EmptyState>
              : <EmptyState icon={<QuestionIcon size={20} />} title={shown === "answered" ? "No answered question" : "No unanswered question"} compact status />
            : (
              <ul className="insights-list insights-question-list">
                {listing.value.questions.map((question) => (
                  <Question key={question.id} refBase={refBase} question={question} data={props.data} firstSpace={props.firstSpace} />
                ))}
              </ul>
            )}
        </>
      )}
    </section>
  )
}
