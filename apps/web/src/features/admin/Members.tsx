/**
 * `/o/<org>/members`: the organization's members with their role, teams and when last seen;
 * for admins, inviting by email with a role (`inviteUsersToOrganization`), the pending
 * invitations (their links to pass on, copied; withdraw), changing a member's role and removing a member (after a confirmation).
 * Others see the list, read-only.
 */
import type { Member, MemberInvite } from "@quire/api"
import { AsyncResult } from "effect/reactivity"
import { type FormEvent, useId, useState } from "react"
import { QuireApi } from "../../api/client.ts"
import { organizationAtom } from "../../api/queries.ts"
import { useAtomValue, useMutation } from "../../api/react.ts"
import { sessionAtom } from "../../api/session.ts"
import { Field } from "../../ui/Field.tsx"
import { Failure, Loading } from "../../ui/States.tsx"
import { formatTime } from "../../ui/time.ts"
import { emailsOf, isEmail, problemOf, type Role, roleName, roleOfValue, roleValue } from "./problems.ts"
import { membersAtom, memberInvitesAtom, invitesKey, membersKey } from "./queries.ts"
import { Confirm, CopyButton, FormError, OrgTabs, roleOptions, SelectField, shortRoleOptions, useForm } from "./ui.tsx"

const invite = QuireApi.mutation("organizations", "inviteUsersToOrganization")
const updateMember = QuireApi.mutation("members", "updateMemberInOrganizationById")
const removeMember = QuireApi.mutation("members", "removeMemberFromOrganizationById")
const withdrawInvite = QuireApi.mutation("organizations", "declineOrganizationMemberInvite")

const InviteForm = (props: { readonly organizationId: string; readonly defaultRole: Role | null }) => {
  const [emails, setEmails] = useState("")
  const [role, setRole] = useState<string>(roleValue(props.defaultRole))
  const [done, setDone] = useState("")
  const send = useMutation(invite)
  const { busy, errors, submit, check } = useForm(["emails", "role"])
  const onSubmit = (event: FormEvent) => {
    event.preventDefault()
    setDone("")
    const list = emailsOf(emails)
    const wrong = list.find((email) => !isEmail(email))
    if (!check(list.length === 0 ? { emails: "Enter at least one email address." } : wrong !== undefined ? { emails: `“${wrong}” is not an email address.` } : list.length > 100 ? { emails: "Invite at most 100 people at once." } : {})) return
    void submit(async () => {
      const result = await send({
        params: { organizationId: props.organizationId },
        payload: { emails: list, role: roleOfValue(role) },
        reactivityKeys: [membersKey(props.organizationId), invitesKey(props.organizationId)]
      })
      setEmails("")
      setDone(`Invited ${result.invited === 1 ? list[0] : `${result.invited} people`} as ${roleName(roleOfValue(role))}.`)
    })
  }
  return (
    <section aria-labelledby="invite-heading" className="admin-section">
      <h2 id="invite-heading">Invite people</h2>
      <form onSubmit={onSubmit} noValidate className="admin-form">
        <FormError errors={errors} />
        <Field label="Email addresses" name="emails" value={emails} onChange={setEmails} error={errors.fields["emails"]} hint="One or more, separated by commas or spaces. Each person gets an invitation to accept." autoComplete="off" />
        <SelectField label="Role" name="role" value={role} onChange={setRole} options={roleOptions(true)} error={errors.fields["role"]} />
        <div className="toolbar">
          <button type="submit" className="primary" disabled={busy}>{busy ? "Inviting…" : "Invite"}</button>
          <span className="status" role="status">{done}</span>
        </div>
      </form>
    </section>
  )
}

