/**
 * `quire oidc add|list|rm` against a real server (memory backend) and an OpenID Connect provider
 * (oidc-provider) on 127.0.0.1: for people and with `--json`; the secret read from a file and never
 * printed; a bad discovery URL is the server's 400 naming the field; a reader is refused.
 */
import { afterAll, assert, beforeAll, layer } from "@effect/vitest"
import { Effect } from "effect"
import { OidcProvider, Schemas } from "@quire/api"
import { memory, organizationWith } from "@quire/server/test/Harness"
import * as Provider from "../../../packages/identity/test/support/TestOidcProvider.ts"
import { decodeJson, folder, lines, quireAs, rowWith } from "./Quire.ts"

let idp: Provider.TestOidcProvider
beforeAll(async () => {
  idp = await Provider.start(["http://quire.test/sso/oidc/callback"])
})
afterAll(() => idp.close())

layer(memory.layer, { timeout: 120_000, excludeTestServices: true })("quire oidc on a memory server", (it) => {
  it.effect("oidc add, list and rm; the secret never printed; a bad URL and a reader refused", () =>
    Effect.gen(function*() {
      const { alice, members, organizationId } = yield* organizationWith(["read"])
      const as = quireAs(alice.token)
      const dir = yield* folder({ "secret.txt": `${Provider.clientSecret}\n` })
      const common = ["--discovery-url", idp.issuer, "--client-id", Provider.clientId, "--client-secret-file", `${dir}/secret.txt`]

      const added = yield* as("oidc", "add", organizationId, "Corporate", ...common, "--role", "edit", "--scope", "groups")
      assert.strictEqual(added.status, 0, added.stderr)
      assert.match(added.stdout, /^label:\s+Corporate$/m)
      assert.match(added.stdout, /^client secret:\s+set \(never shown\)$/m)
      assert.match(added.stdout, /^scopes:\s+openid email profile groups$/m)
      assert.match(added.stdout, /^redirect url:\s+http:\/\/quire\.test\/sso\/oidc\/callback$/m)
      assert.notInclude(added.stdout, Provider.clientSecret)
      const provider = yield* as("oidc", "add", organizationId, "Second", ...common, "--json").pipe(Effect.flatMap(decodeJson(OidcProvider)))
      assert.strictEqual(provider.clientId, Provider.clientId)
      assert.strictEqual(provider.clientSecretSet, true)

      const table = yield* as("oidc", "list", organizationId)
      assert.strictEqual(table.status, 0, table.stderr)
      assert.match(lines(table.stdout)[0]!, /^ID\s+LABEL\s+CLIENT ID\s+ROLE\s+DISCOVERY URL$/)
      assert.match(rowWith(table.stdout, provider.id), /Second\s+quire-test-client\s+\S+\s+http:\/\/127\.0\.0\.1:\d+$/)
      const listed = yield* as("oidc", "list", organizationId, "--json").pipe(Effect.flatMap(decodeJson(Schemas.ListOf(OidcProvider))))
      assert.sameMembers(listed.items.map((p) => p.label), ["Corporate", "Second"])

      const badUrl = yield* as("oidc", "add", organizationId, "Broken", ...common.slice(2), "--discovery-url", "http://idp.example.com")
      assert.strictEqual(badUrl.status, 1)
      assert.match(badUrl.stderr, /^quire: .*discoveryURL: must be an https URL/)
      const reader = quireAs(members.read!.token)
      const refused = yield* reader("oidc", "add", organizationId, "Mine", ...common)
      assert.strictEqual(refused.status, 1)
      assert.match(refused.stderr, /^quire: .+/)

      const removed = yield* as("oidc", "rm", organizationId, provider.id)
      assert.strictEqual(removed.status, 0, removed.stderr)
      assert.include(removed.stdout, `Removed OpenID Connect provider ${provider.id}`)
      const after = yield* as("oidc", "list", organizationId, "--json").pipe(Effect.flatMap(decodeJson(Schemas.ListOf(OidcProvider))))
      assert.deepStrictEqual(after.items.map((p) => p.label), ["Corporate"])
    }))
})
