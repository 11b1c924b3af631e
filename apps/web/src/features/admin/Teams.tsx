/**
 * `/o/<org>/teams`: the organization's teams; for admins, creating one (with its first members),
 * renaming, deleting (after a confirmation), adding and removing members and setting their role in
 * the team (owner or member). Others see the teams and their members, read-only.
 */
import type { Member, Team } from "@quire/api"
import { AsyncResult } from "effect/reactivity"
import { type FormEvent, useId, useState } from "react"
import { QuireApi } from "../../api/client.ts"
import { organizationAtom } from "../../api/queries.ts"
import { useAtomValue, useMutation } from "../../api/react.ts"
import { Field } from "../../ui/Field.tsx"
import { Failure, Loading } from "../../ui/States.tsx"
import { problemOf } from "./problems.ts"
import { membersAtom, membersKey, teamMembersAtom, teamsAtom, teamsKey } from "./queries.ts"
import { Confirm, FormError, OrgTabs, SelectField, useForm } from "./ui.tsx"
import { EmptyState } from "../../ui/EmptyState.tsx"
import { MembersIcon } from "../../ui/icons.tsx"

const createTeam = QuireApi.mutation("teams", "createOrganizationTeam")
const renameTeam = QuireApi.mutation("teams", "updateTeamInOrganizationById")
const deleteTeam = QuireApi.mutation("teams", "removeTeamFromOrganizationById")
const putTeamMember = QuireApi.mutation("teamMembers", "addMemberToOrganizationTeamById")
const deleteTeamMember = QuireApi.mutation("teamMembers", "deleteMemberFromOrganizationTeamById")

const titleProblem = (title: string) =>
  title === "" ? { title: "Give the team a name." } : title.length > 64 ? { title: "A team's name has at most 64 characters." } : {}

const memberOptions = (members: ReadonlyArray<Member>) => [
  { value: "", label: "Choose a member…" },
  ...members.map((member) => ({ value: member.user.id, label: member.user.email === undefined ? member.user.displayName : `${member.user.displayName} (${member.user.email})` }))
]

const CreateTeam = (props: { readonly organizationId: string; readonly members: ReadonlyArray<Member> }) => {
  const [title, setTitle] = useState("")
  const [first, setFirst] = useState("")
  const [done, setDone] = useState("")
  const create = useMutation(createTeam)
  const { busy, errors, submit, check } = useForm(["title", "members"])
  const onSubmit = (event: FormEvent) => {
    event.preventDefault()
    setDone("")
    const value = title.trim()
    if (!check(titleProblem(value))) return
    void submit(async () => {
      await create({
        params: { organizationId: props.organizationId },
        payload: { title: value, members: first === "" ? [] : [first] },
        reactivityKeys: [teamsKey(props.organizationId), membersKey(props.organizationId)]
      })
      setTitle("")
      setFirst("")
      setDone(`Created the team ${value}.`)
    })
  }
  return (
    <section aria-labelledby="new-team-heading" className="admin-section">
      <h2 id="new-team-heading">New team</h2>
      <form onSubmit={onSubmit} noValidate className="admin-form inline-form">
        <FormError errors={errors} />
        <Field label="Team name" name="title" value={title} onChange={setTitle} error={errors.fields["title"]} autoComplete="off" />
        <SelectField label="First member (optional)" name="members" value={first} onChange={setFirst} options={memberOptions(props.members)} error={errors.fields["members"]} />
        <div className="toolbar">
          <button type="submit" className="primary" disabled={busy}>{busy ? "Creating…" : "Create the team"}</button>
          <span className="status" role="status">{done}</span>
        </div>
      </form>
    </section>
  )
}

