/**
 * An audit event as a sentence ("Ana changed Bo's role to Editor"): pure, so a unit test reads
 * every action's wording. Names come from `Names` (the organization's members, teams, spaces,
 * collections and sites as /v1 lists them now), else the label the event kept when it was
 * recorded, else a short form of the id. `describeParts` gives the sentence with each name beside
 * the id it stands for, so the screen keeps the id reachable.
 */
import { roleName } from "../admin/problems.ts"

export interface AuditEventView {
  readonly id: string
  readonly occurredAt: string
  readonly action: string
  readonly actor: { readonly type: string; readonly id: string; readonly label?: string }
  readonly target: { readonly type: string; readonly id: string; readonly label?: string }
  readonly source: string
  readonly client?: { readonly address?: string; readonly userAgent?: string }
  readonly payload?: { readonly [key: string]: unknown }
}

/** The current name of a thing the log names by id: a user, a team, or content (`space`, `collection`, `site`); undefined when unknown. */
export type NameOf = (type: string, id: string) => string | undefined

/** One piece of a sentence: words, or a name standing for an id. */
export type Part = string | { readonly name: string; readonly type: string; readonly id: string }

const short = (id: string) => (id.length > 10 ? `${id.slice(0, 8)}…` : id)

// A name inside a sentence is written as a marker (its index among the sentence's references
// between two U+E000), then cut out by `describeParts`; `describe` gives the plain words.
const mark = "\uE000"

/** Names the sentence refers to, collected while it is written. */
class Refs {
  readonly list: Array<{ readonly name: string; readonly type: string; readonly id: string }> = []
  ref(name: string, type: string, id: string): string {
    this.list.push({ name, type, id })
    return `${mark}${this.list.length - 1}${mark}`
  }
}

const text = (value: unknown): string | undefined => (typeof value === "string" && value !== "" ? value : undefined)

/** A user, a team or a piece of content by its current name, else the label kept, else a short id. */
const named = (refs: Refs, nameOf: NameOf, type: string, id: string, label?: string): string => {
  // A person by their name now; a team or content by the name it had then, as the event kept it.
  const name = type === "user" ? nameOf(type, id) ?? label : label ?? nameOf(type, id)
  return refs.ref(name ?? (type === "user" ? `user ${short(id)}` : type === "team" ? `a team (${short(id)})` : `${kindOf(type)} ${short(id)}`), type, id)
}

const actorOf = (event: AuditEventView, nameOf: NameOf, refs: Refs): string => {
  if (event.actor.type === "system") return event.actor.label === undefined ? "The system" : `${event.actor.label} (command line)`
  if (event.actor.id === "unknown") return "Someone"
  return named(refs, nameOf, "user", event.actor.id, event.actor.label)
}

/** How the event's actor is named. */
export const actorName = (event: AuditEventView, nameOf: NameOf): string => {
  const refs = new Refs()
  return plain(actorOf(event, nameOf, refs), refs)
}

const targetOf = (event: AuditEventView, nameOf: NameOf, refs: Refs): string => {
  const { target } = event
  if (target.type === "email") return target.id
  if (target.type === "user" || target.type === "team" || target.type === "space" || target.type === "collection" || target.type === "site") {
    const name = target.type === "user" ? nameOf(target.type, target.id) ?? target.label : target.label ?? nameOf(target.type, target.id)
    return refs.ref(name ?? (target.type === "user" ? `user ${short(target.id)}` : short(target.id)), target.type, target.id)
  }
  return target.label ?? short(target.id)
}

/** The text of a sentence with its markers replaced by the names. */
const plain = (sentence: string, refs: Refs): string => partsOf(sentence, refs).map((part) => (typeof part === "string" ? part : part.name)).join("")

const partsOf = (sentence: string, refs: Refs): Array<Part> =>
  sentence.split(mark).flatMap((piece, index): Array<Part> => {
    if (index % 2 === 0) return piece === "" ? [] : [piece]
    const ref = refs.list[Number(piece)]
    return ref === undefined ? [] : [ref]
  })

const quoted = (value: string) => `“${value}”`

/** Words for a kind of content ("space", "collection"). */
const kindOf = (type: string) => type.replace(/-/g, " ")

/** A site role as the site's Permissions panel names it. */
const siteRoleName = (role: string | undefined) => (role === "admin" ? "site admin" : role === "edit" ? "editor" : role === "read" ? "viewer" : role ?? "another")

/** The organization's settings as its Settings screen names them (`organization.settings-changed`). */
const settingNames: Readonly<Record<string, string>> = {
  title: "name",
  emailDomains: "email domains",
  hostname: "hostname",
  defaultRole: "default role",
  defaultContentSite: "default site",
  logo: "logo",
  sso: "single sign-on",
  ai: "AI",
  inviteLinks: "invite links"
}

/** The sentence saying what happened. */
export const describe = (event: AuditEventView, nameOf: NameOf): string => {
  const refs = new Refs()
  return plain(sentence(event, nameOf, refs), refs)
}

