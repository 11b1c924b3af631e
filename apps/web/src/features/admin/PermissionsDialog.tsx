/**
 * The share dialog of a space or a collection (GitBook's): who has access and through what (the
 * aggregate listing, with the grants to them and to their teams), and, for those who administer
 * the content, granting a person or a team a role, changing it and revoking it (PermissionsApi).
 */
import { AsyncResult } from "effect/reactivity"
import { type FormEvent, useEffect, useRef, useState } from "react"
import { QuireApi } from "../../api/client.ts"
import { runMutation, useAtomValue, useRefresh, useRegistry } from "../../api/react.ts"
import { Failure, Loading } from "../../ui/States.tsx"
import { type AccessRow, accessAtom, accessKey } from "./queries.ts"
import { type Role, roleName, roleOfValue, roles } from "./problems.ts"
import { FormError, SelectField, useForm } from "./ui.tsx"
import { GrantRow } from "./GrantRow.tsx"

export interface ShareTarget {
  readonly kind: "space" | "collection"
  readonly id: string
  readonly title: string
  readonly organizationId: string
  /** Whether the caller administers it (the resource's `permissions.admin`). */
  readonly admin: boolean
}

const mutations = {
  inviteToSpace: QuireApi.mutation("permissions", "inviteToSpace"),
  inviteToCollection: QuireApi.mutation("permissions", "inviteToCollection"),
  updateUserPermissionInSpace: QuireApi.mutation("permissions", "updateUserPermissionInSpace"),
  updateUserPermissionInCollection: QuireApi.mutation("permissions", "updateUserPermissionInCollection"),
  removeUserFromSpace: QuireApi.mutation("permissions", "removeUserFromSpace"),
  removeUserFromCollection: QuireApi.mutation("permissions", "removeUserFromCollection"),
  updateTeamPermissionInSpace: QuireApi.mutation("permissions", "updateTeamPermissionInSpace"),
  updateTeamPermissionInCollection: QuireApi.mutation("permissions", "updateTeamPermissionInCollection"),
  removeTeamFromSpace: QuireApi.mutation("permissions", "removeTeamFromSpace"),
  removeTeamFromCollection: QuireApi.mutation("permissions", "removeTeamFromCollection")
}

type Principal = { readonly users: ReadonlyArray<string> } | { readonly teams: ReadonlyArray<string> }

/** The permission calls on the target, a space's or a collection's. */
const usePermissionCalls = (target: ShareTarget) => {
  const registry = useRegistry()
  // The contract types each call's request; the two kinds differ only in the id's name.
  const run = (atom: (typeof mutations)[keyof typeof mutations]) => (arg: unknown) => runMutation(registry, atom as never, arg as never)
  const m = Object.fromEntries(Object.entries(mutations).map(([name, atom]) => [name, run(atom)])) as { readonly [K in keyof typeof mutations]: (arg: unknown) => Promise<unknown> }
  const reactivityKeys = [accessKey(target.kind, target.id)]
  const space = target.kind === "space"
  const on = space ? { spaceId: target.id } : { collectionId: target.id }
  return {
    grant: (principal: Principal, role: Role | null) =>
      (space ? m.inviteToSpace : m.inviteToCollection)({ params: on, payload: { role, ...principal }, reactivityKeys }),
    setUser: (userId: string, role: Role) =>
      (space ? m.updateUserPermissionInSpace : m.updateUserPermissionInCollection)({ params: { ...on, userId }, payload: { role }, reactivityKeys }),
    removeUser: (userId: string) => (space ? m.removeUserFromSpace : m.removeUserFromCollection)({ params: { ...on, userId }, reactivityKeys }),
    setTeam: (teamId: string, role: Role) =>
      (space ? m.updateTeamPermissionInSpace : m.updateTeamPermissionInCollection)({ params: { ...on, teamId }, payload: { role }, reactivityKeys }),
    removeTeam: (teamId: string) => (space ? m.removeTeamFromSpace : m.removeTeamFromCollection)({ params: { ...on, teamId }, reactivityKeys })
  }
}

const contentRoles = roles.map((role: Role) => ({ value: role, label: roleName(role) }))

/** Where a person's access comes from, in words. */
export const throughWhat = (row: AccessRow): string => {
  const reasons = [
    ...(row.organizationRole === null ? [] : [`${roleName(row.organizationRole)} in the organization`]),
    ...row.sources.map((source) => source.kind === "person" ? `invited as ${roleName(source.role)}` : `team ${source.team.title} (${roleName(source.role)})`)
  ]
  if (reasons.length === 0) reasons.push("inherited from the collections above")
  const text = reasons.join(", ")
  return text.charAt(0).toUpperCase() + text.slice(1)
}

/** A content role's row: changed by those who administer the content, revoked with Revoke. */
const contentGrant = (name: string, admin: boolean) => ({
  roles: contentRoles, roleName, canChange: admin, roleLabel: `Role of ${name}`,
  remove: { text: "Revoke", label: `Revoke the access of ${name}` }
})

