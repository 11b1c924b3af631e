/**
 * The push webhook for the space's admins (`getSpaceGitWebhook`): its URL and secret, each with
 * Copy, and what to paste where on GitHub and GitLab, so a push to the branch imports it.
 */
import type { GitSyncState } from "@quire/api"
import { AsyncResult } from "effect/reactivity"
import { useState } from "react"
import { useAtomValue } from "../../api/react.ts"
import { Failure, Loading } from "../../ui/States.tsx"
import { CopyButton } from "../admin/ui.tsx"
import { webhookSettingsUrl } from "./model.ts"
import { gitWebhookAtom } from "./queries.ts"

export const Webhook = (props: { readonly spaceId: string; readonly state: GitSyncState }) => {
  const webhook = useAtomValue(gitWebhookAtom(props.spaceId))
  const [shown, setShown] = useState(false)
  if (AsyncResult.isFailure(webhook)) return <Failure result={webhook} />
  if (!AsyncResult.isSuccess(webhook)) return <Loading what="the webhook" />
  const { url, secret } = webhook.value
  const settings = webhookSettingsUrl(props.state)
  const branch = props.state.branch
  return (
    <div className="git-webhook">
      <p>With a webhook, each push to {branch} imports it here. Quire exports every merge to the branch on its own.</p>
      <div className="field">
        <label htmlFor="git-webhook-url">Webhook URL</label>
        <div className="git-copy-row">
          <input id="git-webhook-url" className="link-field" readOnly value={url} onFocus={(event) => event.target.select()} />
          <CopyButton text={url} label="Copy the URL" selectId="git-webhook-url" />
        </div>
      </div>
      <div className="field">
        <label htmlFor="git-webhook-secret">Secret</label>
        <div className="git-copy-row">
          <input id="git-webhook-secret" className="link-field" readOnly type={shown ? "text" : "password"} value={secret} onFocus={(event) => event.target.select()} />
          <button type="button" onClick={() => setShown(!shown)} aria-pressed={shown}>{shown ? "Hide" : "Show"}</button>
          <CopyButton text={secret} label="Copy the secret" selectId="git-webhook-secret" />
        </div>
      </div>
      <details className="git-howto" open={props.state.integration === "github"}>
        <summary>On GitHub</summary>
        <ol>
          <li>Open the repository's <b>Settings › Webhooks › Add webhook</b>{settings !== undefined && props.state.integration === "github" ? <> (<a href={settings} target="_blank" rel="noreferrer">open it</a>)</> : null}.</li>
          <li><b>Payload URL</b>: the webhook URL. <b>Content type</b>: application/json. <b>Secret</b>: the secret.</li>
          <li>Choose <b>Just the push event</b>, keep <b>Active</b> ticked, and add the webhook.</li>
        </ol>
      </details>
      <details className="git-howto" open={props.state.integration === "gitlab"}>
        <summary>On GitLab</summary>
        <ol>
          <li>Open the project's <b>Settings › Webhooks › Add new webhook</b>{settings !== undefined && props.state.integration === "gitlab" ? <> (<a href={settings} target="_blank" rel="noreferrer">open it</a>)</> : null}.</li>
          <li><b>URL</b>: the webhook URL. <b>Secret token</b>: the secret.</li>
          <li>Under <b>Trigger</b>, tick <b>Push events</b> (for the branch {branch}), and add the webhook.</li>
        </ol>
      </details>
      <p className="muted small">The Git host must reach this server at the webhook URL. Anyone with the secret can make this space import, so keep it as you would a password.</p>
    </div>
  )
}
