/** The audit log's sentences: who did what to whom, with names from the organization, for every action recorded. */
import { describe, expect, it } from "vitest"
import { actions } from "@quire/audit/domain/AuditEvent"
import { type AuditEventView, describe as sentence, describeParts } from "../../../src/features/audit/wording.ts"

const names = new Map([["user:ana", "Ana"], ["user:bo", "Bo"]])
const nameOf = (type: string, id: string) => names.get(`${type}:${id}`)

const event = (action: string, target: AuditEventView["target"], payload: AuditEventView["payload"] = {}, actor = "ana"): AuditEventView => ({
  id: "e1",
  occurredAt: "2026-11-26T12:00:00.000Z",
  action,
  actor: { type: "user", id: actor },
  target,
  source: "ui",
  payload
})

describe("audit event sentences", () => {
  it("says who changed whose role, who joined, who was removed, with names from the organization", () => {
    expect(sentence(event("member.role-changed", { type: "user", id: "bo" }, { from: "read", to: "edit" }), nameOf)).toBe("Ana changed Bo’s role to Editor")
    expect(sentence(event("member.joined", { type: "user", id: "bo" }, {}, "bo"), nameOf)).toBe("Bo joined the organization")
    expect(sentence(event("member.removed", { type: "user", id: "bo" }), nameOf)).toBe("Ana removed Bo from the organization")
    expect(sentence(event("member.invited", { type: "email", id: "cy@example.com" }, { role: "review" }), nameOf)).toBe("Ana invited cy@example.com as Reviewer")
  })

  it("names teams, content and sites by the label the event kept, and people not in the organization by a short id", () => {
    expect(sentence(event("team.renamed", { type: "team", id: "t1", label: "Authors" }, { from: "Writers", to: "Authors" }), nameOf)).toBe("Ana renamed the team “Writers” to “Authors”")
    expect(sentence(event("permission.granted", { type: "space", id: "s1" }, { principalType: "user", principalId: "bo", from: null, to: "edit" }), nameOf)).toBe("Ana gave Bo Editor access to the space s1")
    expect(sentence(event("site.published", { type: "site", id: "x1", label: "Handbook" }), nameOf)).toBe("Ana published the site “Handbook”")
    expect(sentence(event("member.removed", { type: "user", id: "0123456789abcdef" }), nameOf)).toBe("Ana removed user 01234567… from the organization")
  })

  it("names a team and a space by what /v1 calls them now when the event kept no label, each name keeping its id", () => {
    const now = new Map([...names, ["team:yqLy2pPjAbCdEf", "Support writers"], ["space:8p7hbcsIxYz123", "Runbooks"]])
    const current = (type: string, id: string) => now.get(`${type}:${id}`)
    const grant = event("permission.granted", { type: "space", id: "8p7hbcsIxYz123" }, { principalType: "team", principalId: "yqLy2pPjAbCdEf", from: null, to: "edit" })
    expect(sentence(grant, current)).toBe("Ana gave the team “Support writers” Editor access to the space “Runbooks”")
    expect(describeParts(grant, current)).toEqual([
      { name: "Ana", type: "user", id: "ana" }, " gave the team “", { name: "Support writers", type: "team", id: "yqLy2pPjAbCdEf" },
      "” Editor access to the space “", { name: "Runbooks", type: "space", id: "8p7hbcsIxYz123" }, "”"
    ])
    // Neither known: short ids, still standing for the whole ones.
    expect(sentence(grant, nameOf)).toBe("Ana gave a team (yqLy2pPj…) Editor access to the space 8p7hbcsI…")
    // The label the event kept wins over today's name (a team renamed since).
    expect(sentence(event("team.created", { type: "team", id: "yqLy2pPjAbCdEf", label: "Writers" }), current)).toBe("Ana created the team “Writers”")
  })

  it("says which single sign-on failed and why, and which organization settings changed", () => {
    const saml = event("auth.saml.failed", { type: "sso-provider", id: "p1" }, { protocol: "saml", reason: "this sign-in was not begun in this browser: start again" }, "unknown")
    expect(sentence(saml, nameOf)).toBe("A SAML sign-in failed: this sign-in was not begun in this browser: start again")
    const oidc = event("auth.oidc.failed", { type: "sso-provider", id: "p1" }, { protocol: "oidc", reason: "the provider does not say that cy@example.com is verified", email: "cy@example.com" }, "unknown")
    expect(sentence(oidc, nameOf)).toBe("cy@example.com’s OpenID Connect sign-in failed: the provider does not say that cy@example.com is verified")
    expect(sentence(event("organization.settings-changed", { type: "organization", id: "o1", label: "Acme" }, { fields: "title,defaultRole,inviteLinks" }), nameOf))
      .toBe("Ana changed the organization’s settings (name, default role, invite links)")
  })

  it("says who made or changed an invite link and for which role, moved a space away, changed a site's hostname or read its visitor key", () => {
    expect(sentence(event("invite-link.created", { type: "invite-link", id: "h1" }, { role: "admin", expiresAt: null }), nameOf)).toBe("Ana created an invite link for the Administrator role")
    expect(sentence(event("invite-link.changed", { type: "invite-link", id: "h1" }, { from: "read", to: "admin", expiresAt: null }), nameOf)).toBe("Ana changed an invite link’s role from Reader to Administrator")
    expect(sentence(event("space.transferred", { type: "space", id: "s1", label: "Guides" }, { from: "o1", to: "o2" }), nameOf)).toBe("Ana moved the space “Guides” to another organization")
    expect(sentence(event("site.hostname-changed", { type: "site", id: "x1", label: "Handbook" }, { from: null, to: "docs.acme.com" }), nameOf)).toBe("Ana set the hostname of the site “Handbook” to docs.acme.com")
    expect(sentence(event("site.hostname-changed", { type: "site", id: "x1", label: "Handbook" }, { from: "docs.acme.com", to: null }), nameOf)).toBe("Ana removed the custom hostname of the site “Handbook”")
    expect(sentence(event("site.visitor-key-read", { type: "site", id: "x1", label: "Handbook" }), nameOf)).toBe("Ana viewed the visitor authentication key of the site “Handbook”")
  })

  it("has a sentence of its own for every action the log records", () => {
    for (const action of Object.keys(actions)) {
      const text = sentence(event(action, { type: "thing", id: "t1", label: "Thing" }), nameOf)
      expect(text, action).not.toContain(`: ${action}`)
      expect(text.length, action).toBeGreaterThan(10)
    }
  })
})
