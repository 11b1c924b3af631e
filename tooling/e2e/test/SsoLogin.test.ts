/**
 * `quire login --sso ORG` against a real server and the test IdP: the loopback callback, the
 * one-time code (posted by the page's form) and its PKCE-bound exchange, the stored token that later commands use.
 */
import { assert, layer } from "@effect/vitest"
import { ConfigProvider, Effect } from "effect"
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { ssoLogin } from "@quire/cli"
import { baseUrl, memory, newUser, publicUrl } from "@quire/server/test/Harness"
import * as Idp from "../../../packages/identity/test/support/TestIdp.ts"
import { quire } from "./Quire.ts"

layer(memory.layer, { timeout: 120_000, excludeTestServices: true })("quire login --sso", (it) => {
  it.effect("gets a token through the browser sign-in and stores it for later commands", () =>
    Effect.gen(function*() {
      const help = yield* quire(["login", "--help"])
      assert.strictEqual(help.status, 0)
      assert.include(help.stdout, "--sso")
      const base = yield* baseUrl
      const alice = yield* newUser("Alice")
      const org = yield* alice.api.organizations.createOrganization({ payload: { title: "Acme" } })
      const provider = yield* alice.api.sso.createOrganizationSAMLProvider({
        params: { organizationId: org.id },
        payload: { label: "Test IdP", defaultRole: "read", ssoURL: Idp.idpSsoURL, entityID: Idp.idpEntityID, certificate: Idp.idpCertificate }
      })
      const local = (url: string) => url.replace(publicUrl, base)
      const email = `frank.${Date.now()}@example.com`
      // The browser: follows the redirects to the IdP, which signs Frank in and POSTs back.
      const browser = (startUrl: string) =>
        Effect.promise(async () => {
          const toProvider = await fetch(local(startUrl), { redirect: "manual" })
          const toIdp = await fetch(local(toProvider.headers.get("location") ?? ""), { redirect: "manual" })
          const idpUrl = toIdp.headers.get("location") ?? ""
          const relayState = new URL(idpUrl).searchParams.get("RelayState") ?? ""
          const samlResponse = Idp.response({
            email,
            audience: provider.service.entityID,
            destination: provider.service.acsURL,
            inResponseTo: await Idp.requestIdOf(idpUrl)
          })
          const acs = await fetch(local(provider.service.acsURL), {
            method: "POST",
            redirect: "manual",
            // The browser brings back the request cookie its start set: the ACS answers no other browser.
            headers: { "content-type": "application/x-www-form-urlencoded", cookie: (toIdp.headers.get("set-cookie") ?? "").split(";")[0]! },
            body: new URLSearchParams({ SAMLResponse: samlResponse, RelayState: relayState }).toString()
          })
          // The code reaches the loopback listener in the body of the page's form, never in a URL.
          const page = await acs.text()
          const form = /<form method="post" action="([^"]+)"><input type="hidden" name="code" value="([^"]+)">/.exec(page)
          assert.isNotNull(form, page)
          const callback = form![1]!.replaceAll("&amp;", "&")
          assert.match(callback, /^http:\/\/127\.0\.0\.1:\d+\/callback\?state=\w+$/)
          await (await fetch(callback, { method: "POST", body: new URLSearchParams({ code: form![2]! }) })).text()
        })
      const dir = mkdtempSync(join(tmpdir(), "quire-login-"))
      try {
        // The browser runs beside the CLI, which waits on its loopback listener.
        const signedIn = yield* ssoLogin(base, org.id, (startUrl) => Effect.asVoid(Effect.forkDetach(browser(startUrl))), 30_000).pipe(
          Effect.provideService(ConfigProvider.ConfigProvider, ConfigProvider.fromEnvRecord({ QUIRE_CONFIG_DIR: dir }))
        )
        assert.strictEqual(signedIn.email, email)
        const file = join(dir, "credentials.json")
        assert.strictEqual(statSync(file).mode & 0o777, 0o600)
        const stored = JSON.parse(readFileSync(file, "utf8")) as Record<string, string>
        assert.match(stored[base] ?? "", /^quire_pat_/)
        // Later commands use the stored token when no --token / QUIRE_TOKEN is given.
        const whoami = yield* quire(["whoami"], { QUIRE_URL: base, QUIRE_CONFIG_DIR: dir })
        assert.strictEqual(whoami.status, 0, whoami.stderr)
        assert.include(whoami.stdout, email)
      } finally {
        rmSync(dir, { recursive: true, force: true })
      }
    }))
})