/** The sentence as words and names, each name with the id it stands for. */
export const describeParts = (event: AuditEventView, nameOf: NameOf): ReadonlyArray<Part> => {
  const refs = new Refs()
  return partsOf(sentence(event, nameOf, refs), refs)
}

/** The sentences of what is kept for AI (docs/ai.md): instructions, agent settings, MCP servers by their name. */
const agentSentence = (action: string, who: string, what: string, server: string | undefined, comments: number): string | undefined => {
  switch (action) {
    case "change-request.agent-reviewed":
      return `The agent reviewed the change request ${what} for ${who}, leaving ${comments} comment${comments === 1 ? "" : "s"}`
    case "change-request.agent-described":
      return `The agent wrote the subject and description of the change request ${what} for ${who}`
    case "organization.agent-edited":
      return `The organization’s agent made the edit ${who} asked for in the change request ${what}`
    case "organization.agent-instructions-changed":
      return `${who} changed the organization’s agent instructions`
    case "site.agent-settings-changed":
      return `${who} changed the agent settings of the site ${quoted(what)}`
    case "site.mcp-server-added":
      return `${who} added the MCP server ${quoted(server ?? "")} to the site ${quoted(what)}`
    case "site.mcp-server-changed":
      return `${who} changed the MCP server ${quoted(server ?? "")} of the site ${quoted(what)}`
    case "site.mcp-server-removed":
      return `${who} removed the MCP server ${quoted(server ?? "")} from the site ${quoted(what)}`
    default:
      return undefined
  }
}

