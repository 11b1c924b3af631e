/**
 * Joining an organization by email domain, over the memory and the SQL adapters: only a proven
 * email puts its owner in the domain; the organization's default role is theirs; anyone else is
 * answered as if the organization did not exist.
 */
import { assert, layer } from "@effect/vitest"
import { Effect, Layer, Option } from "effect"
import { Errors } from "@quire/kernel"
import { as, errorTag } from "@quire/testkit"
import { EmailVerification, IdentityLayers, MembersRepo, Organizations, UsersRepo } from "../src/index.ts"
import { makeUser } from "./contract/Fixtures.ts"
import { backends, dependencies } from "./support/Services.ts"

const services = IdentityLayers.layerServices.pipe(Layer.provide(dependencies()))

for (const backend of backends) {
  layer(Layer.provideMerge(services, backend.layer), { timeout: "60 seconds" })(`joining by email domain on ${backend.name}`, (it) => {
    it.effect("an unproven email is refused with a 400 naming it; once proven, its owner joins with the default role", () =>
      Effect.gen(function*() {
        const organizations = yield* Organizations
        const verification = yield* EmailVerification
        const users = yield* UsersRepo
        const members = yield* MembersRepo
        yield* Effect.orDie(users.insert(makeUser("jd-owner")))
        yield* Effect.orDie(users.insert(makeUser("jd-ann", { email: "ann@Acme.example" })))
        yield* Effect.orDie(users.insert(makeUser("jd-bob", { email: "bob@other.example" })))
        const { organization } = yield* organizations.create({ title: "Acme", emailDomains: ["acme.example"] }).pipe(as("jd-owner"))
        yield* organizations.update(organization.id, { defaultRole: "comment" }).pipe(as("jd-owner"))

        const unproven = yield* Effect.flip(organizations.joinByEmailDomain(organization.id).pipe(as("jd-ann")))
        assert.instanceOf(unproven, Errors.InvalidInput)
        assert.strictEqual(unproven instanceof Errors.InvalidInput ? unproven.field : undefined, "email")

        yield* verification.markVerified("jd-ann", "ann@acme.example")
        assert.isTrue(yield* organizations.joinByEmailDomain(organization.id).pipe(as("jd-ann")))
        const member = yield* members.find(organization.id, "jd-ann")
        assert.strictEqual(Option.getOrUndefined(member)?.role, "comment")
        assert.isFalse(yield* organizations.joinByEmailDomain(organization.id).pipe(as("jd-ann")))

        yield* verification.markVerified("jd-bob", "bob@other.example")
        assert.strictEqual(yield* errorTag(organizations.joinByEmailDomain(organization.id).pipe(as("jd-bob"))), "NotFound")
        assert.strictEqual(yield* errorTag(organizations.joinByEmailDomain("jd-nosuch").pipe(as("jd-ann"))), "NotFound")
      }))
  })
}
