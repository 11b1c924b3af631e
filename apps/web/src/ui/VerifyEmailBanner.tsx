/** A banner for a person whose email is not confirmed: what it costs them, and the link to confirm it. */
import { useState } from "react"
import { requestEmailVerification } from "../api/auth.ts"
import { errorsOf } from "../routes/useAuthForm.ts"

export const VerifyEmailBanner = (props: { readonly email: string }) => {
  const [state, setState] = useState<"idle" | "sending" | { readonly sent: string } | { readonly problem: string }>("idle")
  const send = () => {
    setState("sending")
    requestEmailVerification().then((answer) => setState({ sent: answer.email }), (error: unknown) =>
      setState({ problem: errorsOf(error, []).form ?? "The link could not be sent." }))
  }
  return (
    <div className="verify-banner" role="region" aria-label="Confirm your email">
      {typeof state === "object" && "sent" in state
        ? <p role="status">We sent a link to {state.sent}: open it to confirm your email.</p>
        : (
          <p>
            Your email {props.email} is not confirmed: invitations sent to it are offered to you only once it is, or through the invitation's own link.{" "}
            <button type="button" onClick={send} disabled={state === "sending"}>{state === "sending" ? "Sending…" : "Send me a link"}</button>
          </p>
        )}
      {typeof state === "object" && "problem" in state ? <p className="form-error" role="alert">{state.problem}</p> : null}
    </div>
  )
}
