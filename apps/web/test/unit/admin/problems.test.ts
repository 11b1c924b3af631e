import { Schema } from "effect"
import { describe, expect, it } from "vitest"
import { domainsOf, emailsOf, isDomain, expiresAtOf, problemOf, roleName, roleOfValue, roleValue } from "../../../src/features/admin/problems.ts"

/** An API refusal as the typed client fails with it: `{ error: { code, message, field? } }`. */
const refusal = (code: number, message: string, field?: string) =>
  Object.assign(new Error(message), { error: field === undefined ? { code, message } : { code, message, field } })

describe("the administration screens' words", () => {
  it("places the API's 400 on the field it names, in plain words", () => {
    expect(problemOf(refusal(400, "Invalid request body: title: Expected a value with a length of at least 2, got \"a\"", "title"), ["title"]))
      .toEqual({ fields: { title: "Must be at least 2 characters long." }, form: undefined })
    expect(problemOf(refusal(400, "emails[1]: not an email address", "emails[1]"), ["emails", "role"]))
      .toEqual({ fields: { emails: "Not an email address" }, form: undefined })
    expect(problemOf(refusal(400, "users[0]: user \"u1\" is not a member of the organization", "users[0]"), ["who"], () => "who"))
      .toEqual({ fields: { who: "User \"u1\" is not a member of the organization" }, form: undefined })
  })

  it("says a refusal naming no known field for the whole form, and a transport failure in words", () => {
    expect(problemOf(refusal(400, "The last administrator cannot be demoted"), ["role"]).form).toBe("The last administrator cannot be demoted")
    expect(problemOf(refusal(403, "Your role does not allow you to manage the permissions of this space"), []).form)
      .toBe("Not allowed. Your role does not allow you to manage the permissions of this space.")
    expect(problemOf(refusal(404, "Member \"u1\" not found"), []).form).toMatch(/no longer exists/)
    expect(problemOf(new TypeError("Failed to fetch"), ["title"]).form).toMatch(/could not be reached/)
  })

  it("reads the client's own schema refusal like the server's", () => {
    const failure = (() => {
      try {
        Schema.decodeUnknownSync(Schema.Struct({ title: Schema.String.check(Schema.isMinLength(2)) }))({ title: "a" })
      } catch (error) {
        return error
      }
    })()
    const placed = problemOf(failure, ["title"])
    expect(Object.keys(placed.fields)).toEqual(["title"])
  })

  it("splits lists of emails and domains, and names roles", () => {
    expect(emailsOf("a@x.io, b@x.io;\n a@x.io  c@y.org")).toEqual(["a@x.io", "b@x.io", "c@y.org"])
    expect(domainsOf("Acme.com, @docs.acme.com\nacme.com")).toEqual(["acme.com", "docs.acme.com"])
    expect(isDomain("docs.acme.com")).toBe(true)
    expect(isDomain("not_a_domain")).toBe(false)
    expect(roleName("admin")).toBe("Administrator")
    expect(roleName(null)).toBe("Guest")
    expect(roleOfValue("guest")).toBeNull()
    expect(roleOfValue("edit")).toBe("edit")
    expect(roleValue(null)).toBe("guest")
  })

  it("turns an expiry choice into an instant, or none", () => {
    const now = new Date("2030-01-01T00:00:00.000Z")
    expect(expiresAtOf("7", now)).toBe("2030-01-08T00:00:00.000Z")
    expect(expiresAtOf("never", now)).toBeUndefined()
  })
})
