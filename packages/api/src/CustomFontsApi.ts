/**
 * GitBook's custom fonts of an organization: a family and its faces, each a weight and an uploaded
 * font file (`storageKey`, from Quire's `POST /v1/orgs/{organizationId}/fonts/files`). A site's
 * customization picks one as `styling.font` (or `headingFont`, `monospaceFont`); the site then
 * serves its faces with `@font-face`.
 */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { FontFamily, FontWeight, StorageFileKey } from "@quire/sites/domain/CustomFont"
import * as ApiErrors from "./ApiErrors.ts"
import { Authentication } from "./Authentication.ts"
import { requestExample } from "./RequestExample.ts"
import { EntityId } from "./Schemas.ts"

/** GitBook's `CustomizationFontDefinition`. */
export const CustomFontDefinition = Schema.Struct({
  id: Schema.String,
  custom: Schema.Boolean,
  fontFamily: Schema.String,
  fontFaces: Schema.Array(Schema.Struct({
    weight: Schema.Int,
    sources: Schema.Array(Schema.Struct({ url: Schema.String, format: Schema.optionalKey(Schema.Literals(["woff2", "woff"])) }))
  })),
  permissions: Schema.Struct({ edit: Schema.Boolean })
}).annotate({ identifier: "CustomizationFontDefinition" })
export type CustomFontDefinition = typeof CustomFontDefinition.Type

/** Quire's answer to a font file upload: the `storageKey` a face names. */
export const FontUploadResponse = Schema.Struct({
  object: Schema.Literal("font-file"),
  storageKey: Schema.String,
  name: Schema.String,
  format: Schema.Literals(["woff2", "woff"]),
  size: Schema.Int
}).annotate({ identifier: "FontUpload" })
export type FontUploadResponse = typeof FontUploadResponse.Type

const fontParams = { organizationId: EntityId, fontId: EntityId } as const

export class CustomFontsApi extends HttpApiGroup.make("customFonts")
  .add(
    HttpApiEndpoint.get("listCustomFonts", "/orgs/:organizationId/fonts", {
      params: { organizationId: EntityId },
      success: Schema.Struct({ count: Schema.Int, items: Schema.Array(CustomFontDefinition) }),
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "List custom fonts",
        description: "Lists the organization's custom fonts, each with the URLs of its files. Any member may call it."
      })),
    /** Defines a font over uploaded files; a face of weight 400 is required (admins). */
    HttpApiEndpoint.put("createCustomFont", "/orgs/:organizationId/fonts", {
      params: { organizationId: EntityId },
      payload: Schema.Struct({
        fontFamily: FontFamily,
        fontFaces: Schema.Array(Schema.Struct({ weight: FontWeight, storageKey: StorageFileKey })).check(Schema.isMinLength(1), Schema.isMaxLength(20))
      }),
      success: CustomFontDefinition.pipe(HttpApiSchema.status(201)),
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Create a custom font",
        description: "Defines a font family over font files uploaded to the organization (`storageKey`), one per weight; weight 400 is required. Needs the admin role.",
        transform: requestExample({ fontFamily: "Acme Sans", fontFaces: [{ weight: 400, storageKey: "<storageKey of an upload>" }] })
      })),
    HttpApiEndpoint.get("getCustomFont", "/orgs/:organizationId/fonts/:fontId", {
      params: fontParams,
      success: CustomFontDefinition,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({ summary: "Get a custom font", description: "Answers one of the organization's custom fonts." })),
    /** Renames the family or sets faces; a face whose storageKey is null is removed (admins). */
    HttpApiEndpoint.post("updateCustomFont", "/orgs/:organizationId/fonts/:fontId", {
      params: fontParams,
      payload: Schema.Struct({
        fontFamily: Schema.optionalKey(FontFamily),
        fontFaces: Schema.optionalKey(Schema.Array(Schema.Struct({ weight: FontWeight, storageKey: Schema.NullOr(StorageFileKey) })).check(Schema.isMaxLength(20)))
      }),
      success: CustomFontDefinition.pipe(HttpApiSchema.status(201)),
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Update a custom font",
        description: "Renames a custom font or sets the files of some weights (`storageKey` null removes a weight; 400 must remain). Needs the admin role."
      })),
    HttpApiEndpoint.delete("deleteCustomFont", "/orgs/:organizationId/fonts/:fontId", {
      params: fontParams,
      success: HttpApiSchema.NoContent,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Delete a custom font",
        description: "Deletes a custom font; sites that picked it fall back to their default font. Needs the admin role. 204 also when there was none."
      }))
  )
  .middleware(Authentication)
  .prefix("/v1")
{}
