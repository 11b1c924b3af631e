/**
 * Instructions written for an agent (a site's custom instructions, an organization's agent
 * instructions): GitBook's JSON document, checked with content's `documentBreach` and read as
 * markdown with content's document codec, which is also what an agent is given.
 */
import { Effect } from "effect"
import { Errors } from "@quire/kernel"
import { documentBreach } from "@quire/content"
import { documentText } from "@quire/content/markdown/DocumentCodec"
import type { AgentDocument } from "../domain/Agent.ts"

/** The most JSON instructions are sent in. */
export const maxDocumentJson = 100_000
/** The most markdown instructions hold: they go into every prompt, as notes rather than a second manual. */
export const maxDocumentText = 20_000

/** The document as markdown; `""` for one without text. */
export const textOf = (document: AgentDocument): string => {
  try {
    return documentText(document as Parameters<typeof documentText>[0]).trim()
  } catch {
    return ""
  }
}

/** The document, or an InvalidInput naming the offending path under `field`. */
export const check = (value: unknown, field: string): Effect.Effect<AgentDocument, Errors.InvalidInput> =>
  Effect.gen(function*() {
    const size = JSON.stringify(value)?.length ?? 0
    if (size > maxDocumentJson) return yield* new Errors.InvalidInput({ field, reason: `must be at most ${maxDocumentJson.toLocaleString("en")} characters of JSON (${size.toLocaleString("en")} sent)` })
    const breach = documentBreach(value, field)
    if (breach !== undefined) return yield* new Errors.InvalidInput({ field: breach.field, reason: breach.reason })
    const document = value as AgentDocument
    const text = yield* Effect.try({
      try: () => documentText(document as Parameters<typeof documentText>[0]),
      catch: (error) => new Errors.InvalidInput({ field, reason: `holds a node that is not a GitBook block or inline (${error instanceof Error ? error.message : String(error)})` })
    })
    if (text.length > maxDocumentText) return yield* new Errors.InvalidInput({ field, reason: `must be at most ${maxDocumentText.toLocaleString("en")} characters of text (${text.length.toLocaleString("en")} sent)` })
    return { object: "document" as const, data: document.data, nodes: document.nodes }
  })
