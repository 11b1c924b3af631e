/** The SSRF-guarded fetch of user-given URLs, shared by content's imports, specs, reviews and gitsync. */
export {
  type AllowList,
  type FetchedResource,
  type FetchOptions,
  isPublicAddress,
  OutboundFetch,
  OutboundFetchError,
  type OutboundFetchOptions,
  OutboundFetchReason,
  parseAllowList,
  permittedAddresses,
  type ResolvedAddress
} from "./OutboundFetch.ts"

/** Mail Quire sends: SMTP through nodemailer, or nothing, or a memory outbox for tests. */
export { layerMemory as layerMailerMemory, type Mail, Mailer, type MailerShape, Outbox, SmtpConfig } from "./Mailer.ts"

/** effect's LanguageModel over an OpenAI-compatible endpoint, with tool calls and streaming (the agent, Ask's next steps). */
export * as OpenAiCompatible from "./OpenAiCompatible.ts"

/** The OpenAI-compatible chat-completions client (translation, a site's Ask). */
export {
  chatCompletion,
  ChatCompletionError,
  type ChatEndpoint,
  type ChatMessage,
  endpointOf,
  messageContent
} from "./ChatCompletions.ts"

/** An organization's budget of AI tokens, checked and spent by the model adapters for the organization a call is made for. */
export { AiConversation, AiLog, type AiLogCall, type AiLogEntry, type AiLogMessage, type AiLogShape, forConversation as aiForConversation, recordCurrent as recordAiCall } from "./AiLog.ts"
export { AiBudget, AiBudgetSpent, type AiBudgetShape, AiOrganization, checkCurrent as checkAiBudget, estimatedTokens, forOrganization as aiForOrganization, spendCurrent as spendAiBudget } from "./AiBudget.ts"
