/**
 * The rows sign-in keeps (sessions, attempt counts), shared by the SignInRepo port, its adapters
 * and the in-memory identity state (IdentityMemory), so that the state need not import the port.
 */

/** How a session began. */
export type SessionMethod = "password" | "saml" | "oidc"

/** A stored sign-in session. */
export interface SessionRow {
  readonly id: string
  readonly userId: string
  /** The one organization a SAML session reaches; null: every organization of its person. */
  readonly organizationId: string | null
  readonly method: SessionMethod
  readonly createdAt: Date
  readonly lastSeenAt: Date
  readonly expiresAt: Date
  readonly userAgent: string | null
  /** When it was revoked (signed out); null while it is not. */
  readonly revokedAt: Date | null
}

/** Attempts counted for a key in the window ending at `resetAt`. */
export interface AttemptCount {
  readonly count: number
  readonly resetAt: Date
}
