/**
 * The private sign-in surface, `/auth/*` (docs/sign-in.md), and the SSO pages beside it: not part of the public API, so plain
 * `fetch` on this origin. Each call answers its body or throws an `AuthError` holding the
 * server's message and, when the message names one (`email: ...`), the field at fault.
 */
export interface SessionUser {
  readonly id: string
  readonly displayName: string
  readonly email: string
  readonly photoURL?: string
  /** Whether the person proved their email (invitations and domain joins are offered only then). */
  readonly emailVerified?: boolean
  /** Whether the person administers the instance (the instance's audit log is theirs to read). */
  readonly instanceAdmin?: boolean
}

export interface SessionInfo {
  readonly user: SessionUser
  readonly session: { readonly id: string; readonly expiresAt: string }
  /** Whether the server mails confirmation links. */
  readonly emailDelivery?: boolean
  /** Whether the person may create an organization now; when not, the server's reason. */
  readonly organizationCreation?: { readonly allowed: true } | { readonly allowed: false; readonly reason: string }
  readonly setupNeeded: false
}

/** The answer of `GET /auth/session`: signed in, or not (and whether first-run setup is open). */
export type SessionState =
  | { readonly signedIn: true; readonly info: SessionInfo }
  | { readonly signedIn: false; readonly setupNeeded: boolean }

export interface SignInSessionRow {
  readonly id: string
  readonly method: string
  readonly createdAt: string
  readonly lastSeenAt: string
  readonly expiresAt: string
  readonly userAgent: string | null
  readonly current: boolean
}

export interface Invite {
  readonly organization: { readonly id: string; readonly title: string }
  readonly email?: string
  readonly role: string
  readonly kind?: "link" | "email"
  /** The invitation's mailed link: answering it also confirms the address. */
  readonly proof?: boolean
}

/** A refusal: its status, its message in plain words, the field it names (if any), a wait. */
export class AuthError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly field: string | undefined,
    readonly retryAfterSeconds: number | undefined,
    /** The organization that enforces single sign-on, when that is why a password was refused. */
    readonly sso?: { readonly organizationId: string; readonly organizationTitle: string } | undefined
  ) {
    super(message)
  }
}

/**
 * Splits a server message `field: what is wrong` into its field and its words; a message naming
 * no field is the form's. Nested names (`user.email`) keep their last part.
 */
export const fieldError = (message: string, fields: ReadonlyArray<string>): { field: string | undefined; text: string } => {
  const match = /^([A-Za-z.[\]0-9]+):\s*(.+)$/s.exec(message)
  const name = match?.[1]?.split(".").at(-1)
  if (match !== null && name !== undefined && fields.includes(name)) {
    const text = match[2]!
    return { field: name, text: text.charAt(0).toUpperCase() + text.slice(1) }
  }
  return { field: undefined, text: message }
}

const call = async <A>(method: string, path: string, body?: unknown): Promise<A> => {
  const response = await fetch(path, {
    method,
    credentials: "same-origin",
    headers: body === undefined ? {} : { "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })
  if (response.status === 204) return undefined as A
  const text = await response.text()
  const parsed: unknown = text === "" ? undefined : JSON.parse(text)
  if (!response.ok) {
    const error = (parsed as { error?: { message?: string; sso?: { organizationId: string; organizationTitle: string } } } | undefined)?.error
    const message = error?.message ?? `The server answered ${response.status}`
    const retry = response.headers.get("retry-after")
    throw new AuthError(response.status, message, undefined, retry === null ? undefined : Number(retry), error?.sso)
  }
  return parsed as A
}

/**
 * Who is signed in. `?probe=1` (and index.html's preload of the same URL): signed out is a 200
 * answer `{signedIn: false, setupNeeded}`, so a signed-out visit logs no failed request.
 */
export const getSession = async (): Promise<SessionState> => {
  const response = await fetch("/auth/session?probe=1", { credentials: "same-origin" })
  if (!response.ok) throw new AuthError(response.status, "The server could not tell who you are", undefined, undefined)
  const body = await response.json() as SessionInfo | { readonly signedIn: false; readonly setupNeeded: boolean }
  return "user" in body ? { signedIn: true, info: body } : { signedIn: false, setupNeeded: body.setupNeeded }
}

export const signIn = (email: string, password: string) => call<SessionInfo>("POST", "/auth/sign-in", { email, password })

export const setup = (input: { setupCode: string; displayName: string; email: string; password: string }) =>
  call<SessionInfo>("POST", "/auth/setup", input)

export const signOut = () => call<void>("POST", "/auth/sign-out")

export const listSessions = () => call<{ items: ReadonlyArray<SignInSessionRow> }>("GET", "/auth/sessions")

export const revokeSession = (id: string) => call<void>("DELETE", `/auth/sessions/${encodeURIComponent(id)}`)

/** Ends every session of the person, this one included, and every API token a session of theirs made. */
export const signOutEverywhere = () => call<void>("POST", "/auth/sign-out-everywhere")

export const getInvite = (token: string) => call<Invite>("GET", `/auth/invites/${encodeURIComponent(token)}`)

export const acceptInvite = (token: string, input: { displayName: string; email: string; password: string }) =>
  call<SessionInfo>("POST", `/auth/invites/${encodeURIComponent(token)}/accept`, input)

/** Mails the signed-in person a link that confirms their email. */
export const requestEmailVerification = () => call<{ email: string }>("POST", "/auth/verify-email")

/** Confirms an email with the link's token. */
export const confirmEmail = (token: string) => call<{ email: string }>("POST", "/auth/verify-email/confirm", { token })

export const changePassword = (currentPassword: string, newPassword: string) =>
  call<void>("POST", "/auth/password", { currentPassword, newPassword })

/** An organization's ways to sign in, as `GET /sso/logins` answers them (docs/sso.md). */
export interface SsoLogins {
  readonly organization: { readonly id: string; readonly title: string }
  readonly providers: ReadonlyArray<{ readonly id: string; readonly label: string; readonly protocol: "saml" | "oidc"; readonly startURL: string }>
}

/** The single sign-on of an organization (`org`) or of the organizations claiming an email's domain. */
export const findSso = (by: { readonly org: string } | { readonly email: string }) =>
  call<{ items: ReadonlyArray<SsoLogins> }>("GET", `/sso/logins?${new URLSearchParams(by).toString()}`).then((answer) => answer.items)

/** Where a provider's sign-in starts on this origin, coming back to `next`. */
export const ssoStartPath = (startURL: string, next: string | undefined) =>
  `${new URL(startURL).pathname}?${new URLSearchParams({ RelayState: next ?? "/" }).toString()}`

/**
 * A provider's SAML SP metadata (XML), read on this origin from the path of its `metadataURL`: the
 * SAML surface (docs/sso.md) is not part of the public API. Rejects with the status on a refusal.
 */
export const getSpMetadata = async (metadataURL: string): Promise<string> => {
  const response = await fetch(new URL(metadataURL).pathname, { credentials: "same-origin" })
  if (!response.ok) throw new AuthError(response.status, `The server answered ${response.status}`, undefined, undefined)
  return response.text()
}
