/** A banner for a person whose email is not confirmed: what it costs them, and the link to confirm it. */
import { useEffect, useRef, useState } from "react"
import { requestEmailVerification } from "../api/auth.ts"
import { errorsOf } from "../routes/useAuthForm.ts"

export const VerifyEmailBanner = (props: { readonly email: string }) => {
  const [state, setState] = useState<"idle" | "sending" | { readonly sent: string } | { readonly problem: string }>("idle")
  const status = useRef<HTMLParagraphElement>(null)
  const sent = typeof state === "object" && "sent" in state ? state.sent : undefined
  // The button goes once the link is sent: focus moves to the answer, not back to the page's top.
  useEffect(() => {
    if (sent !== undefined) status.current?.focus()
  }, [sent])
  const send = () => {
    setState("sending")
    requestEmailVerification().then((answer) => setState({ sent: answer.email }), (error: unknown) =>
      setState({ problem: errorsOf(error, []).form ?? "The link could not be sent: try again in a moment." }))
  }
  return (
    <div className="verify-banner" role="region" aria-label="Confirm your email">
      {sent === undefined
        ? (
          <div className="verify-banner-ask">
            <p>Your email {props.email} is not confirmed. Until it is, invitations sent to it are not listed for you here; the link in an invitation's email still works.</p>
            <button type="button" onClick={send} disabled={state === "sending"} aria-describedby={typeof state === "object" ? "verify-banner-problem" : undefined}>
              {state === "sending" ? "Sending…" : "Send me a link"}
            </button>
          </div>
        )
        : null}
      {/* Always on the page, so that a screen reader announces the answer that fills it. */}
      <p role="status" ref={status} tabIndex={-1} className={sent === undefined ? "visually-hidden" : undefined}>
        {sent === undefined ? "" : `We sent a link to ${sent}: open it to confirm your email.`}
      </p>
      {typeof state === "object" && "problem" in state ? <p id="verify-banner-problem" className="form-error" role="alert">{state.problem}</p> : null}
    </div>
  )
}
