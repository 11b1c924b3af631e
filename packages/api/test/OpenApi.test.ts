import { assert, describe, it } from "@effect/vitest"
import { OpenApi } from "effect/http-api"
import { Api } from "../src/index.ts"

/** An error envelope's JSON schema with another status code. */
const withCode = (schema: any, code: number) => ({
  ...schema,
  properties: { error: { ...schema.properties.error, properties: { ...schema.properties.error.properties, code: { type: "number", enum: [code] } } } }
})

describe("the API contract", () => {
  const document = OpenApi.fromApi(Api)
  const operations = Object.entries(document.paths).flatMap(([path, item]) =>
    Object.keys(item as object).map((method) => `${method.toUpperCase()} ${path}`)
  )

  it("serves every identity operation under /v1 with GitBook's paths", () => {
    for (const expected of [
      "GET /v1/user",
      "GET /v1/orgs",
      "POST /v1/orgs",
      "PATCH /v1/orgs/{organizationId}",
      "GET /v1/email-domains/{emailDomain}/orgs",
      "DELETE /v1/orgs/{organizationId}/link-invites/{inviteId}",
      "GET /v1/orgs/{organizationId}/members",
      "POST /v1/orgs/{organizationId}/ping",
      "PUT /v1/orgs/{organizationId}/teams"
    ]) {
      assert.include(operations, expected)
    }
  })

  it("declares what the gateway answers: 429 with its headers on every /v1 operation, 409 and 422 on every write, in the error envelope", () => {
    const spec = document as unknown as {
      readonly paths: Record<string, Record<string, { readonly responses: Record<string, any>; readonly parameters?: ReadonlyArray<{ readonly name: string; readonly in: string }> }>>
      readonly components: { readonly schemas: Record<string, any>; readonly responses: Record<string, any>; readonly parameters: Record<string, any> }
    }
    // Responses and parameters declared once in components are referenced by `$ref`.
    const resolve = (value: any, kind: "responses" | "parameters") =>
      typeof value?.$ref === "string" ? spec.components[kind][String(value.$ref).split("/").at(-1)!] : value
    const schemaOf = (response: any) => spec.components.schemas[String(resolve(response, "responses").content["application/json"].schema.$ref).split("/").at(-1)!]
    let writes = 0
    for (const [path, item] of Object.entries(spec.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        const name = `${method.toUpperCase()} ${path}`
        const limited = resolve(operation.responses["429"], "responses")
        if (!path.startsWith("/v1/")) {
          assert.isUndefined(limited, name)
          continue
        }
        assert.isDefined(limited, name)
        assert.deepStrictEqual(Object.keys(limited.headers), ["Retry-After", "X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset"], name)
        assert.deepStrictEqual(schemaOf(limited).properties.error.properties.code.enum, [429], name)
        const write = ["post", "put", "patch"].includes(method)
        assert.strictEqual(operation.responses["409"] !== undefined && schemaOf(operation.responses["409"]).properties.error.properties.code.enum[0] === 409, write || operation.responses["409"] !== undefined, name)
        assert.strictEqual(operation.responses["422"] !== undefined, write, name)
        assert.strictEqual((operation.parameters ?? []).map((p) => resolve(p, "parameters")).some((p) => p.in === "header" && p.name === "Idempotency-Key"), write, name)
        if (write) {
          writes++
          assert.include(resolve(operation.responses["409"], "responses").description, "Idempotency-Key", name)
          assert.deepStrictEqual(schemaOf(operation.responses["422"]).properties.error.properties.code.enum, [422], name)
        }
      }
    }
    assert.isAbove(writes, 40)
    // The envelopes added have the shape of the contract's own errors.
    assert.deepStrictEqual(spec.components.schemas["TooManyRequestsEncoded"], withCode(spec.components.schemas["BadRequestEncoded"], 429))
    assert.deepStrictEqual(spec.components.schemas["UnprocessableEntityEncoded"], withCode(spec.components.schemas["BadRequestEncoded"], 422))
    // A write that already answered 409 keeps its own meaning beside the key's.
    assert.match(spec.paths["/v1/spaces/{spaceId}/change-requests/{changeRequestId}/merge"]!["post"]!.responses["409"].description, /^Conflict; or: /)
  })

  it("groups operations under GitBook's tag names, each titled and described, every tag in a section of the reference", () => {
    const spec = document as unknown as {
      readonly tags: ReadonlyArray<{ readonly name: string; readonly description?: string; readonly "x-displayName"?: string }>
      readonly "x-tagGroups": ReadonlyArray<{ readonly name: string; readonly tags: ReadonlyArray<string> }>
      readonly paths: Record<string, Record<string, { readonly tags?: ReadonlyArray<string> }>>
    }
    const names = spec.tags.map((tag) => tag.name)
    assert.includeMembers(names, ["change-request-content", "organization-members", "space-git", "site-share-links"])
    assert.notInclude(names, "changeRequestContent")
    for (const tag of spec.tags) {
      assert.isAbove(tag.description?.length ?? 0, 10, tag.name)
      assert.isAbove(tag["x-displayName"]?.length ?? 0, 2, tag.name)
    }
    const sectioned = spec["x-tagGroups"].flatMap((group) => group.tags)
    assert.sameMembers(sectioned, names)
    const used = new Set(Object.values(spec.paths).flatMap((item) => Object.values(item).flatMap((operation) => operation.tags ?? [])))
    assert.sameMembers([...used], names)
    assert.deepStrictEqual(spec.paths["/v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/pages"]?.["get"]?.tags, ["change-request-content"])
  })

  it("declares the bearer scheme and the error envelope", () => {
    const text = JSON.stringify(document)
    assert.include(text, "\"bearer\"")
    assert.include(text, "\"error\"")
  })
})
