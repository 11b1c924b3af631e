/**
 * What the audit log records beyond memberships, through the real server: teams, permissions on
 * spaces and collections, SSO settings, Git sync connections, sites (visibility, publishing, share
 * links, visitor authentication, deletion), merges, and deletions and restores of spaces and
 * collections, organization settings, and failed single sign-ons. Each change appears once, with its actor, action, target and origin, via the API;
 * a change that fails records nothing.
 */
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import * as Idp from "../../../packages/identity/test/support/TestIdp.ts"
import { adminToken, baseUrl, type Client, errorCode, mergeIntoMain, memoryAndPostgres, organizationWith } from "./Harness.ts"

/** The organization's events newest first, as [action, actor, target] triples, from `since` on (the events of setting it up left out). */
const eventsOf = Effect.fnUntraced(function*(api: Client, organizationId: string, since?: string) {
  const page = yield* api.auditEvents.listOrganizationAuditEvents({ params: { organizationId }, query: { limit: 100 } })
  const items = since === undefined ? page.items : page.items.slice(0, page.items.findIndex((e) => e.id === since))
  return items
})

const triples = (items: ReadonlyArray<{ readonly action: string; readonly actor: { readonly id: string }; readonly target: { readonly type: string; readonly id: string } }>) =>
  items.map((e) => [e.action, e.actor.id, `${e.target.type}:${e.target.id}`])

/** The id of the newest event now: what follows it is what the test did next. */
const mark = Effect.fnUntraced(function*(api: Client, organizationId: string) {
  return (yield* api.auditEvents.listOrganizationAuditEvents({ params: { organizationId }, query: { limit: 1 } })).items[0]!.id
})

