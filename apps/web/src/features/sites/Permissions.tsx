/**
 * Who may change a site (GitBook's site permissions): everyone's role on it and where it comes
 * from (`listPermissionsAggregateInSite`), the roles granted on it to people and teams, and, for
 * its admins and the organization's, granting a role (`inviteToSite`), changing and removing it.
 * Others see the list with the reason they cannot change it.
 */
import type { Site, UserSitePermission } from "@quire/api"
import { AsyncResult } from "effect/reactivity"
import { type FormEvent, useState } from "react"
import { useAtomValue, useMutation } from "../../api/react.ts"
import { Failure, Loading } from "../../ui/States.tsx"
import { roleName } from "../admin/problems.ts"
import { FormError, SelectField, useForm } from "../admin/ui.tsx"
import { GrantRow } from "../admin/GrantRow.tsx"
import {
  inviteToSite,
  removeTeamFromSite,
  removeUserFromSite,
  sitePermissionsAtom,
  sitePermissionsKey,
  updateTeamPermissionInSite,
  updateUserPermissionInSite
} from "./queries.ts"

type SiteRole = "admin" | "edit" | "read"

/** The roles offered on a site: what each lets a person do there. */
const siteRoles: ReadonlyArray<{ readonly value: SiteRole; readonly label: string }> = [
  { value: "edit", label: "Editor" },
  { value: "admin", label: "Site admin" },
  { value: "read", label: "Viewer" }
]

const shortName = (role: string) => role === "edit" ? "Editor" : role === "admin" ? "Site admin" : role === "read" ? "Viewer" : roleName(role)

/** Where a person's role on the site comes from, in words. */
const originText = (row: UserSitePermission, teams: ReadonlyMap<string, string>): string => {
  if (row.origin.type === "organization") return "an admin of the organization"
  if (row.origin.type === "site") {
    if (row.origin.reason === "member") return "invited to this site"
    if (row.origin.reason === "team") return `through the team ${teams.get(row.origin.team ?? "") ?? ""}`.trim()
  }
  return "a member of the organization"
}

/** A site role's row: changed by those who manage the site, taken back with Remove. */
const siteGrant = (name: string, manage: boolean) => ({
  roles: siteRoles, roleName: shortName, canChange: manage, roleLabel: `Role of ${name} on this site`,
  remove: { text: "Remove", label: `Remove the role of ${name} on this site` }
})

const GrantForm = (props: {
  readonly organizationId: string
  readonly siteId: string
  /** `label`: the name with the email, where the caller may see it. */
  readonly people: ReadonlyArray<{ readonly id: string; readonly name: string; readonly label: string }>
  readonly teams: ReadonlyArray<{ readonly id: string; readonly title: string }>
  readonly onDone: (message: string) => void
}) => {
  const [who, setWho] = useState("")
  const [role, setRole] = useState<string>("edit")
  const invite = useMutation(inviteToSite)
  const { busy, check, errors, submit } = useForm(["who", "role", "users", "teams"])
  const onSubmit = (event: FormEvent) => {
    event.preventDefault()
    if (!check(who === "" ? { who: "Choose a person or a team." } : {})) return
    const [kind = "", id = ""] = who.split(":")
    const name = kind === "team" ? `the team ${props.teams.find((team) => team.id === id)?.title ?? ""}` : props.people.find((person) => person.id === id)?.name ?? ""
    void submit(async () => {
      await invite({
        params: { organizationId: props.organizationId, siteId: props.siteId },
        payload: { role: role as SiteRole, ...(kind === "team" ? { teams: [id] } : { users: [id] }) },
        reactivityKeys: [sitePermissionsKey(props.siteId)]
      })
      setWho("")
      props.onDone(`Made ${name} ${shortName(role).toLowerCase()} of this site.`)
    })
  }
  const options = [
    { value: "", label: "Choose a person or a team…" },
    ...props.teams.map((team) => ({ value: `team:${team.id}`, label: `Team: ${team.title}` })),
    ...props.people.map((person) => ({ value: `user:${person.id}`, label: person.label }))
  ]
  return (
    <form onSubmit={onSubmit} noValidate className="admin-form grant-form" aria-label="Give a role on this site">
      <FormError errors={errors} />
      <SelectField label="Person or team" name="who" value={who} onChange={setWho} options={options} error={errors.fields["who"] ?? errors.fields["users"] ?? errors.fields["teams"]} />
      <SelectField label="Role on this site" name="role" value={role} onChange={setRole} options={siteRoles} error={errors.fields["role"]} />
      <div className="toolbar"><button type="submit" className="primary" disabled={busy}>{busy ? "Granting…" : "Grant role"}</button></div>
    </form>
  )
}

