/**
 * `/settings/...`: the person's sign-in sessions (revoke any) and their password; `/settings/tokens`:
 * their API tokens; `/settings/notifications`: which notifications reach them by email.
 */
import { AsyncResult } from "effect/reactivity"
import { type FormEvent, lazy, Suspense, useCallback, useEffect, useState } from "react"
import { changePassword, listSessions, revokeSession, signOutEverywhere, type SignInSessionRow } from "../api/auth.ts"
import { useAtomValue, useRefresh } from "../api/react.ts"
import { sessionAtom } from "../api/session.ts"
import { navigate } from "../router.ts"
import { EmailSettings } from "../features/notifications/EmailSettings.tsx"
import { Field } from "../ui/Field.tsx"
import { errorsOf, useAuthForm } from "./useAuthForm.ts"
import { formatTime } from "../ui/time.ts"
import { Loading } from "../ui/States.tsx"
import { Tabs } from "../ui/Tabs.tsx"

// The tokens section loads with its own chunk, when opened.
const ApiTokens = lazy(() => import("../features/admin/ApiTokens.tsx"))
// The instance's audit log likewise (instance administrators only).
const Backups = lazy(() => import("../features/admin/Backups.tsx"))
const InstanceAuditLog = lazy(() => import("../features/audit/AuditLog.tsx").then((module) => ({ default: module.InstanceAuditLog })))


/** A user agent in a few words: the browser and the system. */
export const describeAgent = (agent: string | null) => {
  if (agent === null || agent === "") return "Unknown device"
  const browser = /Edg\//.test(agent) ? "Edge" : /Firefox\//.test(agent) ? "Firefox" : /Chrome\/|Chromium\//.test(agent) ? "Chrome" : /Safari\//.test(agent) ? "Safari" : /curl|node|undici/i.test(agent) ? "A program" : "A browser"
  const system = /Windows/.test(agent) ? "Windows" : /Mac OS X|Macintosh/.test(agent) ? "macOS" : /Android/.test(agent) ? "Android" : /iPhone|iPad/.test(agent) ? "iOS" : /Linux/.test(agent) ? "Linux" : undefined
  return system === undefined ? browser : `${browser} on ${system}`
}

