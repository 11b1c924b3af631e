/** Use cases on share links: secrets that open a `share-link` site until they are deactivated or deleted. */
import { Context, type Effect } from "effect"
import type { Actor, Errors, Pagination } from "@quire/kernel"
import type { Site } from "./domain/Site.ts"
import type { ShareLink } from "./domain/ShareLink.ts"

type Denied = Errors.NotFound | Errors.Forbidden

/** A share link with its site (for `urls.published`). */
export interface ShareLinkView {
  readonly site: Site
  readonly shareLink: ShareLink
}

export interface ShareLinksShape {
  /** The site's share links, oldest first (admins: they carry the secrets). */
  readonly list: (organizationId: string, siteId: string, page: Pagination.PageRequest) => Effect.Effect<Pagination.Page<ShareLinkView>, Denied | Errors.InvalidInput, Actor.Actor>
  readonly create: (organizationId: string, siteId: string, input: { readonly name: string }) => Effect.Effect<ShareLinkView, Denied | Errors.InvalidInput, Actor.Actor>
  readonly update: (organizationId: string, siteId: string, shareLinkId: string, update: { readonly active?: boolean | undefined; readonly name?: string | undefined }) => Effect.Effect<ShareLinkView, Denied | Errors.InvalidInput, Actor.Actor>
  /** Nothing happens when it does not exist. */
  readonly remove: (organizationId: string, siteId: string, shareLinkId: string) => Effect.Effect<void, Errors.Forbidden, Actor.Actor>
  /** Whether `secret` is an active share link of the site (no caller needed). */
  readonly check: (siteId: string, secret: string) => Effect.Effect<boolean>
}

export class ShareLinks extends Context.Service<ShareLinks, ShareLinksShape>()("@quire/sites/ShareLinks") {}
