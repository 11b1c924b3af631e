/**
 * OpenAPI specifications: a source (a URL, re-polled, or text) processed into versions, each the
 * entry document with the files it references; public specs are served at `urls.published`.
 */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { ProcessErrorCode, ProcessingState, SpecSlug, SpecVisibility } from "@quire/specs/domain/Spec"
import * as ApiErrors from "./ApiErrors.ts"
import { Authentication } from "./Authentication.ts"
import { EntityId, ListOf, PageQuery, Text, Timestamp, Url } from "./Schemas.ts"

/** GitBook's `OpenAPISpecSource`: a URL (at most 2048 characters) or the document's text. */
export const OpenAPISpecSource = Schema.Union([
  Schema.Struct({ url: Url }),
  Schema.Struct({ text: Text.check(Schema.isMinLength(1), Schema.isMaxLength(10 * 1024 * 1024)) })
])

/** GitBook's `OpenAPISpec`. */
export const OpenAPISpec = Schema.Struct({
  object: Schema.Literal("openapi-spec"),
  id: Schema.String,
  createdAt: Timestamp,
  updatedAt: Timestamp,
  slug: Schema.String,
  sourceURL: Schema.optionalKey(Schema.String),
  processingState: ProcessingState,
  visibility: Schema.optionalKey(SpecVisibility),
  lastVersion: Schema.optionalKey(Schema.String),
  lastProcessedAt: Schema.optionalKey(Timestamp),
  lastProcessErrorCode: Schema.optionalKey(ProcessErrorCode),
  lastProcessedErrors: Schema.optionalKey(Schema.Array(Schema.Struct({ message: Schema.String, code: Schema.optionalKey(Schema.String) }))),
  lastProcessedErrorCount: Schema.Finite,
  permissions: Schema.Struct({ view: Schema.Boolean, edit: Schema.Boolean }),
  urls: Schema.Struct({
    location: Schema.String,
    app: Schema.String,
    /** The latest version's document, for anyone; only on public specs. */
    published: Schema.optionalKey(Schema.String)
  })
}).annotate({ identifier: "OpenAPISpec" })
export type OpenAPISpec = typeof OpenAPISpec.Type

/** GitBook's `OpenAPISpecVersion`. */
export const OpenAPISpecVersion = Schema.Struct({
  object: Schema.Literal("openapi-spec-version"),
  id: Schema.String,
  createdAt: Timestamp,
  /** Where the specification is accessible. */
  url: Schema.String,
  urls: Schema.Struct({ location: Schema.String })
}).annotate({ identifier: "OpenAPISpecVersion" })
export type OpenAPISpecVersion = typeof OpenAPISpecVersion.Type

/**
 * One file of a version, as Scalar's OpenAPI parser lays out a filesystem (which GitBook's API
 * answers and its renderer reads with `filesystem.find`): `filename` is `openapi` for the entry
 * document and a referenced file as its `$ref` names it, `dir` the folder it is in.
 */
export const OpenAPISpecFile = Schema.Struct({
  dir: Schema.String,
  filename: Schema.String,
  isEntrypoint: Schema.Boolean,
  references: Schema.Array(Schema.String),
  specification: Schema.Unknown
}).annotate({ identifier: "OpenAPISpecFile" })
export type OpenAPISpecFile = typeof OpenAPISpecFile.Type

/**
 * GitBook's `OpenAPISpecContent`: `filesystem`, the entry document and every file it references
 * (an array: GitBook's published schema says `object`, but its API answers Scalar's filesystem and
 * its renderer calls `filesystem.find`, failing on anything else); `url` is where the version's
 * document is accessible (as the version's `url`).
 */
export const OpenAPISpecContent = Schema.Struct({
  filesystem: Schema.Array(OpenAPISpecFile),
  url: Schema.String,
  urls: Schema.Struct({ source: Schema.String, public: Schema.NullOr(Schema.String) })
})
export type OpenAPISpecContent = typeof OpenAPISpecContent.Type

/** Quire's: a page of a site that shows the spec in an API block (`{% openapi-operation spec="…" %}` and the like). */
export const OpenAPISpecUsage = Schema.Struct({
  object: Schema.Literal("openapi-spec-usage"),
  site: Schema.Struct({ id: Schema.String, title: Schema.String, published: Schema.Boolean }),
  space: Schema.Struct({ id: Schema.String, title: Schema.String }),
  page: Schema.Struct({ id: Schema.String, title: Schema.String, path: Schema.String }),
  urls: Schema.Struct({
    /** The page in the app. */
    app: Schema.String,
    /** The site's screen in the app. */
    site: Schema.String
  })
}).annotate({ identifier: "OpenAPISpecUsage" })
export type OpenAPISpecUsage = typeof OpenAPISpecUsage.Type

const specParams = { organizationId: EntityId, specSlug: SpecSlug } as const