const sentence = (event: AuditEventView, nameOf: NameOf, refs: Refs): string => {
  const who = actorOf(event, nameOf, refs)
  const what = targetOf(event, nameOf, refs)
  const p = event.payload ?? {}
  const self = event.actor.id === event.target.id
  // A team by its name ("the team “Support writers”"), else "a team (yqLy2pPj…)".
  const teamOf = (id: string) => {
    const name = nameOf("team", id)
    return name === undefined ? refs.ref(`a team (${short(id)})`, "team", id) : `the team ${quoted(refs.ref(name, "team", id))}`
  }
  const possessive = (value: string) => (plain(value, refs).endsWith("s") ? `${value}’` : `${value}’s`)
  switch (event.action) {
    case "auth.password.signed-in":
      return `${what} signed in with a password`
    case "auth.saml.signed-in":
      return `${what} signed in with SAML single sign-on`
    case "auth.oidc.signed-in":
      return `${what} signed in with OpenID Connect single sign-on`
    case "auth.password.failed":
      return event.target.id === "unknown" ? `A sign-in failed for an unknown email` : `A password sign-in failed for ${what}`
    case "auth.saml.failed":
    case "auth.oidc.failed": {
      const protocol = event.action === "auth.saml.failed" ? "SAML" : "OpenID Connect"
      const email = text(p["email"]) ?? event.actor.label
      const reason = text(p["reason"])
      return `${email === undefined ? "A" : `${email}’s`} ${protocol} sign-in failed${reason === undefined ? "" : `: ${reason}`}`
    }
    case "organization.settings-changed": {
      const fields = text(p["fields"])?.split(",").map((field) => settingNames[field] ?? field)
      return `${who} changed the organization’s settings${fields === undefined ? "" : ` (${fields.join(", ")})`}`
    }
    case "auth.password.changed":
      return `${who} changed ${self ? "their" : possessive(what)} password`
    case "auth.session.ended":
      return `${who} ended a sign-in session`
    case "auth.sessions.ended":
      return `${who} ended ${typeof p["sessions"] === "number" ? p["sessions"] : "several"} sign-in sessions`
    case "token.created":
      return `${who} created the API token ${quoted(what)}`
    case "token.revoked":
      return `${who} revoked the API token ${quoted(what)}`
    case "member.invited":
      return `${who} invited ${what}${text(p["role"]) === undefined ? "" : ` as ${roleName(text(p["role"]))}`}`
    case "member.joined":
      return self ? `${who} joined the organization` : `${who} added ${what} to the organization`
    case "member.role-changed":
      return `${who} changed ${self ? "their own" : possessive(what)} role to ${roleName(text(p["to"]) ?? null)}`
    case "member.removed":
      return self ? `${who} left the organization` : `${who} removed ${what} from the organization`
    case "invite-link.created": {
      const role = text(p["role"])
      return `${who} created an invite link${role === undefined ? "" : ` for the ${roleName(role)} role`}`
    }
    case "invite-link.changed": {
      const from = text(p["from"])
      const to = text(p["to"])
      return from !== undefined && to !== undefined && from !== to ? `${who} changed an invite link’s role from ${roleName(from)} to ${roleName(to)}` : `${who} changed an invite link`
    }
    case "instance.admin-granted":
      return `${who} made ${what} an instance administrator`
    case "instance.admin-withdrawn":
      return `${who} withdrew ${possessive(what)} instance administration`
    case "team.created":
      return `${who} created the team ${quoted(what)}`
    case "team.renamed":
      return `${who} renamed the team ${quoted(text(p["from"]) ?? what)} to ${quoted(text(p["to"]) ?? what)}`
    case "team.deleted":
      return `${who} deleted the team ${quoted(what)}`
    case "team.member-added":
      return `${who} added ${what} to the team ${quoted(text(p["team"]) ?? "")}`
    case "team.member-removed":
      return `${who} removed ${what} from the team ${quoted(text(p["team"]) ?? "")}`
    case "permission.granted":
    case "permission.changed":
    case "permission.revoked": {
      const principalId = text(p["principalId"]) ?? ""
      const principal = p["principalType"] === "team" ? teamOf(principalId) : named(refs, nameOf, "user", principalId)
      const known = event.target.label !== undefined || nameOf(event.target.type, event.target.id) !== undefined
      const on = `the ${kindOf(event.target.type)} ${known ? quoted(what) : what}`
      if (event.action === "permission.revoked") return `${who} removed ${possessive(principal)} access to ${on}`
      return `${who} gave ${principal} ${roleName(text(p["to"]) ?? null)} access to ${on}`
    }
    case "site.permission-granted":
    case "site.permission-changed":
    case "site.permission-revoked": {
      const principalId = text(p["principalId"]) ?? ""
      const principal = p["principal"] === "team" ? teamOf(principalId) : named(refs, nameOf, "user", principalId)
      const site = `the site ${quoted(what)}`
      if (event.action === "site.permission-revoked") return `${who} removed ${possessive(principal)} role on ${site}`
      return `${who} gave ${principal} the ${siteRoleName(text(p["to"]))} role on ${site}`
    }
    case "sso.provider-created":
      return `${who} set up ${p["protocol"] === "oidc" ? "OpenID Connect" : "SAML"} single sign-on ${quoted(what)}`
    case "sso.provider-changed":
      return `${who} changed the single sign-on ${quoted(what)}${text(p["fields"]) === undefined ? "" : ` (${text(p["fields"])!.replace(/,/g, ", ")})`}`
    case "sso.provider-removed":
      return `${who} removed the single sign-on ${quoted(what)}`
    case "gitsync.connected":
      return `${who} connected ${quoted(what)} to ${text(p["url"]) ?? "a Git repository"}`
    case "gitsync.changed":
      return `${who} changed the Git sync of ${quoted(what)} to ${text(p["url"]) ?? "another repository"}`
    case "gitsync.credentials-changed":
      return `${who} changed the Git credentials of ${quoted(what)}`
    case "gitsync.disconnected":
      return `${who} disconnected ${quoted(what)} from Git`
    case "site.visibility-changed":
      return `${who} changed the visibility of the site ${quoted(what)} to ${text(p["to"]) ?? "another"}`
    case "site.published":
      return `${who} published the site ${quoted(what)}`
    case "site.unpublished":
      return `${who} unpublished the site ${quoted(what)}`
    case "site.share-link-created":
      return `${who} created a share link ${event.target.label === undefined ? "" : `${quoted(event.target.label)} `}for the site ${quoted(text(p["site"]) ?? "")}`
    case "site.share-link-revoked":
      return `${who} revoked a share link ${event.target.label === undefined ? "" : `${quoted(event.target.label)} `}of the site ${quoted(text(p["site"]) ?? "")}`
    case "site.visitor-key-rotated":
      return `${who} rotated the visitor authentication key of the site ${quoted(what)}`
    case "site.visitor-auth-changed":
      return `${who} changed the visitor authentication of the site ${quoted(what)}`
    case "site.visitor-key-read":
      return `${who} viewed the visitor authentication key of the site ${quoted(what)}`
    case "site.hostname-changed": {
      const to = text(p["to"])
      return to === undefined ? `${who} removed the custom hostname of the site ${quoted(what)}` : `${who} set the hostname of the site ${quoted(what)} to ${to}`
    }
    case "site.deleted":
      return `${who} deleted the site ${quoted(what)}`
    case "change-request.merged":
      return `${who} merged the change request ${what}`
    case "space.deleted":
      return `${who} deleted the space ${quoted(what)}`
    case "space.transferred":
      return `${who} moved the space ${quoted(what)} to another organization`
    case "space.restored":
      return `${who} restored the space ${quoted(what)}`
    case "collection.deleted":
      return `${who} deleted the collection ${quoted(what)}`
    case "backup.created":
      return `${who} took a backup of the instance`
    case "backup.restored":
      return `${who} restored a backup into the instance`
    default:
      return agentSentence(event.action, who, what, text(p["name"]), typeof p["comments"] === "number" ? p["comments"] : 0) ?? `${who}: ${event.action} (${kindOf(event.target.type)} ${what})`
  }
}
