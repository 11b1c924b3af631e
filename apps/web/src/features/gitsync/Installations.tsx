/**
 * Git installations in the browser: the organization's settings list them (admins connect GitHub
 * or GitLab with a token, once, and remove them), and the Git sync screen picks one, then a
 * repository and a branch from what its token reaches.
 */
import type { GitSyncInstallation } from "@quire/api"
import { AsyncResult } from "effect/reactivity"
import { type FormEvent, useState } from "react"
import { useAtomValue, useMutation } from "../../api/react.ts"
import { Field } from "../../ui/Field.tsx"
import { Failure, Loading } from "../../ui/States.tsx"
import { formatTime } from "../../ui/time.ts"
import { problemOf } from "../admin/problems.ts"
import { Confirm, FormError, SelectField, useForm } from "../admin/ui.tsx"
import { githubBranchesAtom, githubReposAtom, gitlabBranchesAtom, gitlabProjectsAtom, installationsAtom, installationsKey, installGit, uninstallGit } from "./queries.ts"

const providerName = (provider: string) => provider === "github" ? "GitHub" : "GitLab"

/** How an installation is named in lists: its forge, and what it is for. */
export const installationLabel = (i: GitSyncInstallation) =>
  `${providerName(i.provider)}${i.repositoryName === undefined ? "" : ` · ${i.repositoryName}`}${i.credentials ? "" : " (no token)"} · added ${formatTime(i.createdAt)}`

/** Connects GitHub or GitLab with a token (admins). */
const AddInstallation = (props: { readonly organizationId: string; readonly onDone: (message: string) => void }) => {
  const [provider, setProvider] = useState("github")
  const [token, setToken] = useState("")
  const [instance, setInstance] = useState("")
  const install = useMutation(installGit)
  const { busy, errors, submit, check } = useForm(["provider", "accessToken", "customInstanceURL"], (message) =>
    message.includes("accessToken") ? "accessToken" : message.includes("customInstanceURL") ? "customInstanceURL" : undefined)
  const onSubmit = (event: FormEvent) => {
    event.preventDefault()
    if (!check(token.trim() === "" ? { accessToken: "Give a token the forge accepts." } : /\s/.test(token.trim()) ? { accessToken: "A token has no spaces." } : {})) return
    void submit(async () => {
      await install({
        payload: {
          provider: provider === "gitlab" ? "gitlab" : "github",
          target: { type: "organization", organizationId: props.organizationId },
          providerConfiguration: { accessToken: token.trim(), ...(provider === "gitlab" && instance.trim() !== "" ? { customInstanceURL: instance.trim() } : {}) }
        },
        reactivityKeys: [installationsKey(props.organizationId)]
      })
      setToken("")
      props.onDone(`Connected ${providerName(provider)}.`)
    })
  }
  return (
    <form onSubmit={onSubmit} noValidate className="admin-form" aria-label="Connect GitHub or GitLab">
      <FormError errors={errors} />
      <SelectField label="Provider" name="provider" value={provider} onChange={setProvider} error={errors.fields["provider"]}
        options={[{ value: "github", label: "GitHub" }, { value: "gitlab", label: "GitLab" }]} />
      <Field label="Token" name="accessToken" type="password" value={token} onChange={setToken} error={errors.fields["accessToken"]} autoComplete="new-password"
        hint={provider === "github"
          ? "A fine-grained token (Contents read and write on the repositories to sync), or a GitHub App installation's token. Stored encrypted, never shown again."
          : "A group or project access token with read_api, read_repository and write_repository. Stored encrypted, never shown again."} />
      {provider === "gitlab" ? (
        <Field label="Self-hosted GitLab (optional)" name="customInstanceURL" value={instance} onChange={setInstance} error={errors.fields["customInstanceURL"]} autoComplete="off"
          hint="Its address, such as https://gitlab.example.com. Empty for gitlab.com." />
      ) : null}
      <div className="toolbar">
        <button type="submit" className="primary" disabled={busy} aria-busy={busy}>{busy ? "Connecting…" : "Connect"}</button>
      </div>
    </form>
  )
}

