/** Handlers of the custom hostnames group: sites' own hostnames with their DNS status, and organizations' subdomains. */
import { Effect, Option } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api, type CustomHostname } from "@quire/api"
import { Organizations } from "@quire/identity"
import { Errors } from "@quire/kernel"
import { CustomHostnames, type CustomHostnameView } from "@quire/sites"
import * as DomainErrors from "../DomainErrors.ts"
import { PublicUrl } from "../PublicUrl.ts"

export const layer = HttpApiBuilder.group(Api, "customHostnames", Effect.fn(function*(handlers) {
  const hostnames = yield* CustomHostnames
  const organizations = yield* Organizations
  const urls = yield* PublicUrl
  const ownHost = new URL(urls.base).hostname
  const present = (view: CustomHostnameView): CustomHostname => ({
    object: "custom-hostname",
    hostname: view.hostname,
    target: { type: "site", site: view.site.id },
    isActive: Option.exists(view.check, (c) => c.status === "live"),
    ...Option.match(view.check, {
      onNone: () => ({}),
      onSome: (c) => ({ status: c.status, dns: { target: c.target, found: [...c.found], checkedAt: c.checkedAt.toISOString() } })
    }),
    urls: { location: urls.api(`/custom-hostnames/${view.hostname}`) }
  })
  return handlers
    .handle("getCustomHostname", ({ params }) => hostnames.get(params.hostname).pipe(DomainErrors.api, Effect.map(present)))
    .handle("dnsRevalidateCustomHostname", ({ params }) => hostnames.revalidate(params.hostname, ownHost).pipe(DomainErrors.api, Effect.asVoid))
    .handle("removeCustomHostname", ({ params }) => hostnames.remove(params.hostname).pipe(DomainErrors.api, Effect.asVoid))
    .handle("getSubdomain", ({ params }) =>
      Effect.gen(function*() {
        // Only the caller's own organizations (not as a guest) are looked at: nobody learns another's label.
        let page: string | undefined
        do {
          const found = yield* organizations.list({ limit: 1000, ...(page === undefined ? {} : { page }) })
          const match = found.items.find((a) => a.membership.role !== null && a.organization.hostname?.toLowerCase() === params.subdomain)
          if (match !== undefined) {
            return { object: "subdomain" as const, subdomain: params.subdomain, target: { type: "organization" as const, organization: match.organization.id }, isActive: true }
          }
          page = found.next
        } while (page !== undefined)
        return yield* new Errors.NotFound({ resource: "Subdomain", id: params.subdomain })
      }).pipe(DomainErrors.api))
}))