export class OpenAPISpecsApi extends HttpApiGroup.make("openAPISpecs")
  .add(
    /** The organization's OpenAPI specs, oldest first. */
    HttpApiEndpoint.get("listOpenAPISpecs", "/orgs/:organizationId/openapi", {
      params: { organizationId: EntityId },
      query: PageQuery,
      success: ListOf(OpenAPISpec),
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "List OpenAPI specs",
        description: "Lists the OpenAPI specifications stored in an organization. Any member may call it."
      })),
    /** Creates a spec and queues its processing (`processingState: pending`). */
    HttpApiEndpoint.post("createOpenAPISpec", "/orgs/:organizationId/openapi", {
      params: { organizationId: EntityId },
      payload: Schema.Struct({ slug: SpecSlug, source: OpenAPISpecSource }),
      success: OpenAPISpec.pipe(HttpApiSchema.status(201)),
      error: [...ApiErrors.Common, ApiErrors.Conflict]
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Add an OpenAPI spec",
        description: "Stores an OpenAPI specification under a slug, from text or a URL. Needs the create role or above in the organization. Text that expands past 8 MiB of JSON (YAML aliases included) or nests deeper than 100 levels is a 400; a URL's credentials (user, password, token parameters) are stored sealed and never shown."
      })),
    HttpApiEndpoint.get("getOpenAPISpecBySlug", "/orgs/:organizationId/openapi/:specSlug", {
      params: specParams,
      success: OpenAPISpec,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Get an OpenAPI spec",
        description: "Answers an OpenAPI specification and its latest version. Any member may call it."
      })),
    /** Creates the spec (201) or replaces its source (200), and queues processing. */
    HttpApiEndpoint.put("createOrUpdateOpenAPISpecBySlug", "/orgs/:organizationId/openapi/:specSlug", {
      params: specParams,
      payload: Schema.Struct({ source: OpenAPISpecSource }),
      // 200 when the source was replaced, 201 when the spec was created (the handler answers that one).
      success: [OpenAPISpec, OpenAPISpec.pipe(HttpApiSchema.status(201))],
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Create or replace an OpenAPI spec",
        description: "Stores a new version of the spec under the slug, creating it if absent. Needs the create role or above in the organization. The source is bounded and a URL's credentials sealed as on creation."
      })),
    /** Changes the visibility: `public` serves the latest version at `urls.published`. */
    HttpApiEndpoint.patch("updateOpenAPISpecBySlug", "/orgs/:organizationId/openapi/:specSlug", {
      params: specParams,
      payload: Schema.Struct({ visibility: SpecVisibility }),
      success: OpenAPISpec,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Update an OpenAPI spec",
        description: "Changes a spec's visibility: `public` serves its latest version at `urls.published`, `private` to members and to the readers of a site whose pages show it. Its content is changed by createOrUpdateOpenAPISpecBySlug. Needs the create role or above in the organization."
      })),
    /** Deletes the spec and its versions; 204 also when it does not exist. */
    HttpApiEndpoint.delete("deleteOpenAPISpecBySlug", "/orgs/:organizationId/openapi/:specSlug", {
      params: specParams,
      success: HttpApiSchema.NoContent,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Delete an OpenAPI spec",
        description: "Deletes a spec and all its versions. Needs the create role or above in the organization."
      })),
    /** Quire's: the pages of the organization's sites that show the spec. */
    HttpApiEndpoint.get("listOpenAPISpecUsages", "/orgs/:organizationId/openapi/:specSlug/usages", {
      params: specParams,
      success: Schema.Struct({ items: Schema.Array(OpenAPISpecUsage) }),
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "List where an OpenAPI spec is used",
        description: "Quire's extension (GitBook has no such operation): the pages of the organization's sites whose current content shows the spec in an API block (`openapi-operation`, `openapi`, `swagger`, `openapi-schemas`, `openapi-webhook` naming its slug), site by site. Only the sites and spaces the caller can see are searched. Any member may call it."
      })),
    /** The versions, newest first. */
    HttpApiEndpoint.get("listOpenAPISpecVersions", "/orgs/:organizationId/openapi/:specSlug/versions", {
      params: specParams,
      query: PageQuery,
      success: ListOf(OpenAPISpecVersion),
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "List an OpenAPI spec's versions",
        description: "Lists the stored versions of a spec, newest first."
      })),
    HttpApiEndpoint.get("getLatestOpenAPISpecVersion", "/orgs/:organizationId/openapi/:specSlug/versions/latest", {
      params: specParams,
      success: OpenAPISpecVersion,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Get the latest version",
        description: "Answers the metadata of a spec's latest version."
      })),
    HttpApiEndpoint.get("getLatestOpenAPISpecVersionContent", "/orgs/:organizationId/openapi/:specSlug/versions/latest/content", {
      params: specParams,
      success: OpenAPISpecContent,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Get the latest version's content",
        description: "Answers the content of a spec's latest version: `filesystem`, each file's path (`openapi` for the entry document) to its parsed content, and `url`, where the version's document is accessible."
      })),
    /** The text of the latest version's entry document, exactly as it was given. */
    HttpApiEndpoint.get("getLatestOpenAPISpecVersionContentRaw", "/orgs/:organizationId/openapi/:specSlug/versions/latest/content/raw", {
      params: specParams,
      success: Schema.Struct({ text: Schema.String, format: Schema.Literals(["json", "yaml"]) }).annotate({ identifier: "OpenAPISpecRawContent" }),
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Get the latest version's raw text",
        description: "Answers the text of the spec's entry document exactly as it was given (`format`: `json` or `yaml`), for a spec given as text whose latest version is that text. 404 for a spec fetched from a URL (Quire keeps the parsed document, read with `getLatestOpenAPISpecVersionContent`, not the fetched bytes) or whose latest text failed to parse."
      })),
    HttpApiEndpoint.get("getOpenAPISpecVersionById", "/orgs/:organizationId/openapi/:specSlug/versions/:versionId", {
      params: { ...specParams, versionId: EntityId },
      success: OpenAPISpecVersion,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Get a version",
        description: "Answers the metadata of one version of a spec."
      })),
    HttpApiEndpoint.get("getOpenAPISpecVersionContentById", "/orgs/:organizationId/openapi/:specSlug/versions/:versionId/content", {
      params: { ...specParams, versionId: EntityId },
      success: OpenAPISpecContent,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Get a version's content",
        description: "Answers the content of one version of a spec: `filesystem`, the entry document and each file it references with its name, folder and parsed content, and `url`, where the version's document is accessible."
      }))
  )
  .prefix("/v1")
  .middleware(Authentication)
{}
