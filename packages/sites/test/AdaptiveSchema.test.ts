import { assert, describe, it } from "@effect/vitest"
import * as AdaptiveSchema from "../src/AdaptiveSchema.ts"
import * as Condition from "../src/Condition.ts"

/** A schema as GitBook's editor writes one: signed claims beside the unsigned ones. */
const sample = {
  $schema: "http://json-schema.org/draft-07/schema#",
  type: "object",
  properties: {
    isBetaUser: { type: "boolean", description: "Whether the visitor is in the beta program" },
    plan: { type: "string", enum: ["free", "pro", "enterprise"], description: "Subscription plan" },
    seats: { type: "number", description: "Seats in the visitor's organization" },
    email: { type: "string", description: "Email address" },
    roles: { type: "array", items: { type: "string", enum: ["admin", "editor"], description: "A role" }, description: "Roles" },
    organization: {
      type: "object",
      description: "The visitor's organization",
      properties: {
        verified: { type: "boolean", description: "Verified organization" },
        region: { type: "string", enum: ["eu", "us"], description: "Data region" }
      },
      additionalProperties: false
    },
    unsigned: {
      type: "object",
      description: "Unsigned claims of the site visitor.",
      properties: {
        language: { type: "string", enum: ["en", "fr"], description: "Preferred language" },
        newsletter: { type: "boolean", description: "Subscribed to the newsletter" }
      },
      additionalProperties: false
    }
  },
  additionalProperties: false
}

const withClaim = (name: string, claim: unknown) => ({
  ...sample,
  properties: { ...sample.properties, [name]: claim }
})

describe("AdaptiveSchema.problem", () => {
  it("accepts GitBook's shape, with or without unsigned claims", () => {
    assert.isUndefined(AdaptiveSchema.problem(sample))
    assert.isUndefined(AdaptiveSchema.problem({ type: "object", properties: {}, additionalProperties: false }))
    assert.isUndefined(
      AdaptiveSchema.problem({
        type: "object",
        properties: { beta: { type: "boolean", description: "Beta" } },
        additionalProperties: false
      })
    )
  })

  it("names the field of a claim whose type is not one GitBook allows", () => {
    assert.strictEqual(
      AdaptiveSchema.problem(withClaim("plan", { type: "integer", description: "Plan" })),
      'jsonSchema.properties.plan.type: must be equal to one of the allowed values ("boolean", "string", "number", "array", "object")'
    )
  })

  it("reports what the draft-07 meta-schema rejects, at its place", () => {
    const message = AdaptiveSchema.problem(withClaim("plan", { type: "strin", description: "Plan" }))
    assert.match(message ?? "", /^jsonSchema\.properties\.plan\.type: /)
    assert.match(
      AdaptiveSchema.problem(withClaim("plan", { type: "string", enum: "pro", description: "Plan" })) ?? "",
      /^jsonSchema\.properties\.plan\.enum: must be array/
    )
    assert.match(
      AdaptiveSchema.problem({ ...sample, properties: "plan" }) ?? "",
      /^jsonSchema\.properties: must be object/
    )
  })

  it("requires what GitBook requires, naming the missing or extra field", () => {
    const cases: ReadonlyArray<readonly [unknown, string]> = [
      [withClaim("plan", { type: "string" }), "jsonSchema.properties.plan: must have required property 'description'"],
      [
        withClaim("plan", { type: "boolean", description: "Plan", default: true }),
        "jsonSchema.properties.plan: must NOT have additional properties (`default`)"
      ],
      [
        withClaim("plan", { type: "number", description: "Seats", enum: [1, 2] }),
        "jsonSchema.properties.plan: must NOT have additional properties (`enum`)"
      ],
      [
        withClaim("roles", { type: "array", description: "Roles" }),
        "jsonSchema.properties.roles: must have required property 'items'"
      ],
      [
        withClaim("roles", { type: "array", description: "Roles", items: { type: "object", description: "x", properties: {}, additionalProperties: false } }),
        'jsonSchema.properties.roles.items.type: must be equal to one of the allowed values ("boolean", "string", "number")'
      ],
      [
        withClaim("org", { type: "object", description: "Org", properties: {} }),
        "jsonSchema.properties.org: must have required property 'additionalProperties'"
      ],
      [
        withClaim("org", {
          type: "object",
          description: "Org",
          properties: { size: { type: "number" } },
          additionalProperties: false
        }),
        "jsonSchema.properties.org.properties.size: must have required property 'description'"
      ],
      [
        withClaim("with space", { type: "string", enum: [1], description: "x" }),
        'jsonSchema.properties["with space"].enum[0]: must be string'
      ],
      [{ ...sample, type: "array" }, 'jsonSchema.type: must be equal to one of the allowed values ("object")'],
      [{ ...sample, additionalProperties: true }, "jsonSchema.additionalProperties: must be equal to one of the allowed values (false)"],
      [{ type: "object", properties: {} }, "jsonSchema: must have required property 'additionalProperties'"],
      [{ ...sample, required: ["plan"] }, "jsonSchema: must NOT have additional properties (`required`)"],
      [
        { ...sample, $schema: "https://json-schema.org/draft/2020-12/schema" },
        'jsonSchema.$schema: must be equal to one of the allowed values ("http://json-schema.org/draft-07/schema#")'
      ],
      [
        withClaim("unsigned", { type: "object", description: "Unsigned claims of the site visitor.", properties: { a: { type: "boolean", description: "A" } } }),
        "jsonSchema.properties.unsigned: must have required property 'additionalProperties'"
      ],
      [
        withClaim("unsigned", { type: "string", description: "Unsigned claims of the site visitor.", properties: {}, additionalProperties: false }),
        'jsonSchema.properties.unsigned.type: must be equal to one of the allowed values ("object")'
      ]
    ]
    for (const [schema, expected] of cases) {
      assert.strictEqual(AdaptiveSchema.problem(schema), expected)
    }
  })

  it("rejects what is not a schema object", () => {
    for (const value of [null, "{}", 42, [], true]) {
      assert.strictEqual(AdaptiveSchema.problem(value), "jsonSchema: must be an object")
    }
  })
})

