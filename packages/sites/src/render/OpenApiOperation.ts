/**
 * One operation of an OpenAPI document (Swagger 2.0, OpenAPI 3.0 / 3.1, its `$ref`s resolved) as
 * the `{% openapi-operation %}` block shows it: summary, parameters, request body, responses and
 * examples. Pure and total: anything malformed is left out, never thrown.
 */

export interface OperationParameter {
  readonly in: string
  readonly name: string
  readonly required: boolean
  readonly type: string | undefined
  readonly description: string | undefined
}

export interface OperationBody {
  readonly contentType: string | undefined
  readonly required: boolean
  readonly description: string | undefined
  /** A summary of the schema (`object`, `array of Pet`...). */
  readonly schema: string | undefined
  /** An example as JSON text. */
  readonly example: string | undefined
}

export interface OperationResponse {
  readonly status: string
  readonly description: string | undefined
  readonly contentType: string | undefined
  readonly example: string | undefined
}

/** What the block shows of an operation. */
export interface OperationData {
  readonly method: string
  readonly path: string
  readonly summary: string | undefined
  readonly description: string | undefined
  readonly deprecated: boolean
  readonly parameters: ReadonlyArray<OperationParameter>
  readonly requestBody: OperationBody | undefined
  readonly responses: ReadonlyArray<OperationResponse>
}

type Obj = Readonly<Record<string, unknown>>

const isObj = (value: unknown): value is Obj => typeof value === "object" && value !== null && !Array.isArray(value)
const str = (value: unknown): string | undefined => (typeof value === "string" && value !== "" ? value : undefined)
const own = (o: Obj, key: string): unknown => (Object.hasOwn(o, key) ? o[key] : undefined)

const methods = new Set(["get", "put", "post", "delete", "options", "head", "patch", "trace"])

const refName = (ref: unknown): string | undefined => (typeof ref === "string" ? ref.split("/").pop() : undefined)

/** A schema in a few words: `string`, `array of Pet`, `integer (int64)`, `Pet | Error`. */
export const schemaSummary = (schema: unknown, depth = 0): string | undefined => {
  if (!isObj(schema) || depth > 4) return undefined
  const ref = refName(own(schema, "$ref"))
  if (ref !== undefined) return ref
  const title = str(own(schema, "title"))
  for (const key of ["oneOf", "anyOf", "allOf"]) {
    const list = own(schema, key)
    if (Array.isArray(list) && list.length > 0) {
      const parts = list.map((s) => schemaSummary(s, depth + 1) ?? "any")
      return title ?? parts.join(key === "allOf" ? " & " : " | ")
    }
  }
  let type = own(schema, "type")
  if (Array.isArray(type)) type = type.filter((t) => typeof t === "string").join(" | ")
  if (type === "array") return `array of ${schemaSummary(own(schema, "items"), depth + 1) ?? "any"}`
  const format = str(own(schema, "format"))
  const base = str(type) ?? (isObj(own(schema, "properties")) ? "object" : undefined)
  if (base === "object" && title !== undefined) return title
  return base === undefined ? title : format === undefined ? base : `${base} (${format})`
}

/** An example value built from a schema: its own examples first, else placeholders by type. */
export const exampleOf = (schema: unknown, depth = 0): unknown => {
  if (!isObj(schema) || depth > 6) return undefined
  if (own(schema, "example") !== undefined) return own(schema, "example")
  const examples = own(schema, "examples")
  if (Array.isArray(examples) && examples.length > 0) return examples[0]
  if (own(schema, "default") !== undefined) return own(schema, "default")
  const enumeration = own(schema, "enum")
  if (Array.isArray(enumeration) && enumeration.length > 0) return enumeration[0]
  for (const key of ["oneOf", "anyOf"]) {
    const list = own(schema, key)
    if (Array.isArray(list) && list.length > 0) return exampleOf(list[0], depth + 1)
  }
  const all = own(schema, "allOf")
  if (Array.isArray(all) && all.length > 0) {
    const merged: Record<string, unknown> = {}
    for (const part of all) {
      const value = exampleOf(part, depth + 1)
      if (isObj(value)) Object.assign(merged, value)
    }
    return merged
  }
  let type = own(schema, "type")
  if (Array.isArray(type)) type = type.find((t) => t !== "null")
  const properties = own(schema, "properties")
  if (type === "object" || (type === undefined && isObj(properties))) {
    const out: Record<string, unknown> = {}
    if (isObj(properties)) {
      for (const [name, property] of Object.entries(properties).slice(0, 50)) {
        const value = exampleOf(property, depth + 1)
        if (value !== undefined) out[name] = value
      }
    }
    return out
  }
  switch (type) {
    case "array": {
      const item = exampleOf(own(schema, "items"), depth + 1)
      return item === undefined ? [] : [item]
    }
    case "string": {
      const format = str(own(schema, "format"))
      return format === "date-time" ? "2024-01-01T00:00:00Z" : format === "date" ? "2024-01-01" : format === "uuid" ? "00000000-0000-0000-0000-000000000000" : "string"
    }
    case "integer":
    case "number":
      return 0
    case "boolean":
      return true
    case "null":
      return null
    default:
      return undefined
  }
}

