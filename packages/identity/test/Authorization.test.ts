import { assert, describe, it } from "@effect/vitest"
import { Option } from "effect"
import { Authorization } from "../src/index.ts"
import { signJwt, verifyJwt } from "../src/VisitorClaims.ts"

describe("Authorization", () => {
  it("gives admins every organization permission and guests only a view", () => {
    const admin = Authorization.organizationPermissions("admin")
    assert.isTrue(Object.values(admin).every(Boolean))
    const guest = Authorization.organizationPermissions(null)
    assert.isTrue(guest.view)
    assert.isFalse(guest.listMembers)
    assert.isFalse(guest.createContent)
  })

  it("lets creators create content but not administer", () => {
    const creator = Authorization.organizationPermissions("create")
    assert.isTrue(creator.createContent)
    assert.isFalse(creator.admin)
    assert.isFalse(Authorization.organizationPermissions("edit").createContent)
  })
})

describe("visitor claims", () => {
  it("signs tokens that verify with the same key only, until they expire", () => {
    const token = signJwt({ sub: "u1", org: "o1" }, "key", 1_000)
    const claims = verifyJwt(token, "key", 1_001)
    assert.isTrue(Option.isSome(claims))
    assert.strictEqual(Option.getOrThrow(claims).sub, "u1")
    assert.isTrue(Option.isNone(verifyJwt(token, "other", 1_001)))
    assert.isTrue(Option.isNone(verifyJwt(token, "key", 1_000 + 3_601)))
  })
})