const TeamMembers = (props: { readonly organizationId: string; readonly team: Team; readonly members: ReadonlyArray<Member>; readonly canManage: boolean }) => {
  const { organizationId, team } = props
  const list = useAtomValue(teamMembersAtom(`${organizationId}\n${team.id}`))
  const put = useMutation(putTeamMember)
  const remove = useMutation(deleteTeamMember)
  const [adding, setAdding] = useState("")
  const add = useForm(["userId"], () => "userId")
  const row = useForm([])
  const reactivityKeys = [teamsKey(organizationId), membersKey(organizationId)]
  if (AsyncResult.isInitial(list)) return <Loading what="the team's members" />
  if (AsyncResult.isFailure(list)) return <Failure result={list} />
  const inTeam = new Set(list.value.items.map((item) => item.organization.user.id))
  const others = props.members.filter((member) => !inTeam.has(member.user.id))
  const onAdd = (event: FormEvent) => {
    event.preventDefault()
    if (!add.check(adding === "" ? { userId: "Choose the member to add." } : {})) return
    void add.submit(async () => {
      await put({ params: { organizationId, teamId: team.id, userId: adding }, payload: { role: "member" }, reactivityKeys })
      setAdding("")
    })
  }
  return (
    <div className="team-members">
      <FormError errors={row.errors} />
      {list.value.items.length === 0 ? <p className="muted">Nobody is in this team yet.</p> : (
        <ul className="admin-list">
          {list.value.items.map((item) => {
            const user = item.organization.user
            return (
              <li key={user.id}>
                <span className="grow">{user.displayName}{user.email === undefined ? null : <span className="muted small"> {user.email}</span>}</span>
                {props.canManage ? (
                  <>
                    <label className="visually-hidden" htmlFor={`tm-${team.id}-${user.id}`}>Role of {user.displayName} in {team.title}</label>
                    <select id={`tm-${team.id}-${user.id}`} className="compact" value={item.team.role} disabled={row.busy}
                      onChange={(event) => {
                        const role = event.target.value === "owner" ? "owner" : "member"
                        void row.submit(async () => { await put({ params: { organizationId, teamId: team.id, userId: user.id }, payload: { role }, reactivityKeys }) })
                      }}>
                      <option value="member">Member</option>
                      <option value="owner">Owner</option>
                    </select>
                    <button type="button" disabled={row.busy} aria-label={`Remove ${user.displayName} from ${team.title}`}
                      onClick={() => void row.submit(async () => { await remove({ params: { organizationId, teamId: team.id, userId: user.id }, reactivityKeys }) })}>Remove</button>
                  </>
                ) : <span className="muted">{item.team.role === "owner" ? "Owner" : "Member"}</span>}
              </li>
            )
          })}
        </ul>
      )}
      {props.canManage ? (
        <form onSubmit={onAdd} noValidate className="admin-form inline-form">
          <SelectField label={`Add a member to ${team.title}`} name="userId" value={adding} onChange={setAdding} options={memberOptions(others)} error={add.errors.fields["userId"]} />
          <div className="toolbar"><button type="submit" disabled={add.busy}>{add.busy ? "Adding…" : "Add"}</button></div>
        </form>
      ) : null}
    </div>
  )
}

