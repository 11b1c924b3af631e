/**
 * Connecting a space to a repository (`connectSpaceGitRepository`): through one of the
 * organization's Git installations (an installation, a repository and a branch picked from lists),
 * or by URL, branch, directory and credentials. Credentials are typed once and never shown again:
 * connected with some, the form keeps them (`keepCredentials`) unless the person replaces them or
 * names another repository.
 */
import type { GitSyncState } from "@quire/api"
import { type FormEvent, useState } from "react"
import { AsyncResult } from "effect/reactivity"
import { useAtomValue, useMutation } from "../../api/react.ts"
import { Field } from "../../ui/Field.tsx"
import { FormError, useForm } from "../admin/ui.tsx"
import { plainRefusal, refOf, urlWithCredentials } from "./model.ts"
import { InstallationPicker, type Picked } from "./Installations.tsx"
import { connectGit, gitKey, installationsAtom } from "./queries.ts"

const apiFields = ["url", "ref", "repoProjectDirectory", "keepCredentials", "installationId", "repository"]

export const ConnectForm = (props: {
  readonly spaceId: string
  readonly organizationId: string
  readonly state: GitSyncState | undefined
  readonly onDone: (message: string) => void
  readonly onCancel?: () => void
}) => {
  const { state } = props
  const [url, setUrl] = useState(state?.url ?? "")
  const [branch, setBranch] = useState(state?.branch ?? "main")
  const [directory, setDirectory] = useState(state?.projectDirectory ?? "")
  const [username, setUsername] = useState("")
  const [secret, setSecret] = useState("")
  const stored = state?.credentials === true
  const [replacing, setReplacing] = useState(!stored)
  // A new connection goes through an installation when the organization has one with a token.
  const installations = useAtomValue(installationsAtom(props.organizationId))
  const hasInstallation = AsyncResult.isSuccess(installations) && installations.value.items.some((i) => i.credentials)
  const [chosenMode, setMode] = useState<"installation" | "url" | undefined>(undefined)
  const mode = chosenMode ?? (state === undefined && hasInstallation ? "installation" : "url")
  const [picked, setPicked] = useState<Picked>({ installationId: "", repository: "" })
  const connect = useMutation(connectGit)
  const { busy, errors, submit, check } = useForm(apiFields)
  const sameRepository = state !== undefined && url.trim() === state.url
  const keep = stored && !replacing && sameRepository
  const onSubmit = (event: FormEvent) => {
    event.preventDefault()
    if (mode === "installation") {
      if (!check({
        ...(picked.installationId === "" ? { installationId: "Choose an installation." } : {}),
        ...(picked.installationId !== "" && picked.repository === "" ? { repository: "Choose a repository." } : {}),
        ...(picked.repository !== "" && branch.trim() === "" ? { ref: "Choose a branch." } : {})
      })) return
      void submit(async () => {
        const typed = directory.trim().replace(/^\/+|\/+$/g, "")
        await connect({
          params: { spaceId: props.spaceId },
          payload: { installationId: picked.installationId, repository: picked.repository, ref: refOf(branch), ...(typed === "" ? {} : { repoProjectDirectory: typed }) },
          reactivityKeys: [gitKey(props.spaceId), `space:${props.spaceId}`]
        })
        props.onDone(state === undefined ? "Connected." : "Saved.")
      })
      return
    }
    if (!check({
      ...(url.trim() === "" ? { url: "Give the repository's URL, such as https://github.com/acme/docs.git." } : {}),
      ...(branch.trim() === "" ? { ref: "Give the branch to sync with, such as main." } : {}),
      ...(username.trim() !== "" && secret === "" ? { keepCredentials: "Give the password or token that goes with this user name." } : {})
    })) return
    void submit(async () => {
      const typed = directory.trim().replace(/^\/+|\/+$/g, "")
      await connect({
        params: { spaceId: props.spaceId },
        payload: {
          url: keep && state !== undefined ? state.url : urlWithCredentials(url, username, secret),
          ref: refOf(branch),
          ...(typed === "" ? {} : { repoProjectDirectory: typed }),
          ...(keep ? { keepCredentials: true } : {})
        },
        reactivityKeys: [gitKey(props.spaceId), `space:${props.spaceId}`]
      })
      setUsername("")
      setSecret("")
      props.onDone(state === undefined ? "Connected." : "Saved.")
    })
  }
  const errorOf = (apiField: string, field: string) => {
    const message = errors.fields[apiField]
    return message === undefined ? undefined : plainRefusal(field, message)
  }
  return (
    <form onSubmit={onSubmit} noValidate className="admin-form git-connect" aria-label={state === undefined ? "Connect a repository" : "Change the connection"}>
      <FormError errors={errors} />
      <fieldset className="git-mode">
        <legend>Connect with</legend>
        <label><input type="radio" name="mode" value="installation" checked={mode === "installation"} onChange={() => setMode("installation")} /> With one of the organization's Git installations</label>
        <label><input type="radio" name="mode" value="url" checked={mode === "url"} onChange={() => setMode("url")} /> With a clone address and credentials</label>
      </fieldset>
      {mode === "installation" ? (
        <>
          <InstallationPicker organizationId={props.organizationId} picked={picked} branch={branch} onPick={setPicked} onBranch={setBranch}
            errors={{ installation: errors.fields["installationId"], repository: errors.fields["repository"], branch: errorOf("ref", "branch") }} />
          <Field label="Directory" name="directory" value={directory} onChange={setDirectory} error={errorOf("repoProjectDirectory", "directory")} autoComplete="off"
            hint="The docs' folder inside the repository, such as docs. Empty for the whole repository." />
        </>
      ) : <>
      <Field label="Repository URL" name="url" value={url} onChange={setUrl} error={errorOf("url", "url")} autoComplete="off"
        hint="The address you would clone, such as https://github.com/acme/docs.git." />
      <Field label="Branch" name="branch" value={branch} onChange={setBranch} error={errorOf("ref", "branch")} autoComplete="off"
        hint="Imports read it; exports commit to it (an export creates it when missing)." />
      <Field label="Directory" name="directory" value={directory} onChange={setDirectory} error={errorOf("repoProjectDirectory", "directory")} autoComplete="off"
        hint="The docs' folder inside the repository, such as docs. Empty for the whole repository." />
      <fieldset className="git-credentials">
        <legend>Credentials</legend>
        {stored && !replacing ? (
          <>
            <p className="muted">{sameRepository
              ? "Stored for this repository, and never shown. They stay as they are."
              : "The stored credentials belong to the repository connected now; a new repository needs its own, or none if it is public."}</p>
            {errorOf("keepCredentials", "credentials") === undefined ? null : <p className="field-error" role="alert">{errorOf("keepCredentials", "credentials")}</p>}
            <div className="toolbar"><button type="button" onClick={() => setReplacing(true)}>Replace the credentials</button></div>
          </>
        ) : (
          <>
            <p className="muted">For a private repository: a token that can read and write it (GitHub: a fine-grained token with Contents read and write; GitLab: a project access token with read_repository and write_repository). Stored encrypted and never shown again. Leave empty for a public repository.</p>
            <Field label="User name (optional)" name="username" value={username} onChange={setUsername} autoComplete="off"
              hint="Only if the host needs one with the token or password." />
            <Field label="Token or password" name="secret" type="password" value={secret} onChange={setSecret} autoComplete="new-password"
              error={errorOf("keepCredentials", "credentials")} />
            {stored ? <div className="toolbar"><button type="button" onClick={() => { setReplacing(false); setUsername(""); setSecret("") }}>Keep the stored credentials</button></div> : null}
          </>
        )}
      </fieldset>
      </>}
      <div className="toolbar">
        <button type="submit" className="primary" disabled={busy} aria-busy={busy}>{busy ? "Saving…" : state === undefined ? "Connect" : "Save the connection"}</button>
        {props.onCancel === undefined ? null : <button type="button" onClick={props.onCancel}>Cancel</button>}
      </div>
    </form>
  )
}
