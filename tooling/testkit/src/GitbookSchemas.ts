/**
 * GitBook's public spec (`@gitbook/api`'s openapi.json) as a checker: where a value breaks one of
 * its schemas, for tests that hold Quire's answers to GitBook's shapes.
 */
import { readFileSync } from "node:fs"
import { createRequire } from "node:module"

export type JsonSchema = { readonly [key: string]: unknown }
const published = (JSON.parse(readFileSync(createRequire(import.meta.url).resolve("@gitbook/api/spec/openapi.json"), "utf8")) as { components: { schemas: Record<string, JsonSchema> } }).components.schemas

/**
 * Where GitBook's published schema and GitBook's own clients disagree, the clients win: an OpenAPI
 * version's `filesystem` is declared an `object`, but GitBook's API answers Scalar's filesystem (an
 * array of files) and GitBook's renderer calls `filesystem.find` on it, answering 500 on an object.
 */
const corrections: Record<string, JsonSchema> = {
  OpenAPISpecContent: {
    ...published["OpenAPISpecContent"],
    properties: {
      ...(published["OpenAPISpecContent"]!["properties"] as Record<string, JsonSchema>),
      filesystem: {
        type: "array",
        items: {
          type: "object",
          required: ["dir", "filename", "isEntrypoint", "references", "specification"],
          properties: { dir: { type: "string" }, filename: { type: "string" }, isEntrypoint: { type: "boolean" }, references: { type: "array", items: { type: "string" } }, specification: { type: "object" } }
        }
      }
    }
  }
}

export const schemas: Record<string, JsonSchema> = { ...published, ...corrections }

/**
 * Where `value` breaks GitBook's schema `schema` (the subset of JSON Schema its spec uses); `oneOf`
 * is read as `anyOf`, as GitBook's own unions overlap (a URL reference is a content reference and
 * an image record alike).
 */
export const violations = (value: unknown, schema: JsonSchema, at: string, known: ReadonlySet<string> = new Set()): Array<string> => {
  const ref = schema["$ref"]
  // A page's `Document` mixin asks for `markdown` or `document`, or nothing else at all: no page of
  // a revision (GitBook's own, which carry `documentId`) can meet it, so it is not checked.
  if (ref === "#/components/schemas/Document") return []
  if (typeof ref === "string") return violations(value, schemas[ref.split("/").at(-1)!]!, at, known)
  const out: Array<string> = []
  // The properties every part of an `allOf` declares are known to each part: a part that allows no
  // other (`additionalProperties: false`, as the branches of a button's `ref` or `action`) still
  // allows those of its siblings (`label`, `kind`), as JSON Schema's `unevaluatedProperties` reads
  // GitBook's unions.
  const parts = (schema["allOf"] as ReadonlyArray<JsonSchema> | undefined) ?? []
  const siblings = parts.length === 0 ? known : new Set([...known, ...parts.flatMap((part) => Object.keys(propertiesOf(part)))])
  for (const part of parts) out.push(...violations(value, part, at, siblings))
  const union = (schema["oneOf"] ?? schema["anyOf"]) as ReadonlyArray<JsonSchema> | undefined
  if (union !== undefined) {
    // Only the options whose `object` and `type` admit the value's (GitBook's blocks and inline
    // nodes are unions of dozens of kinds, each recursive: trying every one takes minutes a page).
    const fitting = union.filter((option) => admits(option, value))
    const tries = (fitting.length === 0 ? union : fitting).map((option) => violations(value, option, at, known))
    if (tries.length === 1) out.push(...tries[0]!)
    else if (!tries.some((found) => found.length === 0)) out.push(`${at}: none of ${union.length} shapes (${tries.map((t) => t[0]).join(" | ").slice(0, 300)})`)
  }
  const type = schema["type"]
  const types = Array.isArray(type) ? type : type === undefined ? [] : [type]
  const kind = value === null ? "null" : Array.isArray(value) ? "array" : Number.isInteger(value) ? "integer" : typeof value
  if (types.length > 0 && !types.some((t) => t === kind || (t === "number" && kind === "integer"))) return [...out, `${at}: ${kind}, not ${types.join("/")}`]
  const allowed = schema["enum"] as ReadonlyArray<unknown> | undefined
  if (allowed !== undefined && !allowed.includes(value)) out.push(`${at}: ${JSON.stringify(value)} not in ${JSON.stringify(allowed)}`)
  if (kind === "array") {
    const items = schema["items"] as JsonSchema | undefined
    const list = value as ReadonlyArray<unknown>
    if (typeof schema["minItems"] === "number" && list.length < schema["minItems"]) out.push(`${at}: fewer than ${schema["minItems"]} items`)
    if (items !== undefined) list.forEach((item, i) => out.push(...violations(item, items, `${at}[${i}]`)))
  }
  if (kind === "object") {
    const object = value as Record<string, unknown>
    const properties = (schema["properties"] as Record<string, JsonSchema> | undefined) ?? {}
    for (const key of (schema["required"] as ReadonlyArray<string> | undefined) ?? []) if (!(key in object)) out.push(`${at}: no ${key}`)
    for (const [key, item] of Object.entries(object)) {
      if (properties[key] !== undefined) out.push(...violations(item, properties[key], `${at}.${key}`))
      else if (schema["additionalProperties"] === false && !known.has(key)) out.push(`${at}: unexpected ${key}`)
      else if (typeof schema["additionalProperties"] === "object") out.push(...violations(item, schema["additionalProperties"] as JsonSchema, `${at}.${key}`))
    }
  }
  return out
}


