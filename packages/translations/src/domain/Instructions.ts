/** Checks GitBook's `JSONDocument` (the instructions of a translation): a document of blocks of texts. */
import { Errors } from "@quire/kernel"
import { Effect } from "effect"
import type { InstructionsDocument } from "./Translation.ts"

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

const bad = (field: string, reason: string) => new Errors.InvalidInput({ field, reason })

const node = (value: unknown, field: string, depth: number): Errors.InvalidInput | undefined => {
  if (depth > 32) return bad(field, "nests too deeply")
  if (!isObject(value)) return bad(field, "must be an object")
  const kind = value["object"]
  if (kind === "text") {
    const leaves = value["leaves"]
    if (leaves === undefined) return undefined
    if (!Array.isArray(leaves)) return bad(`${field}.leaves`, "must be an array")
    for (const [i, leaf] of leaves.entries()) {
      if (!isObject(leaf) || typeof leaf["text"] !== "string") return bad(`${field}.leaves[${i}].text`, "must be a string")
    }
    return undefined
  }
  if (kind !== "block" && kind !== "inline") return bad(`${field}.object`, "must be block, inline or text")
  if (typeof value["type"] !== "string" || value["type"] === "") return bad(`${field}.type`, "must be a non-empty string")
  if (value["isVoid"] !== undefined && typeof value["isVoid"] !== "boolean") return bad(`${field}.isVoid`, "must be a boolean")
  if (value["data"] !== undefined && !isObject(value["data"])) return bad(`${field}.data`, "must be an object")
  const nodes = value["nodes"]
  if (nodes === undefined) return undefined
  if (!Array.isArray(nodes)) return bad(`${field}.nodes`, "must be an array")
  for (const [i, child] of nodes.entries()) {
    const error = node(child, `${field}.nodes[${i}]`, depth + 1)
    if (error !== undefined) return error
  }
  return undefined
}

/** The longest instructions, in characters of their text. */
export const maxTextLength = 4000

/** The document, or an InvalidInput naming the offending field under `instructions`. */
export const validate = (value: unknown, field = "instructions"): Effect.Effect<InstructionsDocument, Errors.InvalidInput> => {
  if (!isObject(value)) return Effect.fail(bad(field, "must be a document object"))
  if (value["object"] !== "document") return Effect.fail(bad(`${field}.object`, "must be \"document\""))
  const data = value["data"]
  if (!isObject(data)) return Effect.fail(bad(`${field}.data`, "must be an object"))
  if (data["schemaVersion"] !== undefined && !Number.isInteger(data["schemaVersion"])) {
    return Effect.fail(bad(`${field}.data.schemaVersion`, "must be an integer"))
  }
  const nodes = value["nodes"]
  if (!Array.isArray(nodes)) return Effect.fail(bad(`${field}.nodes`, "must be an array"))
  for (const [i, child] of nodes.entries()) {
    if (!isObject(child) || child["object"] !== "block") return Effect.fail(bad(`${field}.nodes[${i}].object`, "must be \"block\""))
    const error = node(child, `${field}.nodes[${i}]`, 1)
    if (error !== undefined) return Effect.fail(error)
  }
  if (JSON.stringify(value).length > 100_000) return Effect.fail(bad(field, "must be at most 100000 characters as JSON"))
  // The text goes into every request to the provider: a bound keeps it a note, not a second document.
  if (toText(value).length > maxTextLength) return Effect.fail(bad(field, `must be at most ${maxTextLength} characters of text`))
  return Effect.succeed(value)
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