const RoleCell = (props: { readonly organizationId: string; readonly member: Member }) => {
  const { member } = props
  const [role, setRole] = useState<string>(roleValue(member.role))
  const change = useMutation(updateMember)
  const { busy, errors, submit } = useForm(["role"], () => "role")
  const errorId = useId()
  const current = roleValue(member.role)
  const save = () =>
    void submit(async () => {
      await change({ params: { organizationId: props.organizationId, userId: member.user.id }, payload: { role: roleOfValue(role) }, reactivityKeys: [membersKey(props.organizationId)] })
    })
  const problem = errors.fields["role"] ?? errors.form
  return (
    <div className="role-cell">
      <select aria-label={`Role of ${member.user.displayName}`} value={role} onChange={(event) => setRole(event.target.value)}
        aria-invalid={problem === undefined ? undefined : true} aria-describedby={problem === undefined ? undefined : errorId}>
        {shortRoleOptions(true).map((option) => <option key={option.value} value={option.value}>{option.label}</option>)}
      </select>
      {role === current ? null : (
        <>
          <button type="button" className="primary" disabled={busy} onClick={save}>{busy ? "Saving…" : "Save"}</button>
          <button type="button" className="link" onClick={() => setRole(current)}>Undo</button>
        </>
      )}
      {problem === undefined ? null : <p id={errorId} className="field-error" role="alert">{problem}</p>}
    </div>
  )
}

const MembersTable = (props: { readonly organizationId: string; readonly admin: boolean; readonly me: string | undefined; readonly orgTitle: string }) => {
  const members = useAtomValue(membersAtom(props.organizationId))
  const remove = useMutation(removeMember)
  const [removing, setRemoving] = useState<Member | undefined>(undefined)
  const [problem, setProblem] = useState<string | undefined>(undefined)
  const [status, setStatus] = useState("")
  if (AsyncResult.isInitial(members)) return <Loading what="members" />
  if (AsyncResult.isFailure(members)) return <Failure result={members} />
  const items = members.value.items
  return (
    <section aria-labelledby="members-heading" className="admin-section">
      <h2 id="members-heading">Members ({items.length})</h2>
      <span className="status" role="status">{status}</span>
      <table className="admin-table">
        <thead><tr><th scope="col">Person</th><th scope="col">Role</th><th scope="col" className="wide">Teams</th><th scope="col" className="wide">Last seen</th>{props.admin ? <th scope="col"><span className="visually-hidden">Actions</span></th> : null}</tr></thead>
        <tbody>
          {items.map((member) => (
            <tr key={member.user.id}>
              <td>
                <div className="who-name">{member.user.displayName}{member.user.id === props.me ? <span className="muted"> (you)</span> : null}</div>
                {member.user.email === undefined ? null : <div className="muted small">{member.user.email}</div>}
              </td>
              <td>{props.admin && member.user.id !== props.me
                ? <RoleCell key={member.role ?? "guest"} organizationId={props.organizationId} member={member} />
                : roleName(member.role)}</td>
              <td className="wide">{member.teams === 0 ? <span className="muted">None</span> : member.teams}</td>
              <td className="wide">{member.lastSeenAt === undefined ? <span className="muted">Never</span> : formatTime(member.lastSeenAt)}</td>
              {props.admin ? (
                <td>{member.user.id === props.me ? null : (
                  <button type="button" onClick={() => { setProblem(undefined); setRemoving(member) }} aria-label={`Remove ${member.user.displayName}`}>Remove</button>
                )}</td>
              ) : null}
            </tr>
          ))}
        </tbody>
      </table>
      {removing === undefined ? null : (
        <Confirm title={`Remove ${removing.user.displayName}?`} action="Remove" busyAction="Removing…" problem={problem}
          onClose={() => setRemoving(undefined)}
          onConfirm={async () => {
            try {
              await remove({ params: { organizationId: props.organizationId, userId: removing.user.id }, reactivityKeys: [membersKey(props.organizationId)] })
              setStatus(`Removed ${removing.user.displayName}.`)
              setRemoving(undefined)
            } catch (error) {
              setProblem(problemOf(error, []).form)
            }
          }}>
          <p>{removing.user.displayName} will lose access to {props.orgTitle} and leave its teams. Content they wrote stays.</p>
        </Confirm>
      )}
    </section>
  )
}

