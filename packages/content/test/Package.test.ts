import { assert, describe, it } from "@effect/vitest"
import { packageName } from "../src/index.ts"

describe("Content package", () => {
  it("is importable by the apps that compose it", () => {
    assert.strictEqual(packageName, "@quire/content")
  })
})
