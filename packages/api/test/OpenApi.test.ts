import { assert, describe, it } from "@effect/vitest"
import { OpenApi } from "effect/http-api"
import { Api } from "../src/index.ts"

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

  it("declares the bearer scheme and the error envelope", () => {
    const text = JSON.stringify(document)
    assert.include(text, "\"bearer\"")
    assert.include(text, "\"error\"")
  })
})