const TeamCard = (props: { readonly organizationId: string; readonly team: Team; readonly members: ReadonlyArray<Member>; readonly admin: boolean; readonly onDeleted: (title: string) => void }) => {
  const { organizationId, team } = props
  const [open, setOpen] = useState(false)
  const [renaming, setRenaming] = useState(false)
  const [title, setTitle] = useState(team.title)
  const [deleting, setDeleting] = useState(false)
  const [deleteProblem, setDeleteProblem] = useState<string | undefined>(undefined)
  const rename = useMutation(renameTeam)
  const drop = useMutation(deleteTeam)
  const form = useForm(["title"])
  const panelId = useId()
  const canManage = props.admin || team.permissions.admin
  const onRename = (event: FormEvent) => {
    event.preventDefault()
    const value = title.trim()
    if (!form.check(titleProblem(value))) return
    void form.submit(async () => {
      await rename({ params: { organizationId, teamId: team.id }, payload: { title: value }, reactivityKeys: [teamsKey(organizationId)] })
      setRenaming(false)
    })
  }
  return (
    <li className="team-card">
      {renaming ? (
        <form onSubmit={onRename} noValidate className="admin-form inline-form">
          <FormError errors={form.errors} />
          <Field label={`New name of ${team.title}`} name="title" value={title} onChange={setTitle} error={form.errors.fields["title"]} autoFocus autoComplete="off" />
          <div className="toolbar">
            <button type="submit" className="primary" disabled={form.busy}>{form.busy ? "Saving…" : "Rename"}</button>
            <button type="button" onClick={() => { setRenaming(false); setTitle(team.title) }}>Cancel</button>
          </div>
        </form>
      ) : (
        <div className="team-head">
          <h3>{team.title}</h3>
          <span className="muted small">{team.members === 1 ? "1 member" : `${team.members} members`}</span>
          <span className="grow" />
          <button type="button" aria-expanded={open} aria-controls={panelId} onClick={() => setOpen(!open)}>{open ? "Hide members" : "Members"}<span className="visually-hidden"> of {team.title}</span></button>
          {props.admin ? (
            <>
              <button type="button" onClick={() => setRenaming(true)} aria-label={`Rename ${team.title}`}>Rename</button>
              <button type="button" onClick={() => { setDeleteProblem(undefined); setDeleting(true) }} aria-label={`Delete ${team.title}`}>Delete</button>
            </>
          ) : null}
        </div>
      )}
      <div id={panelId} hidden={!open}>
        {open ? <TeamMembers organizationId={organizationId} team={team} members={props.members} canManage={canManage} /> : null}
      </div>
      {deleting ? (
        <Confirm title={`Delete the team ${team.title}?`} action="Delete" busyAction="Deleting…" problem={deleteProblem} onClose={() => setDeleting(false)}
          onConfirm={async () => {
            try {
              await drop({ params: { organizationId, teamId: team.id }, reactivityKeys: [teamsKey(organizationId), membersKey(organizationId)] })
              setDeleting(false)
              props.onDeleted(team.title)
            } catch (error) {
              setDeleteProblem(problemOf(error, []).form)
            }
          }}>
          <p>Its members stay in the organization, but lose what was shared with the team.</p>
        </Confirm>
      ) : null}
    </li>
  )
}

export const Teams = (props: { readonly organizationId: string }) => {
  const org = useAtomValue(organizationAtom(props.organizationId))
  const teams = useAtomValue(teamsAtom(props.organizationId))
  const members = useAtomValue(membersAtom(props.organizationId))
  const [status, setStatus] = useState("")
  if (AsyncResult.isFailure(org)) return <Failure result={org} />
  if (!AsyncResult.isSuccess(org)) return <Loading what="the organization" />
  const admin = org.value.permissions.admin
  const memberList = AsyncResult.isSuccess(members) ? members.value.items : []
  return (
    <div className="admin">
      <OrgTabs organizationId={props.organizationId} current="teams" title={org.value.title} admin={org.value.permissions.admin} />
      <h1>Teams</h1>
      {admin ? null : <p className="muted">Only administrators can create, rename or delete teams.</p>}
      {admin ? <CreateTeam organizationId={props.organizationId} members={memberList} /> : null}
      <section aria-labelledby="teams-heading" className="admin-section">
        <h2 id="teams-heading">Teams of {org.value.title}</h2>
        <span className="status" role="status">{status}</span>
        {AsyncResult.isInitial(teams) ? <Loading what="teams" /> : AsyncResult.isFailure(teams) ? <Failure result={teams} />
          : teams.value.items.length === 0 ? <EmptyState icon={<MembersIcon size={20} />} title="No team yet">A team gives its members the same access to spaces and collections at once.</EmptyState>
          : (
            <ul className="team-list">
              {teams.value.items.map((team) => (
                <TeamCard key={`${team.id}:${team.title}`} organizationId={props.organizationId} team={team} members={memberList} admin={admin} onDeleted={(title) => setStatus(`Deleted the team ${title}.`)} />
              ))}
            </ul>
          )}
      </section>
    </div>
  )
}

export default Teams
