/**
 * GitBook's own schema for its answers (`spec/openapi.json` of `@gitbook/api`), compiled with Ajv:
 * which GitBook operation a request is, and whether an answer's body is one GitBook's schema allows.
 *
 * An answer may carry more than GitBook's fields, never fewer or different: the spec's
 * `additionalProperties: false` is dropped, and its `oneOf` unions are read as `anyOf` (an object
 * with a field more can match two branches, which `oneOf` refuses). So `Document`'s empty variant
 * (`{}`, "no content") reads as GitBook's TypeScript client reads it: a page listed in a revision
 * or a tree carries no body (`markdown` or `document`), which single-page reads add. The exceptions are written
 * down in `load`: where GitBook's own answers differ from its schema (`OpenAPISpecContent.filesystem`),
 * Quire's one merge rule and one Git installation target more, a SAML provider not yet set up, and
 * a site's `insights` absent while it records nothing.
 */
import { createRequire } from "node:module"
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js"

interface Operation {
  readonly operationId: string
  readonly method: string
  readonly template: string
  readonly segments: ReadonlyArray<string>
  readonly literals: number
}

type Json = null | boolean | number | string | ReadonlyArray<Json> | { readonly [key: string]: Json }

const lenient = (value: Json): Json => {
  if (Array.isArray(value)) return value.map(lenient)
  if (value === null || typeof value !== "object") return value
  const out: Record<string, Json> = {}
  for (const [key, field] of Object.entries(value as Record<string, Json>)) {
    if (key === "additionalProperties" && field === false) continue
    if (key === "discriminator") continue
    out[key === "oneOf" ? "anyOf" : key] = lenient(field)
  }
  return out
}

const dateTime = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/

const load = () => {
  const require = createRequire(import.meta.url)
  const spec = require("@gitbook/api/spec/openapi.json") as { paths: Record<string, Record<string, { operationId?: string }>> }
  const operations: Array<Operation> = []
  for (const [template, item] of Object.entries(spec.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      if (operation.operationId === undefined) continue
      const segments = template.split("/").filter((s) => s !== "")
      operations.push({ operationId: operation.operationId, method: method.toUpperCase(), template, segments, literals: segments.filter((s) => !s.startsWith("{")).length })
    }
  }
  // The most literal template first: `/orgs/{id}/sites/{siteId}/spaces/git/installations` before a
  // template whose parameter would take `git`.
  operations.sort((a, b) => b.literals - a.literals)
  const ajv = new Ajv2020({
    strict: false,
    allErrors: true,
    formats: {
      "date-time": (s: string) => dateTime.test(s) && !Number.isNaN(Date.parse(s)),
      "date": /^\d{4}-\d{2}-\d{2}$/,
      "uri": (s: string) => URL.canParse(s),
      "email": /^[^\s@]+@[^\s@]+$/,
      "uuid": /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i,
      "emoji": true,
      "icon": true,
      "byte": true,
      "int32": true
    }
  })
  const prepared = lenient(spec as unknown as Json) as { components: { schemas: Record<string, { properties: Record<string, unknown> }> } }
  // Where GitBook's schema and GitBook's own answers part, its answers win: an OpenAPI spec's
  // `filesystem` is Scalar's, a list of files, which GitBook answers and its renderer reads
  // (`filesystem.find(...)`), where the schema says `object`.
  prepared.components.schemas["OpenAPISpecContent"]!.properties["filesystem"] = { type: ["object", "array"] }
  // Quire's one merge rule more (docs/api.md): `allow_author_approval` lets a change request's author approve it.
  const mergeRule = prepared.components.schemas["MergeRule"] as unknown as { anyOf: Array<unknown> }
  mergeRule.anyOf.push({ type: "object", properties: { rule: { enum: ["allow_author_approval"] } }, required: ["rule"] })
  // Quire's one Git installation target more: the whole organization (its settings' installations).
  const target = prepared.components.schemas["GitSyncInstallationTarget"] as unknown as { anyOf?: Array<unknown> }
  target.anyOf?.push({ type: "object", properties: { type: { const: "organization" }, organizationId: { type: "string" } }, required: ["type", "organizationId"] })
  // A site records views only once they are turned on, which `insights` set says: absent, they are off.
  const siteSettings = prepared.components.schemas["SiteCustomizationSettingsBase"] as unknown as { required: Array<string> }
  siteSettings.required = siteSettings.required.filter((field) => field !== "insights")
  // A SAML provider created with its label alone has no sign-in URL yet: "" until it is set up.
  const saml = prepared.components.schemas["OrganizationSAMLProvider"]!.properties
  saml["ssoURL"] = { anyOf: [saml["ssoURL"], { const: "" }] }
  ajv.addSchema(prepared, "gitbook")
  return { spec: spec as unknown as { paths: Record<string, Record<string, { responses?: Record<string, { content?: Record<string, unknown> }> }>> }, operations, ajv }
}

