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
  /**
   * The caller is a published site's reader, not a user (a token `resolvePublishedContentByUrl`
   * issued): it reads the current content of `spaceIds` only, the spaces that site shows that
   * audience, and belongs to no organization. `userId` then names no user.
   */
  readonly siteReader?: SiteReader | undefined
}

/** What a published site's reader may read: the site, its organization and the spaces it shows. */
export interface SiteReader {
  readonly siteId: string
  readonly organizationId: string
  readonly spaceIds: ReadonlyArray<string>
  /** The visitor's claims, which the site's `{% if %}` blocks read. */
  readonly claims: Readonly<Record<string, unknown>>
}

export class Actor extends Context.Service<Actor, ActorShape>()("@quire/kernel/Actor") {}