describe("AdaptiveSchema.templateConditions", () => {
  it("proposes one condition per boolean claim and per enum value, nested and unsigned by path", () => {
    assert.deepStrictEqual(AdaptiveSchema.templateConditions(sample), [
      { description: "Whether the visitor is in the beta program", condition: "visitor.claims.isBetaUser" },
      { description: "Subscription plan: free", condition: 'visitor.claims.plan === "free"' },
      { description: "Subscription plan: pro", condition: 'visitor.claims.plan === "pro"' },
      { description: "Subscription plan: enterprise", condition: 'visitor.claims.plan === "enterprise"' },
      { description: "Roles: admin", condition: 'visitor.claims.roles.includes("admin")' },
      { description: "Roles: editor", condition: 'visitor.claims.roles.includes("editor")' },
      { description: "Verified organization", condition: "visitor.claims.organization.verified" },
      { description: "Data region: eu", condition: 'visitor.claims.organization.region === "eu"' },
      { description: "Data region: us", condition: 'visitor.claims.organization.region === "us"' },
      { description: "Preferred language: en", condition: 'visitor.claims.unsigned.language === "en"' },
      { description: "Preferred language: fr", condition: 'visitor.claims.unsigned.language === "fr"' },
      { description: "Subscribed to the newsletter", condition: "visitor.claims.unsigned.newsletter" }
    ])
  })

  it("proposes conditions that parse and hold for the visitors they describe", () => {
    const claims = {
      isBetaUser: true,
      plan: "pro",
      roles: ["editor"],
      organization: { verified: true, region: "eu" },
      unsigned: { language: "fr", newsletter: true }
    }
    const held = AdaptiveSchema.templateConditions(sample).filter(({ condition }) => {
      const result = Condition.parse(condition)
      assert.isTrue(result.ok, condition)
      return result.ok && Condition.evaluate(result.condition, claims)
    })
    assert.deepStrictEqual(
      held.map(({ condition }) => condition),
      [
        "visitor.claims.isBetaUser",
        'visitor.claims.plan === "pro"',
        'visitor.claims.roles.includes("editor")',
        "visitor.claims.organization.verified",
        'visitor.claims.organization.region === "eu"',
        'visitor.claims.unsigned.language === "fr"',
        "visitor.claims.unsigned.newsletter"
      ]
    )
  })

  it("quotes claim names that are not identifiers and escapes values", () => {
    const conditions = AdaptiveSchema.templateConditions({
      type: "object",
      properties: { "org-tier": { type: "string", enum: ['say "hi"'], description: "Tier" } },
      additionalProperties: false
    })
    assert.deepStrictEqual(conditions, [{ description: 'Tier: say "hi"', condition: 'visitor.claims["org-tier"] === "say \\"hi\\""' }])
    const parsed = Condition.parse(conditions[0]!.condition)
    assert.isTrue(parsed.ok && Condition.evaluate(parsed.condition, { "org-tier": 'say "hi"' }))
  })

  it("proposes nothing for an invalid schema or one without booleans and enums", () => {
    assert.deepStrictEqual(AdaptiveSchema.templateConditions({ type: "object" }), [])
    assert.deepStrictEqual(
      AdaptiveSchema.templateConditions({
        type: "object",
        properties: { email: { type: "string", description: "Email" }, n: { type: "number", description: "N" } },
        additionalProperties: false
      }),
      []
    )
  })
})

describe("AdaptiveSchema.claimsValidator", () => {
  it("accepts claims that fit and names the claim that does not", () => {
    const validateClaims = AdaptiveSchema.claimsValidator()
    const claims = { isBetaUser: true, plan: "pro", unsigned: { language: "en" }, exp: 1, iat: 0 }
    assert.isUndefined(validateClaims(sample, claims))
    assert.strictEqual(
      validateClaims(sample, { plan: "gold" }),
      'claims.plan: must be equal to one of the allowed values ("free", "pro", "enterprise")'
    )
    assert.strictEqual(validateClaims(sample, { seats: "3" }), "claims.seats: must be number")
    assert.strictEqual(validateClaims(sample, { unknown: 1 }), "claims: must NOT have additional properties (`unknown`)")
    // The same schema read again (a new object with the same text) is checked the same way.
    assert.strictEqual(
      validateClaims(JSON.parse(JSON.stringify(sample)), { unsigned: { language: "de" } }),
      'claims.unsigned.language: must be equal to one of the allowed values ("en", "fr")'
    )
  })
})