let loaded: ReturnType<typeof load> | undefined
const schema = () => (loaded ??= load())

/** GitBook's operation answering `method` on `path` (the API's path, `/v1` removed, no query), if GitBook has one. */
export const operationOf = (method: string, path: string): Operation | undefined => {
  const segments = path.split("/").filter((s) => s !== "")
  return schema().operations.find((op) =>
    op.method === method && op.segments.length === segments.length &&
    op.segments.every((s, i) => s.startsWith("{") || s === segments[i])
  )
}

// A JSON pointer in a URI fragment: `~` and `/` escaped, then `{` and `}` (of path templates) percent-encoded.
const pointer = (segment: string) => encodeURIComponent(segment.replaceAll("~", "~0").replaceAll("/", "~1"))
const validators = new Map<string, ValidateFunction | "none">()
const branchValidators = new Map<string, ValidateFunction>()

export interface Verdict {
  readonly operationId: string
  /** GitBook's statuses for the operation when it has no schema for this one (`undefined` when it has). */
  readonly unknownStatus?: ReadonlyArray<string>
  readonly errors: ReadonlyArray<string>
}

const describe = (validate: ValidateFunction) =>
  // The deepest first: a union's failure lists every branch's complaint, the closest branch's deepest.
  [...(validate.errors ?? [])].sort((a, b) => b.instancePath.split("/").length - a.instancePath.split("/").length).map((e) =>
    `${e.instancePath || "(body)"} ${e.message ?? e.keyword}${e.keyword === "enum" ? ` ${JSON.stringify(e.params["allowedValues"])}` : ""}`
  )

/** The schema at `ref` (a pointer into the lenient spec), its `$ref`s followed. */
const resolve = (ref: string): { readonly ref: string; readonly schema: Record<string, unknown> } => {
  const { ajv } = schema()
  const found = ajv.getSchema(`gitbook#${ref}`)?.schema as Record<string, unknown> | undefined
  const next = found?.["$ref"]
  return typeof next === "string" && next.startsWith("#") ? resolve(next.slice(1)) : { ref, schema: found ?? {} }
}

/** A union's failure named by its closest branch: the one with the fewest complaints. */
const closest = (ref: string, body: unknown): ReadonlyArray<string> | undefined => {
  const { ajv } = schema()
  const union = resolve(ref)
  const branches = union.schema["anyOf"]
  if (!Array.isArray(branches)) return undefined
  let best: ReadonlyArray<string> | undefined
  branches.forEach((_, i) => {
    const branch = `${union.ref}/anyOf/${i}`
    const validate = branchValidators.get(branch) ?? ajv.compile({ $ref: `gitbook#${branch}` })
    branchValidators.set(branch, validate)
    if (validate(body)) return
    const errors = closest(`${union.ref}/anyOf/${i}`, body) ?? describe(validate)
    if (best === undefined || errors.length < best.length) best = errors
  })
  return best
}

/** Whether `body`, answered with `status` to `operation`, is an answer GitBook's schema allows. */
export const check = (operation: Operation, status: number, body: unknown): Verdict => {
  const { spec, ajv } = schema()
  const responses = spec.paths[operation.template]?.[operation.method.toLowerCase()]?.responses ?? {}
  const key = [String(status), `${String(status)[0]}XX`, "default"].find((k) => responses[k] !== undefined)
  if (key === undefined) return { operationId: operation.operationId, unknownStatus: Object.keys(responses), errors: [] }
  const ref = `/paths/${pointer(operation.template)}/${operation.method.toLowerCase()}/responses/${key}/content/application~1json/schema`
  const id = `${operation.template} ${operation.method} ${key}`
  let validate = validators.get(id)
  if (validate === undefined) {
    const json = responses[key]?.content?.["application/json"] as { schema?: unknown } | undefined
    validate = json?.schema === undefined ? "none" : ajv.compile({ $ref: `gitbook#${ref}` })
    validators.set(id, validate)
  }
  if (validate === "none" || validate(body)) return { operationId: operation.operationId, errors: [] }
  return { operationId: operation.operationId, errors: closest(ref, body) ?? describe(validate) }
}
