/** OpenAPI specs and their versions as the API shows them (GitBook's `OpenAPISpec*` shapes). */
import type { OpenAPISpec, OpenAPISpecContent, OpenAPISpecUsage, OpenAPISpecVersion } from "@quire/api"
import type { SpecUsage } from "@quire/sites"
import { SourceCredentials, type Spec, type SpecAccess, type SpecVersion } from "@quire/specs"
import type { PublicUrl } from "./PublicUrl.ts"

type Urls = PublicUrl["Service"]

const location = (urls: Urls, spec: Spec) => urls.api(`/orgs/${spec.organizationId}/openapi/${spec.slug}`)

/** Where anyone reads a public spec's latest version (`.json`; `.yaml` beside it). */
export const publishedPath = (organizationId: string, slug: string, format: "json" | "yaml") =>
  `/~openapi/${organizationId}/${slug}/openapi.${format}`

/** `urls.published`: only for public specs. */
export const publishedUrl = (urls: Urls, spec: Spec): string | undefined =>
  spec.visibility === "public" ? urls.app(publishedPath(spec.organizationId, spec.slug, "json")) : undefined

export const spec = (urls: Urls, { permissions, spec: s }: SpecAccess): OpenAPISpec => {
  const published = publishedUrl(urls, s)
  return {
    object: "openapi-spec",
    id: s.id,
    createdAt: s.createdAt.toISOString(),
    updatedAt: s.updatedAt.toISOString(),
    slug: s.slug,
    // Credentials of the URL are stored sealed, never shown (`shownUrl` also covers specs stored before that).
    ...("url" in s.source ? { sourceURL: SourceCredentials.shownUrl(s.source.url) } : {}),
    processingState: s.processingState,
    visibility: s.visibility,
    ...(s.lastVersionId === null ? {} : { lastVersion: s.lastVersionId }),
    ...(s.lastProcessedAt === null ? {} : { lastProcessedAt: s.lastProcessedAt.toISOString() }),
    ...(s.lastProcessErrorCode === null ? {} : { lastProcessErrorCode: s.lastProcessErrorCode }),
    ...(s.lastProcessedErrors.length === 0 ? {} : { lastProcessedErrors: s.lastProcessedErrors }),
    lastProcessedErrorCount: s.lastProcessedErrors.length,
    permissions,
    urls: {
      location: location(urls, s),
      app: urls.app(`/openapi/${s.organizationId}/${s.slug}`),
      ...(published === undefined ? {} : { published })
    }
  }
}

const contentLocation = (urls: Urls, s: Spec, v: SpecVersion) => `${location(urls, s)}/versions/${v.id}/content`

/** Where the version's document is accessible: its source URL (credentials never shown), else its content here. */
const versionUrl = (urls: Urls, s: Spec, v: SpecVersion) => v.url === null ? contentLocation(urls, s, v) : SourceCredentials.shownUrl(v.url)

export const version = (urls: Urls, s: Spec, v: SpecVersion): OpenAPISpecVersion => ({
  object: "openapi-spec-version",
  id: v.id,
  createdAt: v.createdAt.toISOString(),
  url: versionUrl(urls, s, v),
  urls: { location: `${location(urls, s)}/versions/${v.id}` }
})

/** The folder a file of a spec is in, as Scalar's filesystem names it (`/` for the entry document and its neighbours). */
const dirOf = (filename: string): string => (filename.includes("/") ? `/${filename.slice(0, filename.lastIndexOf("/"))}` : "/")

/** `{filesystem, url}`: each file of the version (Scalar's filesystem, as GitBook answers), and where its document is accessible. */
export const content = (urls: Urls, s: Spec, v: SpecVersion): OpenAPISpecContent => ({
  filesystem: v.filesystem.map((file) => ({
    dir: dirOf(file.filename),
    filename: file.filename,
    isEntrypoint: file.isEntrypoint,
    references: file.references,
    specification: file.specification
  })),
  url: versionUrl(urls, s, v),
  urls: { source: versionUrl(urls, s, v), public: publishedUrl(urls, s) ?? null }
})

/** A page of a site that shows the spec, with its place in the app. */
export const usage = (urls: Urls, u: SpecUsage): OpenAPISpecUsage => ({
  object: "openapi-spec-usage",
  site: { id: u.site.id, title: u.site.title, published: u.site.published },
  space: { id: u.spaceId, title: u.spaceTitle },
  page: { id: u.pageId, title: u.pageTitle, path: u.pagePath },
  urls: {
    app: urls.app(`/s/${u.spaceId}/${u.pagePath.split("/").map(encodeURIComponent).join("/")}`),
    site: urls.app(`/o/${u.site.organizationId}/sites/${u.site.id}`)
  }
})