const Sessions = () => {
  const [rows, setRows] = useState<ReadonlyArray<SignInSessionRow> | undefined>(undefined)
  const [problem, setProblem] = useState<string | undefined>(undefined)
  // Said under the button that failed, not at the top of the list.
  const [everywhereProblem, setEverywhereProblem] = useState<string | undefined>(undefined)
  const refresh = useRefresh()
  const load = useCallback(() => {
    listSessions().then((list) => setRows(list.items), (error: unknown) => setProblem(errorsOf(error, []).form))
  }, [])
  useEffect(load, [load])
  const revoke = async (row: SignInSessionRow) => {
    try {
      await revokeSession(row.id)
      if (row.current) {
        refresh(sessionAtom)
        navigate("/sign-in", { replace: true })
      } else load()
    } catch (error) {
      setProblem(errorsOf(error, []).form)
    }
  }
  const everywhere = async () => {
    setEverywhereProblem(undefined)
    try {
      await signOutEverywhere()
      refresh(sessionAtom)
      navigate("/sign-in", { replace: true })
    } catch (error) {
      setEverywhereProblem(errorsOf(error, []).form ?? "Could not sign out everywhere: try again in a moment.")
    }
  }
  return (
    <section aria-labelledby="sessions-heading" className="stack">
      <h2 id="sessions-heading">Where you are signed in</h2>
      {problem === undefined ? null : <p className="form-error" role="alert">{problem}</p>}
      {rows === undefined ? <p className="muted" role="status">Loading sessions…</p> : (
        <table className="sessions">
          <thead><tr><th scope="col">Device</th><th scope="col" className="wide">Signed in</th><th scope="col">Last active</th><th scope="col"><span className="visually-hidden">Actions</span></th></tr></thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.id}>
                <td>{describeAgent(row.userAgent)}{row.current ? <strong> (this browser)</strong> : null}<div className="muted">{row.method === "password" ? "Password" : row.method.toUpperCase()}</div></td>
                <td className="wide">{formatTime(row.createdAt)}</td>
                <td>{formatTime(row.lastSeenAt)}</td>
                <td><button type="button" onClick={() => void revoke(row)} aria-label={row.current ? "Sign out of this browser" : `Revoke the session of ${describeAgent(row.userAgent)} from ${formatTime(row.createdAt)}`}>{row.current ? "Sign out" : "Revoke"}</button></td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <div>
        <button type="button" onClick={() => void everywhere()} aria-describedby={everywhereProblem === undefined ? "everywhere-hint" : "everywhere-hint everywhere-error"}>Sign out everywhere</button>
        <p className="muted hint-below" id="everywhere-hint">Ends every session, this browser's too, and the API tokens you made while signed in; tokens a program made with another token stay. Changing the password ends the other sessions too.</p>
      </div>
      {everywhereProblem === undefined ? null : <p className="form-error" role="alert" id="everywhere-error">{everywhereProblem}</p>}
    </section>
  )
}

const Password = () => {
  const [currentPassword, setCurrent] = useState("")
  const [newPassword, setNew] = useState("")
  const [done, setDone] = useState(false)
  const { busy, errors, submit } = useAuthForm(["currentPassword", "newPassword"], (message) => (/current/i.test(message) ? "currentPassword" : undefined))
  const onSubmit = (event: FormEvent) => {
    event.preventDefault()
    setDone(false)
    void submit(async () => {
      await changePassword(currentPassword, newPassword)
      setCurrent("")
      setNew("")
      setDone(true)
    })
  }
  return (
    <section aria-labelledby="password-heading">
      <h2 id="password-heading">Password</h2>
      <form onSubmit={onSubmit} noValidate style={{ maxWidth: "24rem" }}>
        {errors.form === undefined ? null : <p className="form-error" role="alert">{errors.form}</p>}
        <Field label="Current password" name="currentPassword" type="password" value={currentPassword} onChange={setCurrent} error={errors.fields["currentPassword"]} autoComplete="current-password" />
        <Field label="New password" name="newPassword" type="password" value={newPassword} onChange={setNew} error={errors.fields["newPassword"]} autoComplete="new-password" hint="At least 10 characters." />
        <button type="submit" className="primary" disabled={busy}>Change the password</button>
        {done ? <p role="status">Your password is changed.</p> : null}
      </form>
    </section>
  )
}

const sections = [
  { key: "sessions", label: "Sessions and password" },
  { key: "tokens", label: "API tokens" },
  { key: "notifications", label: "Notifications" },
  { key: "instance-audit-log", label: "Instance audit log" },
  { key: "backups", label: "Backups" }
] as const

/** Sections only instance administrators see. */
const instanceOnly: ReadonlyArray<string> = ["instance-audit-log", "backups"]

export const Settings = (props: { readonly section?: string }) => {
  const session = useAtomValue(sessionAtom)
  const user = AsyncResult.isSuccess(session) && session.value.signedIn ? session.value.info.user : undefined
  const userId = user?.id
  const instanceAdmin = user?.instanceAdmin === true
  const section = props.section === "tokens" || props.section === "notifications" || (props.section !== undefined && instanceOnly.includes(props.section) && instanceAdmin) ? props.section : "sessions"
  return (
    <div className="stack">
      <h1>Settings</h1>
      <Tabs label="Settings" current={section} tabs={sections.filter((item) => !instanceOnly.includes(item.key) || instanceAdmin).map((item) => ({ ...item, href: `/settings/${item.key}` }))} />
      {section === "instance-audit-log" && user !== undefined
        ? <Suspense fallback={<Loading what="the instance's audit log" />}><InstanceAuditLog me={user} /></Suspense>
        : section === "backups" ? <Suspense fallback={<Loading what="the backups" />}><Backups /></Suspense>
        : section === "notifications" ? <EmailSettings /> : section === "tokens"
        ? userId === undefined ? null : <Suspense fallback={<Loading what="your API tokens" />}><ApiTokens userId={userId} /></Suspense>
        : (
          <>
            <Sessions />
            <Password />
          </>
        )}
    </div>
  )
}
