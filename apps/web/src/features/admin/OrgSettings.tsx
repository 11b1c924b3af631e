/**
 * `/o/<org>/settings`: the organization's title, default role and email domains
 * (`updateOrganizationById`), and its invite links: allowed or not, created with a role and an
 * expiry, listed with their link to copy, revoked; the merge rules its spaces follow; the agent
 * instructions every AI agent in it is given (features/agents). Admins only; others are told so,
 * and read the merge rules and the agent instructions.
 */
import type { LinkInvite, Organization } from "@quire/api"
import { AsyncResult } from "effect/reactivity"
import { type FormEvent, useState } from "react"
import { QuireApi } from "../../api/client.ts"
import { organizationAtom } from "../../api/queries.ts"
import { useAtomValue, useMutation } from "../../api/react.ts"
import { Field } from "../../ui/Field.tsx"
import { MergeRulesForm } from "../merge-rules/MergeRulesForm.tsx"
import { OrgAgentInstructions } from "../agents/OrgAgentInstructions.tsx"
import { GitInstallationsSection } from "../gitsync/Installations.tsx"
import { Link } from "../../ui/Link.tsx"
import { Failure, Loading } from "../../ui/States.tsx"
import { formatTime } from "../../ui/time.ts"
import { domainsOf, expiresAtOf, isDomain, expiryChoices, problemOf, roleName, roleOfValue, roleValue } from "./problems.ts"
import { inviteLinksAtom, invitesKey } from "./queries.ts"
import { Confirm, CopyButton, FormError, OrgTabs, roleOptions, SelectField, useForm } from "./ui.tsx"

const updateOrganization = QuireApi.mutation("organizations", "updateOrganizationById")
const createLink = QuireApi.mutation("organizations", "createOrganizationInvite")
const deleteLink = QuireApi.mutation("organizations", "deleteOrganizationInviteById")

const General = (props: { readonly org: Organization }) => {
  const { org } = props
  const [title, setTitle] = useState(org.title)
  const [defaultRole, setDefaultRole] = useState<string>(roleValue(org.defaultRole))
  const [domains, setDomains] = useState(org.emailDomains.join(", "))
  const [done, setDone] = useState("")
  const update = useMutation(updateOrganization)
  const { busy, errors, submit, check } = useForm(["title", "defaultRole", "emailDomains"])
  const onSubmit = (event: FormEvent) => {
    event.preventDefault()
    setDone("")
    const value = title.trim()
    const wrongDomain = domainsOf(domains).find((domain) => !isDomain(domain))
    if (!check({
      ...(value.length < 2 ? { title: "The title needs at least 2 characters." } : value.length > 255 ? { title: "The title can have at most 255 characters." } : {}),
      ...(wrongDomain === undefined ? {} : { emailDomains: `“${wrongDomain}” is not a domain name such as example.com.` })
    })) return
    void submit(async () => {
      await update({
        params: { organizationId: org.id },
        payload: { title: value, defaultRole: roleOfValue(defaultRole), emailDomains: domainsOf(domains) },
        reactivityKeys: ["orgs"]
      })
      setDone("Saved.")
    })
  }
  return (
    <section aria-labelledby="general-heading" className="admin-section">
      <h2 id="general-heading">General</h2>
      <form onSubmit={onSubmit} noValidate className="admin-form">
        <FormError errors={errors} />
        <Field label="Title" name="title" value={title} onChange={setTitle} error={errors.fields["title"]} autoComplete="organization" />
        <SelectField label="Default role" name="defaultRole" value={defaultRole} onChange={setDefaultRole} options={roleOptions(true)} error={errors.fields["defaultRole"]}
          hint="The role people get when they join through the organization's email domains." />
        <Field label="Email domains" name="emailDomains" value={domains} onChange={setDomains} error={errors.fields["emailDomains"]}
          hint="People whose verified address is at one of these domains (example.com) may find the organization and join it themselves, with the default role. Separate them with commas." autoComplete="off" />
        <div className="toolbar">
          <button type="submit" className="primary" disabled={busy}>{busy ? "Saving…" : "Save"}</button>
          <span className="status" role="status">{done}</span>
        </div>
      </form>
    </section>
  )
}

