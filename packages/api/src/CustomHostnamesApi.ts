/**
 * GitBook's custom hostnames (a site's own hostname) with their DNS status, and its subdomains
 * (an organization's `hostname` label).
 */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import * as ApiErrors from "./ApiErrors.ts"
import { Authentication } from "./Authentication.ts"
import { Timestamp } from "./Schemas.ts"

/** GitBook's `CustomHostnameStatus` as Quire reports it: `live` once the DNS points here. */
export const CustomHostnameStatus = Schema.Literals(["live", "dns_wrong_cname", "dns_no_cname", "internal_error"])

/** GitBook's `CustomHostname`; `dns` (Quire's) says what the last check expected and found. */
export const CustomHostname = Schema.Struct({
  object: Schema.Literal("custom-hostname"),
  hostname: Schema.String,
  target: Schema.Struct({ type: Schema.Literal("site"), site: Schema.String }),
  isActive: Schema.Boolean,
  status: Schema.optionalKey(CustomHostnameStatus),
  dns: Schema.optionalKey(Schema.Struct({ target: Schema.String, found: Schema.Array(Schema.String), checkedAt: Timestamp })),
  urls: Schema.Struct({ location: Schema.String })
}).annotate({ identifier: "CustomHostname" })
export type CustomHostname = typeof CustomHostname.Type

/** GitBook's `Subdomain`. */
export const Subdomain = Schema.Struct({
  object: Schema.Literal("subdomain"),
  subdomain: Schema.String,
  target: Schema.Struct({ type: Schema.Literal("organization"), organization: Schema.String }),
  isActive: Schema.Boolean
}).annotate({ identifier: "Subdomain" })

const HostnameParam = Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(512))
const SubdomainParam = Schema.String.check(Schema.isPattern(/^[a-z0-9][a-z0-9-]{1,30}[a-z0-9]$/))

export class CustomHostnamesApi extends HttpApiGroup.make("customHostnames")
  .add(
    HttpApiEndpoint.get("getCustomHostname", "/custom-hostnames/:hostname", {
      params: { hostname: HostnameParam },
      success: CustomHostname,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Get a custom hostname",
        description: "Answers a site's custom hostname and the status of its last DNS check. Members of the site's organization may call it."
      })),
    /** Checks the DNS again: a CNAME to the configured target, or A records among its addresses. */
    HttpApiEndpoint.patch("dnsRevalidateCustomHostname", "/custom-hostnames/:hostname", {
      params: { hostname: HostnameParam },
      success: HttpApiSchema.NoContent,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Check a custom hostname's DNS again",
        description: "Checks now whether the hostname's DNS points at this server (a CNAME to QUIRE_CUSTOM_HOSTNAME_TARGET, else the public URL's host, or A records among its addresses); the status is then `live`, `dns_wrong_cname` or `dns_no_cname`. Needs the right to edit the site."
      })),
    HttpApiEndpoint.delete("removeCustomHostname", "/custom-hostnames/:hostname", {
      params: { hostname: HostnameParam },
      success: HttpApiSchema.NoContent,
      error: [...ApiErrors.Common, ApiErrors.Conflict]
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Remove a custom hostname",
        description: "Takes the hostname off its site, which is then served at its Quire address only. Needs the admin role. 204 also when no site holds it."
      })),
    HttpApiEndpoint.get("getSubdomain", "/subdomains/:subdomain", {
      params: { subdomain: SubdomainParam },
      success: Subdomain,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Get a subdomain",
        description: "Answers which of the caller's organizations has this hostname label (`hostname` of the organization)."
      }))
  )
  .middleware(Authentication)
  .prefix("/v1")
{}