/** The organization's settings: its installations, and for admins adding and removing them. */
export const GitInstallationsSection = (props: { readonly organizationId: string; readonly admin: boolean }) => {
  const list = useAtomValue(installationsAtom(props.organizationId))
  const uninstall = useMutation(uninstallGit)
  const [status, setStatus] = useState("")
  const [removing, setRemoving] = useState<GitSyncInstallation | undefined>(undefined)
  const [problem, setProblem] = useState<string | undefined>(undefined)
  return (
    <section aria-labelledby="git-installations-heading" className="admin-section">
      <h2 id="git-installations-heading">Git installations</h2>
      <p className="muted">GitHub and GitLab connected once for the organization; a space's Git sync then picks a repository and a branch from what they reach.</p>
      <span className="status" role="status">{status}</span>
      {AsyncResult.isFailure(list) ? <Failure result={list} /> : !AsyncResult.isSuccess(list) ? <Loading what="the Git installations" /> : list.value.items.length === 0 ? (
        <p>No Git installation yet.</p>
      ) : (
        <ul className="admin-list" aria-label="Git installations">
          {list.value.items.map((i) => (
            <li key={i.id}>
              <span>{installationLabel(i)}</span>
              {props.admin ? <button type="button" onClick={() => { setProblem(undefined); setRemoving(i) }} aria-label={`Remove ${installationLabel(i)}`}>Remove</button> : null}
            </li>
          ))}
        </ul>
      )}
      {props.admin ? <AddInstallation organizationId={props.organizationId} onDone={setStatus} /> : null}
      {removing === undefined ? null : (
        <Confirm title={`Remove the ${providerName(removing.provider)} installation?`} action="Remove" busyAction="Removing…" problem={problem} onClose={() => setRemoving(undefined)}
          onConfirm={async () => {
            try {
              await uninstall({ params: { installationId: removing.id }, reactivityKeys: [installationsKey(props.organizationId)] })
              setRemoving(undefined)
              setStatus(`Removed the ${providerName(removing.provider)} installation.`)
            } catch (error) {
              setProblem(problemOf(error, []).form)
            }
          }}>
          <p>Its token is forgotten. Spaces already connected keep the credentials they were connected with.</p>
        </Confirm>
      )}
    </section>
  )
}

/** What the picker chose: an installation and a repository (`owner/name`, or a GitLab project's id). */
export interface Picked {
  readonly installationId: string
  readonly repository: string
}

const Repositories = (props: { readonly installation: GitSyncInstallation; readonly repository: string; readonly onRepository: (value: string, defaultBranch: string | null) => void; readonly error?: string | undefined }) => {
  const { installation } = props
  const repos = useAtomValue(installation.provider === "github" ? githubReposAtom(installation.id) : gitlabProjectsAtom(installation.id))
  if (AsyncResult.isFailure(repos)) return <Failure result={repos} />
  if (!AsyncResult.isSuccess(repos)) return <Loading what="the repositories" />
  const keyOf = (r: { readonly id: number; readonly fullName: string }) => installation.provider === "github" ? r.fullName : String(r.id)
  return (
    <SelectField label="Repository" name="repository" value={props.repository} error={props.error}
      onChange={(value) => props.onRepository(value, repos.value.items.find((r) => keyOf(r) === value)?.defaultBranch ?? null)}
      options={[{ value: "", label: "Choose a repository" }, ...repos.value.items.map((r) => ({ value: keyOf(r), label: r.fullName }))]} />
  )
}

const Branches = (props: { readonly installation: GitSyncInstallation; readonly repository: string; readonly branch: string; readonly onBranch: (value: string) => void; readonly error?: string | undefined }) => {
  const key = `${props.installation.id} ${props.repository}`
  const branches = useAtomValue(props.installation.provider === "github" ? githubBranchesAtom(key) : gitlabBranchesAtom(key))
  if (AsyncResult.isFailure(branches)) return <Failure result={branches} />
  if (!AsyncResult.isSuccess(branches)) return <Loading what="the branches" />
  return (
    <SelectField label="Branch" name="branch" value={props.branch} onChange={props.onBranch} error={props.error}
      options={[{ value: "", label: "Choose a branch" }, ...branches.value.items.map((b) => ({ value: b.name, label: b.name }))]} />
  )
}

/** The Git sync screen's choice of an installation, then a repository and a branch from lists. */
export const InstallationPicker = (props: {
  readonly organizationId: string
  readonly picked: Picked
  readonly branch: string
  readonly onPick: (picked: Picked) => void
  readonly onBranch: (branch: string) => void
  readonly errors: { readonly installation?: string | undefined; readonly repository?: string | undefined; readonly branch?: string | undefined }
}) => {
  const list = useAtomValue(installationsAtom(props.organizationId))
  if (AsyncResult.isFailure(list)) return <Failure result={list} />
  if (!AsyncResult.isSuccess(list)) return <Loading what="the Git installations" />
  const usable = list.value.items.filter((i) => i.credentials)
  if (usable.length === 0) return <p>The organization has no Git installation with a token yet; an administrator adds one in the organization's settings.</p>
  const installation = usable.find((i) => i.id === props.picked.installationId)
  return (
    <>
      <SelectField label="Installation" name="installation" value={props.picked.installationId} error={props.errors.installation}
        onChange={(installationId) => props.onPick({ installationId, repository: "" })}
        options={[{ value: "", label: "Choose an installation" }, ...usable.map((i) => ({ value: i.id, label: installationLabel(i) }))]} />
      {installation === undefined ? null : (
        <Repositories installation={installation} repository={props.picked.repository} error={props.errors.repository}
          onRepository={(repository, defaultBranch) => { props.onPick({ installationId: installation.id, repository }); props.onBranch(defaultBranch ?? "") }} />
      )}
      {installation === undefined || props.picked.repository === "" ? null : (
        <Branches installation={installation} repository={props.picked.repository} branch={props.branch} onBranch={props.onBranch} error={props.errors.branch} />
      )}
    </>
  )
}
