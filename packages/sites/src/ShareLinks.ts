/** Use cases on share links: secrets that open a `share-link` site until they are deactivated or deleted. */
import { AuditLog, caller as auditCaller } from "@quire/audit"
import { Clock, Context, Effect, Layer, Option } from "effect"
import { type Actor, Errors, Ids, Pagination, sameSecret, Sealed, Transactor } from "@quire/kernel"
import { randomBytes } from "node:crypto"
import * as SiteGuard from "./SiteGuard.ts"
import { shareLinkKeyShape, ShareLinksRepo } from "./ShareLinksRepo.ts"
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
  /**
   * A new link that opens the site's preview of one change request, and nothing else (any member who
   * reads a site open to everyone; a site's admin for a share-link or visitor-auth site, whose
   * other pages the preview shows; the caller checks they may read the change request).
   */
  readonly createPreview: (organizationId: string, siteId: string, changeRequestId: string) => Effect.Effect<ShareLinkView, Denied, Actor.Actor>
  /** The preview links of a change request on the site, oldest first, with their secrets. */
  readonly listPreview: (organizationId: string, siteId: string, changeRequestId: string) => Effect.Effect<ReadonlyArray<ShareLinkView>, Errors.NotFound, Actor.Actor>
  /** Revokes a preview link; nothing happens when it does not exist. */
  readonly removePreview: (organizationId: string, siteId: string, changeRequestId: string, shareLinkId: string) => Effect.Effect<void, Errors.NotFound, Actor.Actor>
}

/**
 * The key a change request's preview links are kept under in the share links' store, in place of a
 * site id: they open `<site>/~/changes/<changeRequestId>/` only (ChangePreview in apps/server).
 */
export const previewKey = (siteId: string, changeRequestId: string) => `${siteId}~changes~${changeRequestId}`

/** A new share secret: 32 random bytes, base64url. */
export const newSecret = (): string => randomBytes(32).toString("base64url")

/** The purpose of the key that seals share links' secrets. */
export const sealPurpose = "quire/sites/share-link-secret/v1"

/** Whether a share link of the site is active under `secret` (looked up by its hash, compared in constant time). */
export const checkSecret = (repo: typeof ShareLinksRepo.Service, siteId: string, secret: string): Effect.Effect<boolean> => {
  if (secret.length === 0 || secret.length > 200) return Effect.succeed(false)
  const hash = Sealed.bearerHash(secret)
  return Effect.map(repo.findBySecret(siteId, hash), (found) =>
    Option.isSome(found) && found.value.active && sameSecret(found.value.secret, hash))
}

