/** Checks GitBook's `JSONDocument` (the instructions of a translation): a document of blocks of texts. */
import { documentBreach } from "@quire/content"
import { Errors } from "@quire/kernel"
import { Effect } from "effect"
import type { InstructionsDocument } from "./Translation.ts"

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

const bad = (field: string, reason: string) => new Errors.InvalidInput({ field, reason })

/** The longest instructions, in characters of their text. */
export const maxTextLength = 4000

/** The document, or an InvalidInput naming the offending field under `instructions`. */
export const validate = (value: unknown, field = "instructions"): Effect.Effect<InstructionsDocument, Errors.InvalidInput> => {
  const breach = documentBreach(value, field)
  if (breach !== undefined) return Effect.fail(bad(breach.field, breach.reason))
  const document = value as InstructionsDocument
  if (JSON.stringify(document).length > 100_000) return Effect.fail(bad(field, "must be at most 100000 characters as JSON"))
  // The text goes into every request to the provider: a bound keeps it a note, not a second document.
  if (toText(document).length > maxTextLength) return Effect.fail(bad(field, `must be at most ${maxTextLength} characters of text`))
  return Effect.succeed(document)
}

/** The plain text of the instructions, as the translator reads it (blocks on their own lines). */
export const toText = (document: InstructionsDocument): string => {
  const out: Array<string> = []
  const walk = (value: unknown): string => {
    if (!isObject(value)) return ""
    if (value["object"] === "text") {
      const leaves = value["leaves"]
      return Array.isArray(leaves) ? leaves.map((l) => (isObject(l) && typeof l["text"] === "string" ? l["text"] : "")).join("") : ""
    }
    const nodes = value["nodes"]
    return Array.isArray(nodes) ? nodes.map(walk).join("") : ""
  }
  const nodes = document["nodes"]
  if (Array.isArray(nodes)) for (const block of nodes) out.push(walk(block))
  return out.filter((line) => line.trim() !== "").join("\n")
}

/** An empty document: no instructions. */
export const empty: InstructionsDocument = { object: "document", data: {}, nodes: [] }