const linkOf = (organizationId: string, invite: LinkInvite) => `${window.location.origin}/invite/${organizationId}.${invite.id}`

const InviteLinks = (props: { readonly org: Organization }) => {
  const { org } = props
  const links = useAtomValue(inviteLinksAtom(org.id))
  const [role, setRole] = useState<string>("read")
  const [expiry, setExpiry] = useState<string>("7")
  const [revoking, setRevoking] = useState<LinkInvite | undefined>(undefined)
  const [revokeProblem, setRevokeProblem] = useState<string | undefined>(undefined)
  const [status, setStatus] = useState("")
  const update = useMutation(updateOrganization)
  const create = useMutation(createLink)
  const revoke = useMutation(deleteLink)
  const toggle = useForm(["inviteLinks"], () => "inviteLinks")
  const form = useForm(["role", "expiresAt"])
  const onToggle = (enabled: boolean) =>
    void toggle.submit(async () => {
      await update({ params: { organizationId: org.id }, payload: { inviteLinks: enabled }, reactivityKeys: ["orgs"] })
    })
  const onCreate = (event: FormEvent) => {
    event.preventDefault()
    setStatus("")
    void form.submit(async () => {
      const expiresAt = expiresAtOf(expiry, new Date())
      await create({
        params: { organizationId: org.id },
        payload: { role: roleOfValue(role), ...(expiresAt === undefined ? {} : { expiresAt }) },
        reactivityKeys: [invitesKey(org.id)]
      })
      setStatus(`Created an invite link for the role ${roleName(roleOfValue(role))}.`)
    })
  }
  const now = Date.now()
  return (
    <section aria-labelledby="links-heading" className="admin-section">
      <h2 id="links-heading">Invite links</h2>
      <p className="muted">Anyone holding an invite link can join {org.title} with its role until it expires or is revoked.</p>
      <div className="field checkbox">
        <label>
          <input type="checkbox" checked={org.inviteLinks} disabled={toggle.busy} onChange={(event) => onToggle(event.target.checked)}
            aria-describedby={toggle.errors.fields["inviteLinks"] === undefined ? undefined : "links-toggle-error"} />
          People may join with invite links
        </label>
        {toggle.errors.fields["inviteLinks"] === undefined ? null : <p id="links-toggle-error" className="field-error" role="alert">{toggle.errors.fields["inviteLinks"]}</p>}
      </div>
      {org.inviteLinks ? null : <p className="notice">Invite links are turned off: the links below do not let anyone join until you turn them on.</p>}
      <form onSubmit={onCreate} noValidate className="admin-form inline-form">
        <FormError errors={form.errors} />
        <SelectField label="Role of people who join" name="role" value={role} onChange={setRole} options={roleOptions(true)} error={form.errors.fields["role"]} />
        <SelectField label="Expires after" name="expiresAt" value={expiry} onChange={setExpiry} options={expiryChoices} error={form.errors.fields["expiresAt"]} />
        <div className="toolbar">
          <button type="submit" className="primary" disabled={form.busy}>{form.busy ? "Creating…" : "Create an invite link"}</button>
          <span className="status" role="status">{status}</span>
        </div>
      </form>
      {AsyncResult.isInitial(links) ? <Loading what="invite links" /> : AsyncResult.isFailure(links) ? <Failure result={links} /> : links.value.items.length === 0
        ? <p className="muted">No invite link yet.</p>
        : (
          <ul className="admin-list links">
            {links.value.items.map((invite) => {
              const expired = invite.expiresAt !== undefined && Date.parse(invite.expiresAt) <= now
              const fieldId = `link-${invite.id}`
              return (
                <li key={invite.id}>
                  <div className="grow">
                    <div><strong>{roleName(invite.role)}</strong> <span className="muted">· created {formatTime(invite.createdAt)} · {invite.expiresAt === undefined ? "never expires" : `${expired ? "expired" : "expires"} ${formatTime(invite.expiresAt)}`}</span></div>
                    <label className="visually-hidden" htmlFor={fieldId}>Invite link for {roleName(invite.role)}s</label>
                    <input id={fieldId} className="link-field" readOnly value={linkOf(org.id, invite)} onFocus={(event) => event.target.select()} />
                  </div>
                  <div className="row-actions">
                    <CopyButton text={linkOf(org.id, invite)} label="Copy link" selectId={fieldId} />
                    <button type="button" onClick={() => { setRevokeProblem(undefined); setRevoking(invite) }} aria-label={`Revoke the ${roleName(invite.role)} invite link created ${formatTime(invite.createdAt)}`}>Revoke</button>
                  </div>
                </li>
              )
            })}
          </ul>
        )}
      {revoking === undefined ? null : (
        <Confirm title="Revoke this invite link?" action="Revoke" busyAction="Revoking…" problem={revokeProblem} onClose={() => setRevoking(undefined)}
          onConfirm={async () => {
            try {
              await revoke({ params: { organizationId: org.id, inviteId: revoking.id }, reactivityKeys: [invitesKey(org.id)] })
              setStatus("Revoked the link.")
              setRevoking(undefined)
            } catch (error) {
              setRevokeProblem(problemOf(error, []).form)
            }
          }}>
          <p>Nobody will be able to join with it any more. People who already joined stay members.</p>
        </Confirm>
      )}
    </section>
  )
}

