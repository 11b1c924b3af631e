/**
 * A question asked on a published site (GitBook's `SiteQuestion`: the question with repeated askings
 * grouped) and each time it was asked (GitBook's `SiteQuestionAnswer`): the text, how it was asked,
 * the answer given and the pages it drew on. No visitor identity is kept with either.
 */
import { Schema } from "effect"

/** How a question reached the site's Ask: its `~ask` (the site's own page), its MCP server's `askQuestion`, or the API's `streamAskInSite`. */
export const AskChannel = Schema.Literals(["site", "mcp", "api"])
export type AskChannel = typeof AskChannel.Type

/**
 * What became of a question: `answered` (the model cited the pages), `no-pages` (no page the asker
 * may read matched), `not-in-pages` (the model cited none: the pages do not answer), `failed` (the
 * model failed), `no-model` (no model configured).
 */
export const AskOutcome = Schema.Literals(["answered", "no-pages", "not-in-pages", "failed", "no-model"])
export type AskOutcome = typeof AskOutcome.Type

/** GitBook's `SiteQuestionAnswerResolution`. */
export const QuestionResolution = Schema.Literals(["no", "partially", "yes"])
export type QuestionResolution = typeof QuestionResolution.Type

/** GitBook's `SiteQuestionAnswerRelevance`. */
export const QuestionRelevance = Schema.Literals(["relevant", "spam", "off-topic", "unclear"])
export type QuestionRelevance = typeof QuestionRelevance.Type

/** GitBook's `SiteQuestionType`. */
export const QuestionType = Schema.Literals(["exploring", "how-to", "troubleshooting", "reference", "unknown"])
export type QuestionType = typeof QuestionType.Type

/** GitBook's `SiteQuestionAnswerHelpfulness`. */
export const QuestionHelpfulness = Schema.Literals(["low", "medium", "high"])
export type QuestionHelpfulness = typeof QuestionHelpfulness.Type

/** GitBook's `SiteCoreChannelType`. */
export const CoreChannelType = Schema.Literals(["site", "embed", "api"])
/** GitBook's `SiteChannelType`: the core channels and the configurable ones. */
export const ChannelType = Schema.Literals(["site", "embed", "api", "builtin:slack", "builtin:discord", "builtin:github", "builtin:linear"])
export type ChannelType = typeof ChannelType.Type

/** The orders of GitBook's `listSiteQuestions` (`sort`); without one, the question's first asking. */
export const QuestionSort = Schema.Literals(["askedAt", "stats.answered", "stats.feedback", "stats.answers"])
export type QuestionSort = typeof QuestionSort.Type

/** A page an answer drew on, as it was when asked. */
export interface AnswerSource {
  /** Its number in the prompt (`[n]`). */
  readonly n: number
  readonly title: string
  readonly spaceId: string
  readonly pageId: string
  readonly revisionId: string
  /** The sections of the page passed to the model. */
  readonly sections: ReadonlyArray<{ readonly id: string; readonly title: string }>
  /** Whether the answer cites it as `[n]` (none is, when the model cited nothing). */
  readonly cited: boolean
}

/** A question as grouped: askings whose `key` is the same are one question. */
export interface StoredQuestion {
  readonly id: string
  readonly organizationId: string
  readonly siteId: string
  /** The grouping key (QuestionKey.ts). */
  readonly key: string
  /** The text of its first asking. */
  readonly text: string
  readonly createdAt: Date
}

/** One asking of a question, with the answer it got. */
export interface StoredAnswer {
  readonly id: string
  readonly organizationId: string
  readonly siteId: string
  readonly questionId: string
  readonly at: Date
  /** As asked (trimmed). */
  readonly raw: string
  /** Whitespace collapsed. */
  readonly text: string
  readonly channel: AskChannel
  readonly outcome: AskOutcome
  /** The first language the asker's client asked for, when it said (as insights keep it). */
  readonly language: string | null
  /** The answer the asker got, in markdown (the refusal's message when there was none). */
  readonly answer: string
  /** The site spaces the question searched. */
  readonly siteSpaces: ReadonlyArray<string>
  readonly sources: ReadonlyArray<AnswerSource>
}

/** GitBook's resolution of an outcome: only a cited answer answered. */
export const resolutionOf = (outcome: AskOutcome): QuestionResolution => (outcome === "answered" ? "yes" : "no")

/** GitBook's channel type of a channel: an agent through the MCP server asks as a program does. */
export const channelTypeOf = (channel: AskChannel): "site" | "api" => (channel === "site" ? "site" : "api")