export const Permissions = (props: { readonly organizationId: string; readonly site: Site }) => {
  const { site } = props
  const manage = site.permissions.admin
  const listing = useAtomValue(sitePermissionsAtom(`${props.organizationId}\n${site.id}\n${manage ? "manage" : "view"}`))
  const [status, setStatus] = useState("")
  const params = { organizationId: props.organizationId, siteId: site.id }
  const reactivityKeys = [sitePermissionsKey(site.id)]
  const setUser = useMutation(updateUserPermissionInSite)
  const removeUser = useMutation(removeUserFromSite)
  const setTeam = useMutation(updateTeamPermissionInSite)
  const removeTeam = useMutation(removeTeamFromSite)
  if (AsyncResult.isFailure(listing)) return <Failure result={listing} />
  if (!AsyncResult.isSuccess(listing)) return <Loading what="who may change this site" />
  const { aggregate, allTeams, members, teams, users } = listing.value
  const teamTitles = new Map(teams.map((grant) => [grant.team.id, grant.team.title]))
  return (
    <div className="site-permissions">
      <p className="muted">
        The site's editors change its settings, structure and publishing; its admins also decide who may. The organization's admins always can.
        What readers see of each space is set on the space.
      </p>
      {manage ? (
        <GrantForm organizationId={props.organizationId} siteId={site.id} onDone={setStatus}
          people={members.filter((member) => member.role !== null && member.role !== "admin").map((member) => ({
            id: member.user.id,
            name: member.user.displayName,
            label: member.user.email === undefined ? member.user.displayName : `${member.user.displayName} (${member.user.email})`
          }))}
          teams={allTeams.map((team) => ({ id: team.id, title: team.title }))} />
      ) : <p className="site-note" role="note">Only this site's admins and the organization's admins change who may edit it.</p>}
      <span className="status" role="status">{status}</span>
      <h3>Roles given on this site</h3>
      {users.length === 0 && teams.length === 0 ? <p className="muted">Nobody has a role given on this site: only the organization's admins change it.</p> : (
        <ul className="admin-list" aria-label="Roles given on this site">
          {teams.map((grant) => (
            <GrantRow key={`team:${grant.team.id}:${grant.permission}`} name={`Team ${grant.team.title}`} role={grant.permission} {...siteGrant(`Team ${grant.team.title}`, manage)}
              onChange={(role) => setTeam({ params: { ...params, teamId: grant.team.id }, payload: { role }, reactivityKeys })}
              onRemove={async () => {
                await removeTeam({ params: { ...params, teamId: grant.team.id }, reactivityKeys })
                setStatus(`Removed the role of the team ${grant.team.title}.`)
              }} />
          ))}
          {users.map((grant) => (
            <GrantRow key={`user:${grant.user.id}:${grant.permission}`} name={grant.user.displayName} role={grant.permission} {...siteGrant(grant.user.displayName, manage)}
              onChange={(role) => setUser({ params: { ...params, userId: grant.user.id }, payload: { role }, reactivityKeys })}
              onRemove={async () => {
                await removeUser({ params: { ...params, userId: grant.user.id }, reactivityKeys })
                setStatus(`Removed the role of ${grant.user.displayName}.`)
              }} />
          ))}
        </ul>
      )}
      <h3>Who has access ({aggregate.length})</h3>
      <ul className="admin-list access-list" aria-label="Who has access to this site">
        {aggregate.map((row) => (
          <li key={row.user.id}>
            <span className="grow">{row.user.displayName}<span className="muted small"> · {originText(row, teamTitles)}</span></span>
            <strong>{shortName(row.permission ?? "read")}</strong>
          </li>
        ))}
      </ul>
    </div>
  )
}
