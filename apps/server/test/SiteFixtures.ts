/**
 * A published docs site for tests of readers (this suite and the browser tests): spaces with
 * pages written through change requests, a site with sections, a variant and an adaptive section,
 * published; and raw GETs on the test server.
 */
import { Effect } from "effect"
import http from "node:http"
import type { ChangeRequestContentChange } from "@quire/api"
import type { SiteCustomization } from "@quire/sites"
import { baseUrl, type Client, organizationWith, publicUrl } from "./Harness.ts"

/** Merges `changes` into the space's main content through a change request. */
export const write = Effect.fnUntraced(function*(api: Client, spaceId: string, changes: ReadonlyArray<ChangeRequestContentChange>) {
  const cr = yield* api.changeRequests.createChangeRequest({ params: { spaceId }, payload: { subject: "Content" } })
  yield* api.changeRequestContent.updateChangeRequestContent({ params: { spaceId, changeRequestId: cr.id }, payload: { changes } })
  yield* api.changeRequests.mergeChangeRequest({ params: { spaceId, changeRequestId: cr.id } })
})

export const png = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==", "base64")

/**
 * A published site "Handbook": section Guides (default; variants "Guides" and "Guides v2"),
 * section "API" in the section group "Reference", and section "Beta" shown only to
 * `visitor.claims.unsigned.beta === true` (`?visitor.beta=true`).
 */
export const publishedSite = Effect.fnUntraced(function*(
  visibility: "public" | "unlisted" | "share-link" | "visitor-auth" = "public",
  customization?: SiteCustomization
) {
  const { alice, organizationId } = yield* organizationWith()
  const api = alice.api
  const space = (title: string) => api.spaces.createSpace({ params: { organizationId }, payload: { title } })
  const guides = yield* space("Guides")
  const guidesV2 = yield* space("Guides v2")
  const apiSpace = yield* space("API")
  const beta = yield* space("Beta")
  yield* write(api, guides.id, [
    { operation: "insert_files", files: [{ name: "dot.png", contentType: "image/png", base64: png.toString("base64") }] },
    {
      operation: "insert_page",
      title: "Introduction",
      slug: "introduction",
      document: { markdown: "Welcome to the handbook.\n\n## Setup\n\nRead [the install guide](install.md).\n\n### Details\n\nMore words about zebras.\n\n![A dot](.gitbook/assets/dot.png)" }
    },
    { operation: "insert_page", title: "Install", slug: "install", ref: "install", document: { markdown: "Install the **tool**." } },
    { operation: "insert_page", title: "Docker", slug: "docker", into: "install", document: { markdown: "Docker steps with giraffes." } },
    { operation: "insert_page", title: "Configure", slug: "configure", document: { markdown: "Configure it." } }
  ])
  yield* write(api, guidesV2.id, [{ operation: "insert_page", title: "New intro", slug: "intro", document: { markdown: "Version two." } }])
  yield* write(api, apiSpace.id, [{ operation: "insert_page", title: "Endpoints", slug: "endpoints", document: { markdown: "The endpoints." } }])
  yield* write(api, beta.id, [{ operation: "insert_page", title: "Beta features", slug: "features", document: { markdown: "Secret beta okapis." } }])

  const actor = { userId: alice.user.id, instanceAdmin: false }
  const created = yield* api.sites.createSite({ params: { organizationId }, payload: { title: "Handbook", visibility } })
  const siteId = created.id
  const siteParams = { organizationId, siteId }
  const guidesSection = yield* api.siteSections.addSectionToSite({ params: siteParams, payload: { spaceId: guides.id } })
  const variant = yield* api.siteSpaces.addSpaceToSite({ params: siteParams, payload: { spaceId: guidesV2.id, sectionId: guidesSection.id } })
  const apiSection = yield* api.siteSections.addSectionToSite({ params: siteParams, payload: { spaceId: apiSpace.id } })
  const betaSection = yield* api.siteSections.addSectionToSite({ params: siteParams, payload: { spaceId: beta.id } })
  yield* api.siteSections.updateSiteSectionById({
    params: { ...siteParams, siteSectionId: betaSection.id },
    payload: { condition: "visitor.claims.unsigned.beta === true" }
  })
  const group = yield* api.siteSectionGroups.addSectionGroupToSite({ params: siteParams, payload: { title: "Reference" } })
  yield* api.siteSectionGroups.addSectionToSiteSectionGroup({
    params: { ...siteParams, siteSectionGroupId: group.id },
    payload: { sectionId: apiSection.id }
  })
  if (customization !== undefined) yield* api.sites.updateSiteCustomizationById({ params: siteParams, payload: customization as never })
  const site = yield* api.sites.publishSite({ params: siteParams })
  const key = (yield* api.sites.getSitePublishingAuthById({ params: siteParams })).privateKey
  const result = { siteId, siteParams, site, key, guidesSection, variant, apiSection, betaSection, group }
  return { ...result, api, token: alice.token, organizationId, actor, guides, guidesV2, apiSpace, beta, path: `/~sites/${result.siteId}/` }
})

export interface Got {
  readonly status: number
  readonly headers: Headers
  readonly text: string
}

/** The path on the test server of a published URL the API gives (its public URL is not where it listens). */
export const localPath = (url: string): string => url.slice(publicUrl.length)

/** A GET on the test server, redirects not followed. */
export const get = (path: string, headers: Record<string, string> = {}) =>
  Effect.flatMap(baseUrl, (base) =>
    Effect.promise(async (): Promise<Got> => {
      const response = await fetch(`${base}${path}`, { headers, redirect: "manual" })
      return { status: response.status, headers: response.headers, text: await response.text() }
    }))

/** The id of the page titled `title` anywhere in an API answer. */
export const idOf = (value: unknown, title: string): string | undefined => {
  if (Array.isArray(value)) return value.map((v) => idOf(v, title)).find((id) => id !== undefined)
  if (typeof value !== "object" || value === null) return undefined
  const record = value as Record<string, unknown>
  if (record["title"] === title && typeof record["id"] === "string") return record["id"]
  return Object.values(record).map((v) => idOf(v, title)).find((id) => id !== undefined)
}

/** A GET on the test server with the given `Host` (fetch cannot set it). */
export const getOnHost = (host: string, path: string) =>
  Effect.flatMap(baseUrl, (base) =>
    Effect.callback<Got>((resume) => {
      const request = http.get(`${base}${path}`, { headers: { host } }, (response) => {
        const chunks: Array<Buffer> = []
        response.on("data", (chunk: Buffer) => chunks.push(chunk))
        response.on("end", () => {
          const headers = new Headers()
          for (const [name, value] of Object.entries(response.headers)) {
            for (const v of Array.isArray(value) ? value : value === undefined ? [] : [value]) headers.append(name, v)
          }
          resume(Effect.succeed({ status: response.statusCode ?? 0, headers, text: Buffer.concat(chunks).toString() }))
        })
      })
      request.on("error", (error) => resume(Effect.die(error)))
    }))

/** The `name=value` pairs of a response's Set-Cookie headers. */
export const cookiesOf = (got: Got): string => got.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ")

