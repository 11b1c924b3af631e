import { describe, expect, it } from "vitest"
import * as Document from "../src/index.ts"

describe("@quire/document", () => {
  it("loads without Node modules or a DOM", () => {
    expect(typeof Document).toBe("object")
  })
})