for (const backend of memoryAndPostgres) {
  layer(backend.layer, { timeout: 180_000, excludeTestServices: true })(`audit events recorded on ${backend.name}`, (it) => {
    it.effect("teams: created, renamed, members added and removed, deleted; a refused change records nothing", () =>
      Effect.gen(function*() {
        const { alice, members, organizationId } = yield* organizationWith(["read", "edit"])
        const bo = members.read!
        const since = yield* mark(alice.api, organizationId)
        const team = yield* alice.api.teams.createOrganizationTeam({ params: { organizationId }, payload: { title: "Writers" } })
        yield* alice.api.teams.updateTeamInOrganizationById({ params: { organizationId, teamId: team.id }, payload: { title: "Authors" } })
        yield* alice.api.teamMembers.addMemberToOrganizationTeamById({ params: { organizationId, teamId: team.id, userId: bo.user.id }, payload: { role: "member" } })
        yield* alice.api.teamMembers.deleteMemberFromOrganizationTeamById({ params: { organizationId, teamId: team.id, userId: bo.user.id } })
        // Refused: an editor may not rename teams; a member who is not one cannot be added.
        const refused = yield* Effect.flip(members.edit!.api.teams.updateTeamInOrganizationById({ params: { organizationId, teamId: team.id }, payload: { title: "Mine" } }))
        assert.strictEqual(errorCode(refused), 403)
        const missing = yield* Effect.flip(alice.api.teamMembers.addMemberToOrganizationTeamById({ params: { organizationId, teamId: team.id, userId: "nobody" }, payload: null }))
        assert.include([400, 404], errorCode(missing))
        yield* alice.api.teams.removeTeamFromOrganizationById({ params: { organizationId, teamId: team.id } })

        const events = yield* eventsOf(alice.api, organizationId, since)
        assert.deepStrictEqual(triples(events), [
          ["team.deleted", alice.user.id, `team:${team.id}`],
          ["team.member-removed", alice.user.id, `user:${bo.user.id}`],
          ["team.member-added", alice.user.id, `user:${bo.user.id}`],
          ["team.renamed", alice.user.id, `team:${team.id}`],
          ["team.created", alice.user.id, `team:${team.id}`]
        ])
        assert.deepStrictEqual(events.map((e) => e.source), ["api", "api", "api", "api", "api"])
        assert.match(events[0]!.client?.address ?? "", /127\.0\.0\.1|::1/)
        const renamed = yield* alice.api.auditEvents.getOrganizationAuditEvent({ params: { organizationId, auditEventId: events[3]!.id } })
        assert.deepStrictEqual(renamed.payload, { from: "Writers", to: "Authors" })
      }))

    it.effect("permissions on spaces and collections, for users and teams: granted, changed, revoked", () =>
      Effect.gen(function*() {
        const { alice, members, organizationId } = yield* organizationWith(["read", "edit"])
        const bo = members.read!
        const space = yield* alice.api.spaces.createSpace({ params: { organizationId }, payload: { title: "Docs" } })
        const collection = yield* alice.api.collections.createCollection({ params: { organizationId }, payload: { title: "Guides" } })
        const team = yield* alice.api.teams.createOrganizationTeam({ params: { organizationId }, payload: { title: "Writers" } })
        const since = yield* mark(alice.api, organizationId)
        yield* alice.api.permissions.inviteToSpace({ params: { spaceId: space.id }, payload: { role: "comment", users: [bo.user.id] } })
        yield* alice.api.permissions.updateUserPermissionInSpace({ params: { spaceId: space.id, userId: bo.user.id }, payload: { role: "edit" } })
        yield* alice.api.permissions.updateUserPermissionInSpace({ params: { spaceId: space.id, userId: bo.user.id }, payload: { role: null } })
        yield* alice.api.permissions.inviteToCollection({ params: { collectionId: collection.id }, payload: { role: "read", teams: [team.id] } })
        yield* alice.api.permissions.removeTeamFromCollection({ params: { collectionId: collection.id, teamId: team.id } })
        // Refused: an editor does not administer the space; an invitation without a role.
        const refused = yield* Effect.flip(members.edit!.api.permissions.inviteToSpace({ params: { spaceId: space.id }, payload: { role: "admin", users: [members.edit!.user.id] } }))
        assert.include([403, 404], errorCode(refused))
        const roleless = yield* Effect.flip(alice.api.permissions.inviteToSpace({ params: { spaceId: space.id }, payload: { role: null, users: [bo.user.id] } }))
        assert.strictEqual(errorCode(roleless), 400)

        const events = yield* eventsOf(alice.api, organizationId, since)
        assert.deepStrictEqual(triples(events), [
          ["permission.revoked", alice.user.id, `collection:${collection.id}`],
          ["permission.granted", alice.user.id, `collection:${collection.id}`],
          ["permission.revoked", alice.user.id, `space:${space.id}`],
          ["permission.changed", alice.user.id, `space:${space.id}`],
          ["permission.granted", alice.user.id, `space:${space.id}`]
        ])
        const changed = yield* alice.api.auditEvents.getOrganizationAuditEvent({ params: { organizationId, auditEventId: events[3]!.id } })
        assert.deepStrictEqual(changed.payload, { principalType: "user", principalId: bo.user.id, from: "comment", to: "edit" })
        const teamGrant = yield* alice.api.auditEvents.getOrganizationAuditEvent({ params: { organizationId, auditEventId: events[1]!.id } })
        assert.deepStrictEqual(teamGrant.payload, { principalType: "team", principalId: team.id, from: null, to: "read" })
      }))

    it.effect("SSO settings and Git sync connections: set up, changed, removed; secrets never in the log", () =>
      Effect.gen(function*() {
        const { alice, members, organizationId } = yield* organizationWith(["edit"])
        const space = yield* alice.api.spaces.createSpace({ params: { organizationId }, payload: { title: "Docs" } })
        const since = yield* mark(alice.api, organizationId)
        const provider = yield* alice.api.sso.createOrganizationSAMLProvider({
          params: { organizationId },
          payload: { label: "Test IdP", ssoURL: Idp.idpSsoURL, entityID: Idp.idpEntityID, certificate: Idp.idpCertificate }
        })
        yield* alice.api.sso.updateOrganizationSAMLProvider({ params: { organizationId, samlProviderId: provider.id }, payload: { label: "Renamed IdP" } })
        const badCertificate = yield* Effect.flip(alice.api.sso.updateOrganizationSAMLProvider({ params: { organizationId, samlProviderId: provider.id }, payload: { certificate: "not a certificate" } }))
        assert.strictEqual(errorCode(badCertificate), 400)
        yield* alice.api.sso.deleteOrganizationSAMLProvider({ params: { organizationId, samlProviderId: provider.id } })

        yield* alice.api.git.connectSpaceGitRepository({ params: { spaceId: space.id }, payload: { url: "https://bot:s3cret-pass@127.0.0.1:9/acme/docs.git", ref: "refs/heads/main" } })
        yield* alice.api.git.connectSpaceGitRepository({ params: { spaceId: space.id }, payload: { url: "https://bot:0ther-pass@127.0.0.1:9/acme/docs.git", ref: "refs/heads/main" } })
        yield* alice.api.git.connectSpaceGitRepository({ params: { spaceId: space.id }, payload: { url: "https://127.0.0.1:9/acme/docs.git", ref: "refs/heads/next", keepCredentials: true } })
        const refused = yield* Effect.flip(members.edit!.api.git.disconnectSpaceGitRepository({ params: { spaceId: space.id } }))
        assert.include([403, 404], errorCode(refused))
        yield* alice.api.git.disconnectSpaceGitRepository({ params: { spaceId: space.id } })

        const events = yield* eventsOf(alice.api, organizationId, since)
        assert.deepStrictEqual(triples(events), [
          ["gitsync.disconnected", alice.user.id, `space:${space.id}`],
          ["gitsync.changed", alice.user.id, `space:${space.id}`],
          ["gitsync.credentials-changed", alice.user.id, `space:${space.id}`],
          ["gitsync.connected", alice.user.id, `space:${space.id}`],
          ["sso.provider-removed", alice.user.id, `sso-provider:${provider.id}`],
          ["sso.provider-changed", alice.user.id, `sso-provider:${provider.id}`],
          ["sso.provider-created", alice.user.id, `sso-provider:${provider.id}`]
        ])
        const details = yield* Effect.forEach(events, (e) => alice.api.auditEvents.getOrganizationAuditEvent({ params: { organizationId, auditEventId: e.id } }))
        const text = JSON.stringify(details)
        assert.notInclude(text, "s3cret-pass")
        assert.notInclude(text, "0ther-pass")
        assert.deepStrictEqual(details[5]!.payload, { protocol: "saml", fields: "label" })
        assert.strictEqual(details[3]!.payload.url, "https://127.0.0.1:9/acme/docs.git")
      }))

    it.effect("failed SAML and OpenID Connect sign-ins, with the reason and the address; organization settings changed, by field", () =>
      Effect.gen(function*() {
        const { alice, members, organizationId } = yield* organizationWith(["edit"])
        const base = yield* baseUrl
        const send = (path: string, init: RequestInit = {}) =>
          Effect.promise(async () => {
            const response = await fetch(`${base}${path}`, { ...init, headers: { "user-agent": "audit-test/1", ...init.headers } })
            return { status: response.status, text: await response.text() }
          })
        const provider = yield* alice.api.sso.createOrganizationSAMLProvider({
          params: { organizationId },
          payload: { label: "Test IdP", ssoURL: Idp.idpSsoURL, entityID: Idp.idpEntityID, certificate: Idp.idpCertificate }
        })
        const since = yield* mark(alice.api, organizationId)
        // A response that answers no request of Quire's is refused before anything else is read.
        const refusedSaml = yield* send(`/sso/saml/${organizationId}/${provider.id}/acs`, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({ SAMLResponse: Buffer.from("<samlp:Response/>").toString("base64") }).toString()
        })
        assert.strictEqual(refusedSaml.status, 400)

        yield* alice.api.organizations.updateOrganizationById({ params: { organizationId }, payload: { title: "Acme Docs", defaultRole: "read", inviteLinks: false } })
        // The same values again change nothing: nothing recorded; a member who is not an admin is refused: nothing either.
        yield* alice.api.organizations.updateOrganizationById({ params: { organizationId }, payload: { title: "Acme Docs" } })
        const refused = yield* Effect.flip(members.edit!.api.organizations.updateOrganizationById({ params: { organizationId }, payload: { title: "Mine" } }))
        assert.strictEqual(errorCode(refused), 403)

        const events = yield* eventsOf(alice.api, organizationId, since)
        assert.deepStrictEqual(triples(events), [
          ["organization.settings-changed", alice.user.id, `organization:${organizationId}`],
          ["auth.saml.failed", "unknown", `sso-provider:${provider.id}`]
        ])
        assert.deepStrictEqual(events[1]!.source, "ui")
        assert.match(events[1]!.client?.address ?? "", /127\.0\.0\.1|::1/)
        assert.strictEqual(events[1]!.client?.userAgent, "audit-test/1")
        const details = yield* Effect.forEach(events, (e) => alice.api.auditEvents.getOrganizationAuditEvent({ params: { organizationId, auditEventId: e.id } }))
        assert.deepStrictEqual(details[0]!.payload, { fields: "title,defaultRole" })
        assert.deepStrictEqual(details[1]!.payload, { protocol: "saml", reason: "the response answers no sign-in request of Quire's: start the sign-in from Quire" })

        // An OpenID Connect callback this browser did not begin names no organization: the instance's log has it.
        const refusedOidc = yield* send("/sso/oidc/callback?state=forged&code=x")
        assert.strictEqual(refusedOidc.status, 400)
        const instance = yield* send("/admin/audit-events?action=auth.oidc.failed&limit=1", { headers: { authorization: `Bearer ${adminToken}` } })
        const failed = JSON.parse(instance.text).items[0]
        assert.strictEqual(failed.action, "auth.oidc.failed")
        assert.strictEqual(failed.payload.reason, "this sign-in was not begun in this browser: start again")
        assert.match(failed.client.address, /127\.0\.0\.1|::1/)
      }))

    it.effect("sites: visibility, publishing, share links, visitor authentication, deletion", () =>
      Effect.gen(function*() {
        const { alice, members, organizationId } = yield* organizationWith(["edit"])
        const site = yield* alice.api.sites.createSite({ params: { organizationId }, payload: { title: "Handbook" } })
        const siteParams = { organizationId, siteId: site.id }
        const since = yield* mark(alice.api, organizationId)
        yield* alice.api.sites.updateSiteById({ params: siteParams, payload: { visibility: "share-link" } })
        yield* alice.api.sites.publishSite({ params: siteParams })
        const link = yield* alice.api.siteShareLinks.createSiteShareLink({ params: siteParams, payload: { name: "Partners" } })
        yield* alice.api.siteShareLinks.deleteSiteShareLinkById({ params: { ...siteParams, shareLinkId: link.id } })
        yield* alice.api.sites.regenerateSitePublishingAuthById({ params: siteParams })
        yield* alice.api.sites.updateSitePublishingAuthById({ params: siteParams, payload: { backend: "custom", fallbackURL: "https://example.com/login" } })
        const badUrl = yield* Effect.flip(alice.api.sites.updateSitePublishingAuthById({ params: siteParams, payload: { backend: "custom", fallbackURL: "http://example.com" } }))
        assert.strictEqual(errorCode(badUrl), 400)
        const refused = yield* Effect.flip(members.edit!.api.sites.publishSite({ params: siteParams }))
        assert.include([403, 404], errorCode(refused))
        yield* alice.api.sites.unpublishSite({ params: siteParams })
        yield* alice.api.sites.deleteSiteById({ params: siteParams })

        const events = yield* eventsOf(alice.api, organizationId, since)
        assert.deepStrictEqual(triples(events), [
          ["site.deleted", alice.user.id, `site:${site.id}`],
          ["site.unpublished", alice.user.id, `site:${site.id}`],
          ["site.visitor-auth-changed", alice.user.id, `site:${site.id}`],
          ["site.visitor-key-rotated", alice.user.id, `site:${site.id}`],
          ["site.share-link-revoked", alice.user.id, `share-link:${link.id}`],
          ["site.share-link-created", alice.user.id, `share-link:${link.id}`],
          ["site.published", alice.user.id, `site:${site.id}`],
          ["site.visibility-changed", alice.user.id, `site:${site.id}`]
        ])
        const visibility = yield* alice.api.auditEvents.getOrganizationAuditEvent({ params: { organizationId, auditEventId: events[7]!.id } })
        assert.deepStrictEqual(visibility.payload, { from: site.visibility, to: "share-link" })
        const created = yield* alice.api.auditEvents.getOrganizationAuditEvent({ params: { organizationId, auditEventId: events[5]!.id } })
        const secret = new URL(link.urls.published ?? "http://x.invalid/?share=").searchParams.get("share") ?? ""
        assert.isAbove(secret.length, 8)
        assert.notInclude(JSON.stringify(created), secret)
      }))

    it.effect("merges, and deletions and restores of spaces and collections", () =>
      Effect.gen(function*() {
        const { alice, members, organizationId } = yield* organizationWith(["edit"])
        const space = yield* alice.api.spaces.createSpace({ params: { organizationId }, payload: { title: "Docs" } })
        const collection = yield* alice.api.collections.createCollection({ params: { organizationId }, payload: { title: "Guides" } })
        const since = yield* mark(alice.api, organizationId)
        yield* mergeIntoMain(alice.api, space.id, [{ operation: "insert_page", title: "Guide", document: { markdown: "Hello." } }])
        const refused = yield* Effect.flip(members.edit!.api.spaces.deleteSpaceById({ params: { spaceId: space.id } }))
        assert.include([403, 404], errorCode(refused))
        yield* alice.api.spaces.deleteSpaceById({ params: { spaceId: space.id } })
        yield* alice.api.spaces.restoreSpace({ params: { spaceId: space.id } })
        yield* alice.api.collections.deleteCollectionById({ params: { collectionId: collection.id } })

        const events = yield* eventsOf(alice.api, organizationId, since)
        assert.deepStrictEqual(triples(events).map(([action, actor, target]) => [action, actor, target!.replace(/:.*/, "")]), [
          ["collection.deleted", alice.user.id, "collection"],
          ["space.restored", alice.user.id, "space"],
          ["space.deleted", alice.user.id, "space"],
          ["change-request.merged", alice.user.id, "change-request"]
        ])
        assert.deepStrictEqual(events.slice(0, 3).map((e) => e.target.id), [collection.id, space.id, space.id])
        const merged = yield* alice.api.auditEvents.getOrganizationAuditEvent({ params: { organizationId, auditEventId: events[3]!.id } })
        assert.strictEqual(merged.payload.spaceId, space.id)
      }))
  })
}
