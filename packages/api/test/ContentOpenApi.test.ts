import { assert, describe, it } from "@effect/vitest"
import { OpenApi } from "effect/http-api"
import { Api } from "../src/index.ts"

describe("the spaces and collections contract", () => {
  const document = OpenApi.fromApi(Api)
  const operations = new Map<string, string | undefined>(
    Object.entries(document.paths).flatMap(([path, item]) =>
      Object.entries(item as Record<string, { readonly operationId?: string }>).map(([method, operation]) =>
        [`${method.toUpperCase()} ${path}`, operation.operationId] as const
      )
    )
  )

  it("serves GitBook's operations at GitBook's paths, under GitBook's operationIds", () => {
    const expected: ReadonlyArray<readonly [string, string]> = [
      ["POST /v1/orgs/{organizationId}/spaces", "createSpace"],
      ["GET /v1/orgs/{organizationId}/spaces", "listSpacesInOrganizationById"],
      ["GET /v1/orgs/{organizationId}/members/{userId}/spaces", "listSpacesForOrganizationMember"],
      ["GET /v1/spaces/{spaceId}", "getSpaceById"],
      ["PATCH /v1/spaces/{spaceId}", "updateSpaceById"],
      ["DELETE /v1/spaces/{spaceId}", "deleteSpaceById"],
      ["POST /v1/spaces/{spaceId}/duplicate", "duplicateSpace"],
      ["POST /v1/spaces/{spaceId}/restore", "restoreSpace"],
      ["POST /v1/spaces/{spaceId}/move", "moveSpace"],
      ["POST /v1/spaces/{spaceId}/transfer", "transferSpace"],
      ["GET /v1/orgs/{organizationId}/collections", "listCollectionsInOrganizationById"],
      ["POST /v1/orgs/{organizationId}/collections", "createCollection"],
      ["GET /v1/collections/{collectionId}", "getCollectionById"],
      ["PATCH /v1/collections/{collectionId}", "updateCollectionById"],
      ["DELETE /v1/collections/{collectionId}", "deleteCollectionById"],
      ["GET /v1/collections/{collectionId}/spaces", "listSpacesInCollectionById"],
      ["POST /v1/collections/{collectionId}/move", "moveCollection"],
      ["POST /v1/collections/{collectionId}/transfer", "transferCollection"]
    ]
    for (const [operation, operationId] of expected) {
      assert.isTrue(operations.has(operation), operation)
      assert.strictEqual(operations.get(operation), operationId, operation)
    }
  })

  it("names every operation by its endpoint alone, each once (GitBook's names, not effect's `group.endpoint`)", () => {
    const ids = [...operations.values()].filter((id): id is string => id !== undefined)
    assert.deepStrictEqual(ids.filter((id) => id.includes(".")), [])
    assert.strictEqual(new Set(ids).size, ids.length)
  })
})
