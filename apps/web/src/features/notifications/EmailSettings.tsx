/**
 * Settings › Notifications: a checkbox per kind of notification, whether it also arrives by email
 * (`/v1/user/notification-settings`). Each change is saved at once and said in the status line;
 * a refused save puts the box back and says so beside it. In-app notifications are always kept.
 */
import type { NotificationSettings } from "@quire/api"
import { AsyncResult } from "effect/reactivity"
import { useState } from "react"
import { QuireApi } from "../../api/client.ts"
import { useAtomValue, useMutation } from "../../api/react.ts"
import { sessionAtom } from "../../api/session.ts"
import { refusalOf } from "../../ui/refusal.ts"
import { Failure, Loading } from "../../ui/States.tsx"
import "./notifications.css"

const settingsKey = "notification-settings"
const settingsAtom = QuireApi.query("notifications", "getNotificationSettingsForAuthenticatedUser", { reactivityKeys: [settingsKey] })
const updateSettings = QuireApi.mutation("notifications", "updateNotificationSettingsForAuthenticatedUser")

type Kind = keyof NotificationSettings["email"]

const kinds: ReadonlyArray<{ readonly kind: Kind; readonly label: string; readonly hint: string }> = [
  { kind: "review_requested", label: "Review requests", hint: "Someone asks you to review a change request." },
  { kind: "mention", label: "Mentions", hint: "Someone mentions you in a comment or a reply." },
  { kind: "comment_reply", label: "Replies to your comments", hint: "Someone replies in a thread you started or replied in." },
  { kind: "change_request_merged", label: "Your change requests merged", hint: "A change request you wrote or edited is merged." }
]

const Choices = (props: { readonly settings: NotificationSettings }) => {
  // What the person chose, shown at once; the server's answer replaces it.
  const [email, setEmail] = useState(props.settings.email)
  const [status, setStatus] = useState("")
  const [problem, setProblem] = useState<{ readonly kind: Kind; readonly message: string } | undefined>(undefined)
  const update = useMutation(updateSettings)
  const toggle = async (kind: Kind, on: boolean) => {
    const before = email
    setEmail({ ...email, [kind]: on })
    setProblem(undefined)
    setStatus("Saving…")
    try {
      const saved = await update({ payload: { email: { [kind]: on } }, reactivityKeys: [settingsKey] })
      setEmail(saved.email)
      setStatus(`Saved: ${kinds.find((k) => k.kind === kind)?.label.toLowerCase() ?? kind} ${on ? "will" : "will not"} be emailed.`)
    } catch (cause) {
      setEmail(before)
      setStatus("")
      setProblem({ kind, message: `Not saved: ${refusalOf(cause)?.message ?? "the server could not be reached; try again."}` })
    }
  }
  return (
    <fieldset className="email-choices">
      <legend className="visually-hidden">Email me about</legend>
      {kinds.map(({ hint, kind, label }) => (
        <div key={kind} className="email-choice">
          <input type="checkbox" id={`email-${kind}`} name={kind} checked={email[kind]} onChange={(event) => void toggle(kind, event.target.checked)}
            aria-describedby={`${kind}-hint${problem?.kind === kind ? ` ${kind}-error` : ""}`} />
          <label htmlFor={`email-${kind}`}>{label}</label>
          <span id={`${kind}-hint`} className="hint">{hint}</span>
          {problem?.kind === kind ? <p id={`${kind}-error`} className="field-error" role="alert">{problem.message}</p> : null}
        </div>
      ))}
      <p className="status" role="status">{status}</p>
    </fieldset>
  )
}

export const EmailSettings = () => {
  const settings = useAtomValue(settingsAtom)
  const session = useAtomValue(sessionAtom)
  const delivers = AsyncResult.isSuccess(session) && session.value.signedIn ? session.value.info.emailDelivery === true : true
  return (
    <section aria-labelledby="email-settings-heading" className="stack">
      <h2 id="email-settings-heading">Email notifications</h2>
      <p className="muted">Choose which notifications also reach you by email. You always see them all under Notifications, in the app.</p>
      {delivers ? null : <p className="muted" role="note">This server sends no email yet (no SMTP is set up): your choices apply once it does.</p>}
      {AsyncResult.isFailure(settings) ? <Failure result={settings} />
        : AsyncResult.isSuccess(settings) ? <Choices settings={settings.value} />
        : <Loading what="your notification settings" />}
    </section>
  )
}
