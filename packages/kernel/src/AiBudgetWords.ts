/**
 * The words of an organization's spent AI budget. A model call refused for the budget fails as the
 * model's failure, whose message every layer passes on as text; the API tells it from the model's
 * own failures by these words, and answers 429 (with when it renews) instead of 502.
 */
const phrase = "This organization has used its AI budget"

/** The refusal's message: the budget's size and when it renews. */
export const spentMessage = (tokens: number, renewsIn: string) => `${phrase} (${tokens.toLocaleString("en")} tokens); it renews in ${renewsIn}`

/** Whether a model failure's message is the budget's refusal. */
export const isSpent = (message: string) => message.includes(phrase)
