import { describe, expect, it } from "vitest"
import { fieldError } from "../../src/api/auth.ts"

describe("sign-in errors", () => {
  it("puts a message naming a field next to that field, in plain words", () => {
    expect(fieldError("setupCode: not the setup code the server printed in its log at first start", ["setupCode", "email"]))
      .toEqual({ field: "setupCode", text: "Not the setup code the server printed in its log at first start" })
    expect(fieldError("password: must be at least 12 characters", ["password"])).toEqual({ field: "password", text: "Must be at least 12 characters" })
  })

  it("keeps a message naming no field of the form for the whole form", () => {
    expect(fieldError("Wrong email or password.", ["email", "password"])).toEqual({ field: undefined, text: "Wrong email or password." })
    expect(fieldError("token: expired", ["email"])).toEqual({ field: undefined, text: "token: expired" })
  })
})
