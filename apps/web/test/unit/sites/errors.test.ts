import { Schema } from "effect"
import { SiteCustomization } from "@quire/api"
import { describe, expect, it } from "vitest"
import { messageElse, messageFor, problemOf } from "../../../src/features/sites/errors.ts"

/** What the typed client fails with when the contract's schema refuses a payload. */
const refusal = (payload: unknown): unknown => {
  try {
    Schema.encodeUnknownSync(SiteCustomization)(payload)
  } catch (error) {
    return error
  }
  throw new Error("the payload was accepted")
}

/** The server's 400, `field` naming the field it is about when it is about one. */
const badRequest = (message: string, field?: string) =>
  Object.assign(new Error("BadRequest"), { _tag: "BadRequest", error: field === undefined ? { code: 400, message } : { code: 400, message, field } })

describe("the field a refused write names", () => {
  it("reads the server's 400 on a request body", () => {
    const problem = problemOf(badRequest("Invalid request body: styling.primaryColor.light: Expected a string matching the pattern ^#(?:[0-9a-fA-F]{3}){1,2}$", "styling.primaryColor.light"))
    expect(problem.field).toBe("styling.primaryColor.light")
    expect(messageFor(problem, "styling.primaryColor.light")).toMatch(/^Expected a string matching/)
    expect(messageFor(problem, "title")).toBeUndefined()
    expect(messageElse(problem, "styling.primaryColor.light")).toBeUndefined()
    expect(messageElse(problem, "title")).toMatch(/^styling\.primaryColor\.light: Expected/)
  })

  it("reads a domain refusal naming its field, and one of an item of a list", () => {
    expect(problemOf(badRequest("fallbackURL: must be an https URL", "fallbackURL"))).toEqual({ field: "fallbackURL", message: "must be an https URL" })
    const item = problemOf(badRequest("Invalid request body: header.links[1].to.url: Expected a value with a length of at most 2048", "header.links[1].to.url"))
    expect(messageFor(item, "header.links[1]")).toMatch(/at most 2048/)
    expect(messageFor(item, "header.links[0]")).toBeUndefined()
  })

  it("reads the contract's own check, refused before sending, with the same path", () => {
    expect(problemOf(refusal({ title: "x" }))).toEqual({ field: "title", message: "Expected a value with a length of at least 2" })
    const nested = problemOf(refusal({ styling: { primaryColor: { light: "blue", dark: "#000" } } }))
    expect(nested.field).toBe("styling.primaryColor.light")
    expect(nested.message).toMatch(/^Expected a string matching/)
  })

  it("keeps a message naming no field whole, never reading a field out of its words", () => {
    expect(problemOf(badRequest("the space is already in this section"))).toEqual({ field: undefined, message: "the space is already in this section" })
    expect(problemOf(badRequest("Note: the space is locked"))).toEqual({ field: undefined, message: "Note: the space is locked" })
    expect(messageElse(problemOf(badRequest("Not allowed")), "title")).toBe("Not allowed")
  })
})