const json = (value: unknown): string | undefined => {
  if (value === undefined) return undefined
  try {
    const text = JSON.stringify(value, null, 2)
    return text === undefined ? undefined : text.length > 20_000 ? `${text.slice(0, 20_000)}\n…` : text
  } catch {
    return undefined
  }
}

/** The JSON media type of a `content` map if any, else its first. */
const mediaOf = (content: unknown): { readonly type: string; readonly media: Obj } | undefined => {
  if (!isObj(content)) return undefined
  const entries = Object.entries(content).filter((e): e is [string, Obj] => isObj(e[1]))
  const chosen = entries.find(([type]) => /json/i.test(type)) ?? entries[0]
  return chosen === undefined ? undefined : { type: chosen[0], media: chosen[1] }
}

const mediaExample = (media: Obj): unknown => {
  if (own(media, "example") !== undefined) return own(media, "example")
  const examples = own(media, "examples")
  if (isObj(examples)) {
    const first = Object.values(examples)[0]
    if (isObj(first) && own(first, "value") !== undefined) return own(first, "value")
  }
  return exampleOf(own(media, "schema"))
}

/** The operation at `path` and `method` of `document`, or undefined. */
export const operationOf = (document: unknown, path: string, method: string): OperationData | undefined => {
  const verb = method.toLowerCase()
  if (!isObj(document) || !methods.has(verb)) return undefined
  const paths = own(document, "paths")
  const item = isObj(paths) ? own(paths, path) : undefined
  if (!isObj(item)) return undefined
  const operation = own(item, verb)
  if (!isObj(operation)) return undefined
  const swagger2 = typeof own(document, "swagger") === "string"

  // Path-level parameters apply unless the operation overrides them (same name and location).
  const list = (value: unknown): Array<Obj> => (Array.isArray(value) ? value.filter(isObj) : [])
  const byKey = new Map<string, Obj>()
  for (const p of [...list(own(item, "parameters")), ...list(own(operation, "parameters"))]) {
    const name = str(own(p, "name"))
    const location = str(own(p, "in"))
    if (name !== undefined && location !== undefined) byKey.set(`${location}\u0000${name}`, p)
  }
  const parameters: Array<OperationParameter> = []
  let requestBody: OperationBody | undefined
  for (const p of byKey.values()) {
    const location = str(own(p, "in"))!
    if (swagger2 && location === "body") {
      const schema = own(p, "schema")
      const consumes = own(operation, "consumes") ?? own(document, "consumes")
      requestBody = {
        contentType: Array.isArray(consumes) ? str(consumes[0]) : "application/json",
        required: own(p, "required") === true,
        description: str(own(p, "description")),
        schema: schemaSummary(schema),
        example: json(exampleOf(schema))
      }
      continue
    }
    parameters.push({
      in: location,
      name: str(own(p, "name"))!,
      required: own(p, "required") === true || location === "path",
      type: schemaSummary(isObj(own(p, "schema")) ? own(p, "schema") : p),
      description: str(own(p, "description"))
    })
  }

  const body = own(operation, "requestBody")
  if (isObj(body)) {
    const media = mediaOf(own(body, "content"))
    requestBody = {
      contentType: media?.type,
      required: own(body, "required") === true,
      description: str(own(body, "description")),
      schema: media === undefined ? undefined : schemaSummary(own(media.media, "schema")),
      example: media === undefined ? undefined : json(mediaExample(media.media))
    }
  }

  const responses: Array<OperationResponse> = []
  const declared = own(operation, "responses")
  if (isObj(declared)) {
    for (const [status, response] of Object.entries(declared)) {
      if (!isObj(response)) continue
      let contentType: string | undefined
      let example: string | undefined
      if (swagger2) {
        const examples = own(response, "examples")
        const schema = own(response, "schema")
        const given = isObj(examples) ? Object.entries(examples)[0] : undefined
        contentType = given?.[0] ?? (schema === undefined ? undefined : "application/json")
        example = json(given !== undefined ? given[1] : exampleOf(schema))
      } else {
        const media = mediaOf(own(response, "content"))
        contentType = media?.type
        example = media === undefined ? undefined : json(mediaExample(media.media))
      }
      responses.push({ status, description: str(own(response, "description")), contentType, example })
    }
  }

  return {
    method: verb,
    path,
    summary: str(own(operation, "summary")),
    description: str(own(operation, "description")),
    deprecated: own(operation, "deprecated") === true,
    parameters,
    requestBody,
    responses
  }
}