/** The constant values a schema's property may take (its `enum` or `const`, through `$ref` and `allOf`), if it says. */
const constantsOf = (schema: JsonSchema, key: string): ReadonlyArray<unknown> | undefined => {
  const ref = schema["$ref"]
  if (typeof ref === "string") return constantsOf(schemas[ref.split("/").at(-1)!]!, key)
  let property = propertiesOf(schema)[key]
  if (typeof property?.["$ref"] === "string") property = schemas[(property["$ref"] as string).split("/").at(-1)!]!
  const own = property === undefined ? undefined : (property["enum"] as ReadonlyArray<unknown> | undefined) ?? ("const" in property ? [property["const"]] : undefined)
  if (own !== undefined) return own
  for (const part of (schema["allOf"] as ReadonlyArray<JsonSchema> | undefined) ?? []) {
    const found = constantsOf(part, key)
    if (found !== undefined) return found
  }
  return undefined
}

/** Whether a union's option may be the value's shape by its `object` and `type` (an option that names neither may). */
const admits = (option: JsonSchema, value: unknown): boolean => {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return true
  return ["object", "type"].every((key) => {
    const allowed = constantsOf(option, key)
    return allowed === undefined || !(key in value) || allowed.includes((value as Record<string, unknown>)[key])
  })
}

/** The properties a schema declares, through its `$ref`. */
const propertiesOf = (schema: JsonSchema): Record<string, JsonSchema> => {
  const ref = schema["$ref"]
  if (typeof ref === "string") return propertiesOf(schemas[ref.split("/").at(-1)!]!)
  return (schema["properties"] as Record<string, JsonSchema> | undefined) ?? {}
}

interface Operation {
  readonly operationId?: string
  readonly responses?: Record<string, { readonly content?: Record<string, { readonly schema?: JsonSchema }> }>
}
const operations = (JSON.parse(readFileSync(createRequire(import.meta.url).resolve("@gitbook/api/spec/openapi.json"), "utf8")) as {
  paths: Record<string, Record<string, Operation>>
}).paths

/** The schema of what GitBook's operation `operationId` answers with `status` (JSON). */
export const responseSchema = (operationId: string, status = "200"): JsonSchema => {
  const operation = Object.values(operations).flatMap((path) => Object.values(path)).find((o) => o.operationId === operationId)
  const schema = operation?.responses?.[status]?.content?.["application/json"]?.schema
  if (schema === undefined) throw new Error(`GitBook's spec has no ${status} JSON answer for ${operationId}`)
  return schema
}
