/** The authenticated caller of an operation, whatever the transport (HTTP, CLI, worker). */
import { Context } from "effect"

export interface ActorShape {
  readonly userId: string
  /** Instance administrators manage users and tokens of the whole Quire instance. */
  readonly instanceAdmin: boolean
  /**
   * The one organization this caller may reach (a session or token obtained through that
   * organization's single sign-on); absent: every organization the user belongs to.
   */
  readonly scope?: string | undefined
  /**
   * The caller acts through a sign-in session (a browser's cookie), not a bearer token: what it
   * creates that lasts (an API token) ends when its person changes their password or signs out everywhere.
   */
  readonly viaSession?: boolean | undefined
}

export class Actor extends Context.Service<Actor, ActorShape>()("@quire/kernel/Actor") {}