const GrantForm = (props: { readonly calls: ReturnType<typeof usePermissionCalls>; readonly teams: ReadonlyArray<{ id: string; title: string }>; readonly people: ReadonlyArray<{ id: string; name: string }>; readonly onDone: (message: string) => void }) => {
  const [who, setWho] = useState("")
  const [role, setRole] = useState<string>("read")
  const { busy, errors, submit, check } = useForm(["who", "role", "users", "teams"])
  const onSubmit = (event: FormEvent) => {
    event.preventDefault()
    if (!check(who === "" ? { who: "Choose a person or a team." } : {})) return
    const [kind = "", id = ""] = who.split(":")
    const name = kind === "team" ? `the team ${props.teams.find((team) => team.id === id)?.title ?? ""}` : props.people.find((person) => person.id === id)?.name ?? ""
    void submit(async () => {
      await props.calls.grant(kind === "team" ? { teams: [id] } : { users: [id] }, roleOfValue(role))
      setWho("")
      props.onDone(`Gave ${name} the role ${roleName(roleOfValue(role))}.`)
    })
  }
  const options = [
    { value: "", label: "Choose a person or a team…" },
    ...props.teams.map((team) => ({ value: `team:${team.id}`, label: `Team: ${team.title}` })),
    ...props.people.map((person) => ({ value: `user:${person.id}`, label: person.name }))
  ]
  return (
    <form onSubmit={onSubmit} noValidate className="admin-form grant-form">
      <FormError errors={errors} />
      <SelectField label="Person or team" name="who" value={who} onChange={setWho} options={options} error={errors.fields["who"] ?? errors.fields["users"] ?? errors.fields["teams"]} />
      <SelectField label="Role" name="role" value={role} onChange={setRole} options={contentRoles} error={errors.fields["role"]} />
      <div className="toolbar"><button type="submit" className="primary" disabled={busy}>{busy ? "Granting…" : "Grant access"}</button></div>
    </form>
  )
}

export const PermissionsDialog = (props: { readonly target: ShareTarget; readonly onClose: () => void }) => {
  const { target } = props
  const dialog = useRef<HTMLDialogElement>(null)
  const access = useAtomValue(accessAtom(`${target.kind}\n${target.id}\n${target.organizationId}`))
  const refresh = useRefresh()
  const [status, setStatus] = useState("")
  const calls = usePermissionCalls(target)
  useEffect(() => {
    dialog.current?.showModal()
  }, [])
  // Fresh each time it opens (or is given another target): someone else may have changed the grants.
  useEffect(() => {
    refresh(accessAtom(`${target.kind}\n${target.id}\n${target.organizationId}`))
  }, [refresh, target.kind, target.id, target.organizationId])
  return (
    <dialog ref={dialog} aria-labelledby="share-title" onClose={props.onClose} className="share-dialog">
      <div className="dialog-body">
        <div className="share-head">
          <h2 id="share-title">Share “{target.title}”</h2>
          <button type="button" onClick={() => dialog.current?.close()}>Close</button>
        </div>
        {AsyncResult.isInitial(access) ? <Loading what="who has access" /> : AsyncResult.isFailure(access) ? <Failure result={access} /> : (
          <>
            {target.admin ? (
              <GrantForm calls={calls}
                teams={access.value.allTeams.map((team) => ({ id: team.id, title: team.title }))}
                people={access.value.members.map((member) => ({ id: member.user.id, name: member.user.email === undefined ? member.user.displayName : `${member.user.displayName} (${member.user.email})` }))}
                onDone={setStatus} />
            ) : <p className="muted">Only those who administer this {target.kind} can change who has access.</p>}
            <span className="status" role="status">{status}</span>
            <section aria-labelledby="granted-heading">
              <h3 id="granted-heading">Invited to this {target.kind}</h3>
              {access.value.teams.length === 0 && access.value.people.length === 0 ? <p className="muted">Nobody is invited to it directly: access comes from the organization.</p> : (
                <ul className="admin-list">
                  {access.value.teams.map((grant) => (
                    <GrantRow key={`team:${grant.team.id}:${grant.role}`} name={`Team ${grant.team.title}`} detail={grant.team.members === 1 ? "1 member" : `${grant.team.members} members`} role={grant.role} {...contentGrant(`Team ${grant.team.title}`, target.admin)}
                      onChange={(role) => calls.setTeam(grant.team.id, role)}
                      onRemove={async () => {
                        await calls.removeTeam(grant.team.id)
                        setStatus(`Revoked the access of the team ${grant.team.title}.`)
                      }} />
                  ))}
                  {access.value.people.map((grant) => (
                    <GrantRow key={`user:${grant.user.id}:${grant.role}`} name={grant.user.displayName} detail={grant.user.email} role={grant.role} {...contentGrant(grant.user.displayName, target.admin)}
                      onChange={(role) => calls.setUser(grant.user.id, role)}
                      onRemove={async () => {
                        await calls.removeUser(grant.user.id)
                        setStatus(`Revoked the access of ${grant.user.displayName}.`)
                      }} />
                  ))}
                </ul>
              )}
            </section>
            <section aria-labelledby="who-heading">
              <h3 id="who-heading">Who has access ({access.value.rows.length})</h3>
              <ul className="admin-list access-list">
                {access.value.rows.map((row) => (
                  <li key={row.user.id}>
                    <span className="grow">{row.user.displayName}<span className="muted small"> · {throughWhat(row)}</span></span>
                    <strong>{roleName(row.role)}</strong>
                  </li>
                ))}
              </ul>
            </section>
          </>
        )}
      </div>
    </dialog>
  )
}

export default PermissionsDialog