/** The page where the invited person accepts: the admin passes this link on (it proves no email; Quire mails its own secret link when it sends mail). */
const invitationLink = (organizationId: string, item: MemberInvite) => `${window.location.origin}/invite/${organizationId}.${item.id}`

const PendingInvites = (props: { readonly organizationId: string }) => {
  const session = useAtomValue(sessionAtom)
  // Whether this server mails the invitations (SMTP set up): then the link here is a second way to pass it on.
  const mails = AsyncResult.isSuccess(session) && session.value.signedIn && session.value.info.emailDelivery === true
  const invites = useAtomValue(memberInvitesAtom(props.organizationId))
  const withdraw = useMutation(withdrawInvite)
  const [problem, setProblem] = useState<string | undefined>(undefined)
  if (AsyncResult.isInitial(invites)) return <Loading what="invitations" />
  if (AsyncResult.isFailure(invites)) return <Failure result={invites} />
  const items: ReadonlyArray<MemberInvite> = invites.value.items
  const onWithdraw = async (item: MemberInvite) => {
    setProblem(undefined)
    try {
      await withdraw({ params: { organizationId: props.organizationId, inviteId: item.id }, reactivityKeys: [invitesKey(props.organizationId)] })
    } catch (error) {
      setProblem(problemOf(error, []).form)
    }
  }
  return (
    <section aria-labelledby="pending-heading" className="admin-section">
      <h2 id="pending-heading">Pending invitations</h2>
      <p className="muted">
        {mails ? "Each person gets their invitation by email; its link is here too, to pass on yourself." : "Quire sends no email: send each person their invitation link."} Whoever opens it with that email address joins.
      </p>
      {problem === undefined ? null : <p className="form-error" role="alert">{problem}</p>}
      {items.length === 0 ? <p className="muted">No invitation is waiting.</p> : (
        <ul className="admin-list">
          {items.map((item) => (
            <li key={item.id}>
              <div className="grow">
                <div><strong>{item.email}</strong> <span className="muted">as {roleName(item.role)}, invited {formatTime(item.createdAt)}</span></div>
                <label className="visually-hidden" htmlFor={`invite-${item.id}`}>Invitation link for {item.email}</label>
                <input id={`invite-${item.id}`} className="link-field" readOnly value={invitationLink(props.organizationId, item)} onFocus={(event) => event.target.select()} />
              </div>
              <div className="row-actions">
                <CopyButton text={invitationLink(props.organizationId, item)} label={`Copy invitation link for ${item.email}`} short="Copy invitation link" selectId={`invite-${item.id}`} />
                <button type="button" onClick={() => void onWithdraw(item)} aria-label={`Withdraw the invitation of ${item.email}`}>Withdraw</button>
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}

export const Members = (props: { readonly organizationId: string }) => {
  const org = useAtomValue(organizationAtom(props.organizationId))
  const session = useAtomValue(sessionAtom)
  const me = AsyncResult.isSuccess(session) && session.value.signedIn ? session.value.info.user.id : undefined
  if (AsyncResult.isFailure(org)) return <Failure result={org} />
  if (!AsyncResult.isSuccess(org)) return <Loading what="the organization" />
  const admin = org.value.permissions.admin
  return (
    <div className="admin">
      <OrgTabs organizationId={props.organizationId} current="members" title={org.value.title} admin={org.value.permissions.admin} />
      <h1>Members</h1>
      {admin ? null : <p className="muted">Only administrators can invite people or change roles.</p>}
      {admin ? <InviteForm organizationId={props.organizationId} defaultRole={org.value.defaultRole} /> : null}
      <MembersTable organizationId={props.organizationId} admin={admin} me={me} orgTitle={org.value.title} />
      {admin ? <PendingInvites organizationId={props.organizationId} /> : null}
    </div>
  )
}

export default Members