export class ShareLinks extends Context.Service<ShareLinks, ShareLinksShape>()("@quire/sites/ShareLinks") {
  static readonly layer = Layer.effect(
    ShareLinks,
    Effect.gen(function*() {
      const guard = yield* SiteGuard.make
      const repo = yield* ShareLinksRepo
      const ids = yield* Ids.Ids
      const audit = yield* AuditLog
      const transactor = yield* Transactor.Transactor
      const recordLink = Effect.fnUntraced(function*(site: Site, link: ShareLink, action: "site.share-link-created" | "site.share-link-revoked") {
        yield* audit.record({
          organizationId: site.organizationId,
          action,
          actor: yield* auditCaller,
          target: { type: "share-link", id: link.id, ...(link.name === "" ? {} : { label: link.name }) },
          payload: { siteId: site.id, site: site.title }
        })
      })
      const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))
      const key = yield* Sealed.keyFor(sealPurpose)
      const stored = (secret: string) => ({ secret: Sealed.bearerHash(secret), sealedSecret: Sealed.seal(key, secret) })
      // Links of an older Quire keep their secret in clear: hashed and sealed now, once.
      const legacy = yield* repo.sealLegacy(stored)
      if (legacy > 0) yield* Effect.logInfo(`Share links: stored the secrets of ${legacy} links as hashes (sealed for listing)`)
      /** The link with its secret again (none opens under another instance secret: the stored hash is shown, which opens nothing). */
      const revealed = (link: ShareLink): ShareLink => ({
        ...link,
        secret: link.sealedSecret === null ? link.secret : Option.getOrElse(Sealed.open(key, link.sealedSecret), () => link.secret)
      })

      const linkOf = Effect.fnUntraced(function*(siteId: string, shareLinkId: string) {
        const found = yield* repo.find(shareLinkId)
        if (Option.isNone(found) || found.value.siteId !== siteId) return yield* new Errors.NotFound({ resource: "ShareLink", id: shareLinkId })
        return found.value
      })

      return ShareLinks.of({
        list: Effect.fn("ShareLinks.list")(function*(organizationId, siteId, page) {
          const { site } = yield* guard.editor(organizationId, siteId, "see this site's share links")
          const after = yield* Pagination.afterOf(page, shareLinkKeyShape)
          const found = yield* repo.list(siteId, after, Pagination.limitOf(page))
          return { items: found.items.map((shareLink) => ({ site, shareLink: revealed(shareLink) })), ...(found.next === undefined ? {} : { next: found.next }) }
        }),
        create: Effect.fn("ShareLinks.create")(function*(organizationId, siteId, input) {
          const { site } = yield* guard.editor(organizationId, siteId, "share this site")
          yield* SiteGuard.checkLength("name", input.name, 0, 50)
          const secret = newSecret()
          const shareLink: ShareLink = { id: yield* ids.make, siteId, name: input.name, active: true, ...stored(secret), createdAt: yield* now }
          yield* repo.insert(shareLink)
          yield* recordLink(site, shareLink, "site.share-link-created")
          return { site, shareLink: { ...shareLink, secret } }
        }, transactor.transaction),
        update: Effect.fn("ShareLinks.update")(function*(organizationId, siteId, shareLinkId, update) {
          const { site } = yield* guard.editor(organizationId, siteId, "change this site's share links")
          const before = yield* linkOf(siteId, shareLinkId)
          if (update.name !== undefined) yield* SiteGuard.checkLength("name", update.name, 0, 50)
          const updated = yield* repo.update(shareLinkId, {
            ...(update.name === undefined ? {} : { name: update.name }),
            ...(update.active === undefined ? {} : { active: update.active })
          })
          if (Option.isNone(updated)) return yield* new Errors.NotFound({ resource: "ShareLink", id: shareLinkId })
          if (before.active && !updated.value.active) yield* recordLink(site, updated.value, "site.share-link-revoked")
          return { site, shareLink: revealed(updated.value) }
        }, transactor.transaction),
        remove: Effect.fn("ShareLinks.remove")(function*(organizationId, siteId, shareLinkId) {
          yield* SiteGuard.quietly(Effect.gen(function*() {
            const { site } = yield* guard.editor(organizationId, siteId, "change this site's share links")
            const found = yield* repo.find(shareLinkId)
            if (Option.isSome(found) && found.value.siteId === siteId) {
              yield* repo.remove(shareLinkId)
              yield* recordLink(site, found.value, "site.share-link-revoked")
            }
          }))
        }, transactor.transaction),
        check: (siteId, secret) => checkSecret(repo, siteId, secret),
        createPreview: Effect.fn("ShareLinks.createPreview")(function*(organizationId, siteId, changeRequestId) {
          const { site } = yield* guard.site(organizationId, siteId)
          // A preview shows the site's other pages too: a link to a closed site is a share link of it.
          if (site.visibility !== "public" && site.visibility !== "unlisted") yield* guard.manager(organizationId, siteId, "share a preview of this site")
          const secret = newSecret()
          const shareLink: ShareLink = {
            id: yield* ids.make,
            siteId: previewKey(siteId, changeRequestId),
            name: "Change request preview",
            active: true,
            ...stored(secret),
            createdAt: yield* now
          }
          yield* repo.insert(shareLink)
          return { site, shareLink: { ...shareLink, secret } }
        }),
        listPreview: Effect.fn("ShareLinks.listPreview")(function*(organizationId, siteId, changeRequestId) {
          const { site } = yield* guard.site(organizationId, siteId)
          const found = yield* repo.list(previewKey(siteId, changeRequestId), undefined, 100)
          return found.items.map((shareLink) => ({ site, shareLink: revealed(shareLink) }))
        }),
        removePreview: Effect.fn("ShareLinks.removePreview")(function*(organizationId, siteId, changeRequestId, shareLinkId) {
          yield* guard.site(organizationId, siteId)
          const found = yield* repo.find(shareLinkId)
          if (Option.isSome(found) && found.value.siteId === previewKey(siteId, changeRequestId)) yield* repo.remove(shareLinkId)
        })
      })
    })
  )
}
