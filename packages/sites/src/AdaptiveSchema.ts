/**
 * A site's adaptive schema: the JSON Schema (draft-07) of its visitors' claims, checked with Ajv
 * against the draft-07 meta-schema and GitBook's shape (`SiteAdaptiveJSONSchema`), the template
 * conditions GitBook proposes from it, and the check of a visitor's claims against it.
 */
import { BoundedCache } from "@quire/kernel"
import AjvModule, { type ErrorObject, type ValidateFunction } from "ajv"

// ajv is CommonJS: under NodeNext its default import is the module, whose `default` is the class.
const Ajv = AjvModule.default

/** The `$schema` GitBook accepts. */
export const draft07 = "http://json-schema.org/draft-07/schema#"

/** The claim types GitBook's `SiteAdaptiveJSONSchemaPrimitives` allow. */
const primitiveTypes = ["boolean", "string", "number"] as const

/**
 * GitBook's `SiteAdaptiveJSONSchemaClaimsProperties` as one draft-07 schema. GitBook writes it as a
 * `oneOf` of shapes; here `type` chooses the shape with `if`/`then`, so that a mistake is reported
 * at the field that is wrong instead of as a list of every shape that did not match.
 */
/** A draft-07 `if`/`then` applying `then` to claims of these types. */
const whenType = (types: ReadonlyArray<string>, then: Record<string, unknown>): Record<string, unknown> => ({
  if: { properties: { type: { enum: types } } },
  // oxlint-disable-next-line unicorn/no-thenable -- JSON Schema's keyword, not a promise
  then
})

const claimShape = (types: ReadonlyArray<string>): Record<string, unknown> => ({
  type: "object",
  required: ["type", "description"],
  properties: { type: { enum: types } },
  allOf: [
    whenType(["boolean", "number"], {
      properties: { type: true, description: { type: "string" } },
      additionalProperties: false
    }),
    whenType(["string"], {
      properties: { type: true, description: { type: "string" }, enum: { type: "array", items: { type: "string" } } },
      additionalProperties: false
    }),
    ...(types.includes("array")
      ? [
          whenType(["array"], {
            required: ["items"],
            properties: { type: true, description: { type: "string" }, items: { $ref: "#/definitions/primitive" } },
            additionalProperties: false
          })
        ]
      : []),
    ...(types.includes("object")
      ? [
          whenType(["object"], {
            required: ["properties", "additionalProperties"],
            properties: {
              type: true,
              description: { type: "string" },
              properties: { type: "object", additionalProperties: { $ref: "#/definitions/claim" } },
              additionalProperties: { enum: [false] }
            },
            additionalProperties: false
          })
        ]
      : [])
  ]
})

/** GitBook's `SiteAdaptiveJSONSchema`; `unsigned.description` may be any text. */
const gitbookShape = {
  $schema: draft07,
  definitions: {
    primitive: claimShape(primitiveTypes),
    claim: claimShape([...primitiveTypes, "array", "object"])
  },
  type: "object",
  required: ["type", "properties", "additionalProperties"],
  properties: {
    $schema: { enum: [draft07] },
    type: { enum: ["object"] },
    properties: {
      type: "object",
      properties: {
        unsigned: {
          type: "object",
          required: ["type", "description", "properties", "additionalProperties"],
          properties: {
            type: { enum: ["object"] },
            description: { type: "string" },
            properties: { type: "object", additionalProperties: { $ref: "#/definitions/claim" } },
            additionalProperties: { enum: [false] }
          },
          additionalProperties: false
        }
      },
      additionalProperties: { $ref: "#/definitions/claim" }
    },
    additionalProperties: { enum: [false] }
  },
  additionalProperties: false
}

const ajv = new Ajv({ strict: false, allErrors: false })
const checkShape = ajv.compile(gitbookShape)

/** Where an Ajv error is, as a path under `root` (`jsonSchema.properties.plan.type`). */
const pathOf = (root: string, pointer: string): string =>
  pointer
    .split("/")
    .slice(1)
    .map((segment) => segment.replaceAll("~1", "/").replaceAll("~0", "~"))
    .reduce(
      (path, key) =>
        /^[A-Za-z_$][\w$]*$/.test(key)
          ? `${path}.${key}`
          : /^(0|[1-9]\d*)$/.test(key)
          ? `${path}[${key}]`
          : `${path}[${JSON.stringify(key)}]`,
      root
    )

const describe = (root: string, errors: ReadonlyArray<ErrorObject> | null | undefined): string => {
  // An unmet `then` is reported after the error inside it, which names the field.
  const error = errors?.find((e) => e.keyword !== "if") ?? errors?.[0]
  if (error === undefined) return `${root}: is not valid`
  const params = error.params as Record<string, unknown>
  let detail = ""
  if (error.keyword === "enum" && Array.isArray(params["allowedValues"])) {
    detail = ` (${params["allowedValues"].map((v) => JSON.stringify(v)).join(", ")})`
  } else if (error.keyword === "additionalProperties" && typeof params["additionalProperty"] === "string") {
    detail = ` (\`${params["additionalProperty"]}\`)`
  }
  return `${pathOf(root, error.instancePath)}: ${error.message ?? "is not valid"}${detail}`
}

