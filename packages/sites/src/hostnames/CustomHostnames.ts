/**
 * Use cases on custom hostnames (a site's `hostname`): read one with its last DNS check (members
 * of the site's organization), check its DNS again (site editors), and remove it from its site
 * (as a site update does). Anyone else learns nothing: NotFound, and a removal that removes nothing.
 * An organization's subdomain (its `hostname` label) is read by its members only.
 */
import { Clock, Context, Effect, Layer, Option } from "effect"
import { type Actor, Errors } from "@quire/kernel"
import type { Site } from "../domain/Site.ts"
import { Sites } from "../Sites.ts"
import { SitesRepo } from "../SitesRepo.ts"
import { type HostnameCheck, HostnameChecksRepo } from "./HostnameChecksRepo.ts"
import { HostnameDns } from "./HostnameDns.ts"

/** A custom hostname, its site, and its last check if it was checked while this site held it. */
export interface CustomHostnameView {
  readonly hostname: string
  readonly site: Site
  readonly check: Option.Option<HostnameCheck>
}

export interface CustomHostnamesShape {
  readonly get: (hostname: string) => Effect.Effect<CustomHostnameView, Errors.NotFound, Actor.Actor>
  /** Checks the DNS now and keeps what it found (site editors); `defaultTarget` when none is configured. */
  readonly revalidate: (hostname: string, defaultTarget: string) => Effect.Effect<CustomHostnameView, Errors.NotFound | Errors.Forbidden, Actor.Actor>
  /** Takes the hostname off its site; false when no site the caller sees holds it. */
  readonly remove: (hostname: string) => Effect.Effect<boolean, Errors.Forbidden | Errors.InvalidInput | Errors.Conflict, Actor.Actor>
}

export class CustomHostnames extends Context.Service<CustomHostnames, CustomHostnamesShape>()("@quire/sites/CustomHostnames") {
  static readonly layer = Layer.effect(CustomHostnames, Effect.gen(function*() {
    const sites = yield* Sites
    const repo = yield* SitesRepo
    const checks = yield* HostnameChecksRepo
    const dns = yield* HostnameDns

    /** The site holding `hostname` as the caller may see it. */
    const load = Effect.fnUntraced(function*(hostname: string) {
      const name = hostname.toLowerCase()
      const site = yield* repo.findByHostname(name)
      if (Option.isNone(site)) return yield* new Errors.NotFound({ resource: "CustomHostname", id: hostname })
      const access = yield* sites.get(site.value.organizationId, site.value.id).pipe(
        Effect.mapError(() => new Errors.NotFound({ resource: "CustomHostname", id: hostname }))
      )
      const check = Option.filter(yield* checks.find(name), (c) => c.siteId === site.value.id)
      return { view: { hostname: name, site: access.site, check }, edit: access.permissions.edit }
    })

    const get = Effect.fn("CustomHostnames.get")(function*(hostname: string) {
      return (yield* load(hostname)).view
    })

    const revalidate = Effect.fn("CustomHostnames.revalidate")(function*(hostname: string, defaultTarget: string) {
      const { view, edit } = yield* load(hostname)
      if (!edit) return yield* new Errors.Forbidden({ reason: "You need to be able to edit the site to check its hostname" })
      const found = yield* dns.check(view.hostname, defaultTarget)
      const check: HostnameCheck = { hostname: view.hostname, siteId: view.site.id, ...found, checkedAt: new Date(yield* Clock.currentTimeMillis) }
      yield* checks.put(check)
      return { ...view, check: Option.some(check) }
    })

    const remove = Effect.fn("CustomHostnames.remove")(function*(hostname: string) {
      const found = yield* load(hostname).pipe(Effect.catchTag("NotFound", () => Effect.succeed(undefined)))
      if (found === undefined) return false
      yield* sites.update(found.view.site.organizationId, found.view.site.id, { hostname: null }).pipe(
        Effect.catchTag("NotFound", () => Effect.fail(new Errors.Forbidden({ reason: "You need to be able to edit the site to remove its hostname" })))
      )
      yield* checks.remove(found.view.hostname)
      return true
    })

    return CustomHostnames.of({ get, revalidate, remove })
  }))
}