/** The merge rules every space that follows the organization's has (GitBook's organization merge rules). */
const OrganizationMergeRules = (props: { readonly org: Organization }) => {
  const update = useMutation(updateOrganization)
  return (
    <section id="merge-rules" aria-labelledby="merge-rules-heading" className="admin-section">
      <h2 id="merge-rules-heading">Merge rules</h2>
      <p className="muted">What a change request must meet before it merges, in every space that follows the organization's merge rules (a new space does). A space may have its own instead, on its Merge rules screen.</p>
      <MergeRulesForm scope="organization" organizationId={props.org.id} rules={props.org.mergeRules} canEdit={props.org.permissions.admin}
        onSave={async (mergeRules) => {
          // An organization has no `inherit`: the form offers only none and rules.
          if (mergeRules.type === "inherit") return
          await update({ params: { organizationId: props.org.id }, payload: { mergeRules }, reactivityKeys: ["orgs"] })
        }} />
    </section>
  )
}

export const OrgSettings = (props: { readonly organizationId: string }) => {
  const org = useAtomValue(organizationAtom(props.organizationId))
  if (AsyncResult.isFailure(org)) return <Failure result={org} />
  if (!AsyncResult.isSuccess(org)) return <Loading what="the organization" />
  return (
    <div className="admin">
      <OrgTabs organizationId={props.organizationId} current="settings" title={org.value.title} admin={org.value.permissions.admin} />
      <h1>Organization settings</h1>
      {org.value.permissions.admin ? (
        <>
          <General key={org.value.id} org={org.value} />
          <InviteLinks org={org.value} />
          <OrganizationMergeRules org={org.value} />
          <OrgAgentInstructions org={org.value} />
          <GitInstallationsSection organizationId={org.value.id} admin />
          <section aria-labelledby="sso-heading" className="admin-section">
            <h2 id="sso-heading">Single sign-on</h2>
            <p>{org.value.sso ? "Single sign-on is required for members." : "Members may sign in with a password."} <Link href={`/o/${org.value.id}/settings/sso`}>Set up SAML and OpenID Connect providers</Link></p>
          </section>
        </>
      ) : (
        <div className="panel">
          <p>Only administrators of {org.value.title} can change its settings.</p>
          <dl className="admin-facts">
            <dt>Title</dt><dd>{org.value.title}</dd>
            <dt>Default role</dt><dd>{roleName(org.value.defaultRole)}</dd>
          </dl>
          <OrganizationMergeRules org={org.value} />
          <OrgAgentInstructions org={org.value} />
          <GitInstallationsSection organizationId={org.value.id} admin={false} />
        </div>
      )}
    </div>
  )
}

export default OrgSettings