/** What is wrong with an adaptive schema, naming the field; undefined when it is valid. */
export const problem = (jsonSchema: unknown): string | undefined => {
  if (typeof jsonSchema !== "object" || jsonSchema === null || Array.isArray(jsonSchema)) {
    return "jsonSchema: must be an object"
  }
  // Ajv would look another `$schema` up among its meta-schemas; GitBook takes draft-07 only.
  if (Object.hasOwn(jsonSchema, "$schema") && (jsonSchema as Record<string, unknown>)["$schema"] !== draft07) {
    return `jsonSchema.$schema: must be equal to one of the allowed values (${JSON.stringify(draft07)})`
  }
  let valid: boolean
  try {
    valid = ajv.validateSchema(jsonSchema) as boolean
  } catch (error) {
    return `jsonSchema: ${error instanceof Error ? error.message : String(error)}`
  }
  if (!valid) return describe("jsonSchema", ajv.errors)
  if (!checkShape(jsonSchema)) return describe("jsonSchema", checkShape.errors)
  return undefined
}

export interface TemplateCondition {
  readonly description: string
  readonly condition: string
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

const memberPath = (path: string, key: string): string =>
  /^[A-Za-z_$][\w$]*$/.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`

/** The values of a string enum claim; none for any other claim. */
const enumValues = (schema: Record<string, unknown>): ReadonlyArray<string> =>
  schema["type"] === "string" && Array.isArray(schema["enum"])
    ? schema["enum"].filter((v): v is string => typeof v === "string")
    : []

const conditionsOf = (
  properties: Record<string, unknown>,
  path: string,
  out: Array<TemplateCondition>
): void => {
  for (const [key, claim] of Object.entries(properties)) {
    if (!isRecord(claim)) continue
    const at = memberPath(path, key)
    const description = typeof claim["description"] === "string" && claim["description"] !== "" ? claim["description"] : key
    switch (claim["type"]) {
      case "boolean":
        out.push({ description, condition: at })
        break
      case "string":
        for (const value of enumValues(claim)) {
          out.push({ description: `${description}: ${value}`, condition: `${at} === ${JSON.stringify(value)}` })
        }
        break
      case "array":
        if (isRecord(claim["items"])) {
          for (const value of enumValues(claim["items"])) {
            out.push({
              description: `${description}: ${value}`,
              condition: `${at}.includes(${JSON.stringify(value)})`
            })
          }
        }
        break
      case "object":
        if (isRecord(claim["properties"])) conditionsOf(claim["properties"], at, out)
        break
    }
  }
}

/**
 * The conditions GitBook proposes for a schema: one per boolean claim (`visitor.claims.beta`), one
 * per value of a string enum (`visitor.claims.plan === "pro"`) or of an array of them
 * (`visitor.claims.roles.includes("admin")`), nested objects and `unsigned` followed by path.
 * An invalid schema proposes none.
 */
export const templateConditions = (jsonSchema: unknown): ReadonlyArray<TemplateCondition> => {
  if (problem(jsonSchema) !== undefined || !isRecord(jsonSchema) || !isRecord(jsonSchema["properties"])) return []
  const out: Array<TemplateCondition> = []
  conditionsOf(jsonSchema["properties"], "visitor.claims", out)
  return out
}

/** Compiled claim validators a validator keeps. */
const compiledLimit = 100

/** JWT's registered claims, which a visitor token carries beside the site's own. */
const registeredClaims: ReadonlySet<string> = new Set(["iss", "sub", "aud", "exp", "nbf", "iat", "jti"])

/**
 * What is wrong with a visitor's claims for a site's schema (`claims.plan: must be equal to one of
 * the allowed values`); undefined when they fit, or when the schema itself is not valid. JWT's
 * registered claims (`exp`, `iat`...) are not the site's and are left out of the check.
 */
export type ValidateClaims = (jsonSchema: unknown, claims: Readonly<Record<string, unknown>>) => string | undefined

/**
 * A claims validator of its own (its owner's state): an Ajv instance and the validators it
 * compiled, by schema text, `compiledLimit` at most.
 */
export const claimsValidator = (): ValidateClaims => {
  const claimsAjv = new Ajv({ strict: false, allErrors: false })
  const compiled = BoundedCache.unsafeMake<string, ValidateFunction>({ name: "claims_validators", capacity: compiledLimit })
  return (jsonSchema, claims) => {
    if (!isRecord(jsonSchema) || problem(jsonSchema) !== undefined) return undefined
    const key = JSON.stringify(jsonSchema)
    let validate = compiled.get(key)
    if (validate === undefined) {
      validate = claimsAjv.compile(jsonSchema)
      // Ajv keeps what it compiled: emptying both when full lets the old validators go.
      if (compiled.size() >= compiledLimit) {
        compiled.clear()
        claimsAjv.removeSchema()
      }
      compiled.set(key, validate)
    }
    const own = Object.fromEntries(Object.entries(claims).filter(([name]) => !registeredClaims.has(name)))
    return validate(own) ? undefined : describe("claims", validate.errors)
  }
}
