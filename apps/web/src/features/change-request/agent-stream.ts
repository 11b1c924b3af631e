/**
 * The agent's answer as it comes: `streamChangeRequestConversationMessage` read as server-sent
 * events (the typed client reads a stream whole), each `text` event the words so far, the last one
 * the conversation as stored or why it failed. A refusal before the model was asked (no model:
 * 501 saying what to set; a reader; a bad message) is an error answer, read the same way.
 */
import type { AgentAnswerEvent } from "@quire/api"

export type Finished = Extract<AgentAnswerEvent, { readonly type: "done" }> | { readonly type: "error"; readonly message: string }

/** The message of the server's error envelope, or words of our own. */
const refusalOf = async (response: Response): Promise<string> => {
  try {
    const body = (await response.json()) as { readonly error?: { readonly message?: unknown } }
    if (typeof body.error?.message === "string") return body.error.message
  } catch {
    // Not the envelope: the words below.
  }
  return `The agent could not answer (${response.status}).`
}

/** Asks the agent; `onWords` hears its words so far as they come. Resolves with the stored conversation, or why not. */
export const streamAnswer = async (
  ask: { readonly spaceId: string; readonly changeRequestId: string; readonly conversationId: string; readonly message: string },
  onWords: (words: string) => void
): Promise<Finished> => {
  const path = `/v1/spaces/${encodeURIComponent(ask.spaceId)}/change-requests/${encodeURIComponent(ask.changeRequestId)}/conversations/${encodeURIComponent(ask.conversationId)}/messages/stream`
  const response = await fetch(path, {
    method: "POST",
    credentials: "same-origin",
    headers: { "content-type": "application/json", accept: "text/event-stream" },
    body: JSON.stringify({ message: ask.message })
  })
  if (!response.ok || response.body === null) return { type: "error", message: await refusalOf(response) }
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader()
  let buffer = ""
  let finished: Finished | undefined
  for (;;) {
    const { done, value } = await reader.read()
    if (value !== undefined) buffer += value
    // Events are parted by a blank line; each of ours is one `data:` line of JSON.
    let end = buffer.indexOf("\n\n")
    while (end >= 0) {
      const block = buffer.slice(0, end)
      buffer = buffer.slice(end + 2)
      end = buffer.indexOf("\n\n")
      const data = block.split("\n").filter((line) => line.startsWith("data:")).map((line) => line.slice(5).trimStart()).join("\n")
      if (data === "") continue
      const event = JSON.parse(data) as AgentAnswerEvent
      if (event.type === "text") onWords(event.text)
      else if (event.type === "done" || event.type === "error") finished = event
    }
    if (done) break
  }
  return finished ?? { type: "error", message: "The agent's answer was cut off: ask again." }
}

/**
 * The agent's text for "Write with AI" and "Improve" (`composeInChangeRequest`): its markdown, or
 * a rejection whose message is the server's words (no model: what to set).
 */
export const composeText = async (
  spaceId: string,
  changeRequest: string | number,
  input: { readonly prompt: string; readonly selection?: string | undefined; readonly page: string }
): Promise<string> => {
  const response = await fetch(`/v1/spaces/${encodeURIComponent(spaceId)}/change-requests/${encodeURIComponent(String(changeRequest))}/agent/compose`, {
    method: "POST",
    credentials: "same-origin",
    headers: { "content-type": "application/json", accept: "application/json" },
    body: JSON.stringify({ prompt: input.prompt, ...(input.selection === undefined ? {} : { selection: input.selection }), page: input.page.slice(0, 60_000) })
  })
  if (!response.ok) throw new Error(await refusalOf(response))
  return ((await response.json()) as { readonly markdown: string }).markdown
}
