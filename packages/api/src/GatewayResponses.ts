/**
 * What the server's gateway (rate limits, idempotency keys) answers before any handler runs, added
 * to the OpenAPI document: every `/v1` operation may be a 429, and every write a 409 or a 422 on
 * its `Idempotency-Key` (each declared once in `components` and referenced). The handlers never return these, so they are described here rather than
 * as endpoint errors.
 */

/** Methods whose `Idempotency-Key` the gateway honours. */
export const idempotentMethods: ReadonlyArray<string> = ["post", "put", "patch"]

/** The error envelope of `code`, as the contract's own errors are encoded (`ApiErrors`). */
export const envelope = (code: number) => ({
  type: "object",
  properties: {
    error: {
      type: "object",
      properties: {
        code: { type: "number", enum: [code] },
        message: { type: "string" },
        field: { type: "string", description: "The request field the error is about, as a path: `a.b[0].c`" }
      },
      required: ["code", "message"],
      additionalProperties: false
    }
  },
  required: ["error"],
  additionalProperties: false
})

const integerHeader = (description: string) => ({ description, schema: { type: "integer", minimum: 0 } })

/** GitBook's rate-limit headers, on every `/v1` answer. */
const rateLimitHeaders = {
  "X-RateLimit-Limit": integerHeader("Requests the caller's budget allows in the current window"),
  "X-RateLimit-Remaining": integerHeader("Requests left in the current window"),
  "X-RateLimit-Reset": integerHeader("When the current window ends, in seconds since the epoch")
}

const response = (description: string, schema: string, headers?: Record<string, unknown>) => ({
  description,
  ...(headers === undefined ? {} : { headers }),
  content: { "application/json": { schema: { $ref: `#/components/schemas/${schema}` } } }
})

const tooManyRequests = response(
  "Rate limited: the caller (its token, else its address) spent its budget for the window",
  "TooManyRequestsEncoded",
  { "Retry-After": integerHeader("Seconds until the budget is renewed"), ...rateLimitHeaders }
)

const keyInUse = "A request with this Idempotency-Key is still running; retry once it has answered"
const keyReused = response("This Idempotency-Key was used with a different request in the last 24 hours", "UnprocessableEntityEncoded")

const idempotencyKey = {
  name: "Idempotency-Key",
  in: "header",
  required: false,
  description: "Replays the first answer (status and body) to the same request under the same key for 24 hours",
  // 255: the gateway's maxKeyLength; a longer or blank key is a 400.
  schema: { type: "string", minLength: 1, maxLength: 255 }
}

type Spec = Record<string, any>

const httpMethods = new Set(["get", "put", "post", "delete", "options", "head", "patch", "trace"])

/** Adds the gateway's answers to every `/v1` operation of an OpenAPI document (an `OpenApi.annotations` transform). */
export const withGatewayResponses = (spec: Spec): Spec => {
  const schemas: Spec = { ...spec["components"]?.["schemas"] }
  schemas["TooManyRequestsEncoded"] ??= envelope(429)
  schemas["ConflictEncoded"] ??= envelope(409)
  schemas["UnprocessableEntityEncoded"] ??= envelope(422)
  const paths: Spec = {}
  for (const [path, item] of Object.entries<Spec>(spec["paths"] ?? {})) {
    if (!path.startsWith("/v1/")) {
      paths[path] = item
      continue
    }
    const operations: Spec = {}
    for (const [method, operation] of Object.entries<Spec>(item)) {
      if (!httpMethods.has(method)) {
        operations[method] = operation
        continue
      }
      const responses: Spec = { ...operation["responses"], 429: { $ref: "#/components/responses/TooManyRequests" } }
      let parameters = operation["parameters"]
      if (idempotentMethods.includes(method)) {
        const conflict = responses["409"]
        responses["409"] = conflict === undefined
          ? { $ref: "#/components/responses/IdempotencyKeyInUse" }
          : { ...conflict, description: `${conflict.description}; or: ${keyInUse}` }
        responses["422"] = { $ref: "#/components/responses/IdempotencyKeyReused" }
        parameters = [...(parameters ?? []), { $ref: "#/components/parameters/IdempotencyKey" }]
      }
      operations[method] = { ...operation, ...(parameters === undefined ? {} : { parameters }), responses }
    }
    paths[path] = operations
  }
  // Declared once and referenced by each operation: the document is read by tools and people whole.
  const components = {
    ...spec["components"],
    schemas,
    responses: {
      ...spec["components"]?.["responses"],
      TooManyRequests: tooManyRequests,
      IdempotencyKeyInUse: response(keyInUse, "ConflictEncoded"),
      IdempotencyKeyReused: keyReused
    },
    parameters: { ...spec["components"]?.["parameters"], IdempotencyKey: idempotencyKey }
  }
  return { ...spec, components, paths }
}

/**
 * The error answers every operation lists the same way (`400` BadRequest, `401` Unauthorized, …: a
 * description and the envelope's schema) declared once in `components.responses` and referenced,
 * so the document a reader's tool processes is a third smaller.
 */
export const withSharedErrorResponses = (spec: Spec): Spec => {
  const shared: Spec = { ...spec["components"]?.["responses"] }
  const paths: Spec = {}
  for (const [path, item] of Object.entries<Spec>(spec["paths"] ?? {})) {
    const operations: Spec = {}
    for (const [method, operation] of Object.entries<Spec>(item)) {
      if (!httpMethods.has(method) || operation["responses"] === undefined) {
        operations[method] = operation
        continue
      }
      const responses: Spec = {}
      for (const [status, answer] of Object.entries<Spec>(operation["responses"])) {
        const keys = Object.keys(answer ?? {}).toSorted().join(",")
        const name = answer?.["description"]
        const ref = answer?.["content"]?.["application/json"]?.["schema"]?.["$ref"]
        const plain = Number(status) >= 400 && keys === "content,description" && typeof name === "string" && /^[A-Za-z]+$/.test(name) &&
          typeof ref === "string" && Object.keys(answer["content"]).length === 1
        if (!plain || (shared[name] !== undefined && JSON.stringify(shared[name]) !== JSON.stringify(answer))) {
          responses[status] = answer
          continue
        }
        shared[name] = answer
        responses[status] = { $ref: `#/components/responses/${name}` }
      }
      operations[method] = { ...operation, responses }
    }
    paths[path] = operations
  }
  return { ...spec, components: { ...spec["components"], responses: shared }, paths }
}
