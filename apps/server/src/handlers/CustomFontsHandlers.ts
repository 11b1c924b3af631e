/** Handlers of the custom fonts group. */
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api, type CustomFontDefinition } from "@quire/api"
import { CustomFont, type CustomFontAccess, CustomFonts } from "@quire/sites"
import * as DomainErrors from "../DomainErrors.ts"
import { PublicUrl } from "../PublicUrl.ts"

export const layer = HttpApiBuilder.group(Api, "customFonts", Effect.fn(function*(handlers) {
  const fonts = yield* CustomFonts
  const urls = yield* PublicUrl
  /** GitBook's `CustomizationFontDefinition`: each face's file at its public URL, which a site's `@font-face` names. */
  const present = ({ font, edit }: CustomFontAccess): CustomFontDefinition => ({
    id: font.id,
    custom: true,
    fontFamily: font.fontFamily,
    fontFaces: font.faces.map((face) => ({ weight: face.weight, sources: [{ url: urls.app(CustomFont.facePath(font.id, face)), format: face.format }] })),
    permissions: { edit }
  })
  return handlers
    .handle("listCustomFonts", ({ params }) =>
      fonts.list(params.organizationId).pipe(DomainErrors.api, Effect.map((items) => ({ count: items.length, items: items.map(present) }))))
    .handle("createCustomFont", ({ params, payload }) => fonts.create(params.organizationId, payload).pipe(DomainErrors.api, Effect.map(present)))
    .handle("getCustomFont", ({ params }) => fonts.get(params.organizationId, params.fontId).pipe(DomainErrors.api, Effect.map(present)))
    .handle("updateCustomFont", ({ params, payload }) =>
      fonts.update(params.organizationId, params.fontId, payload).pipe(DomainErrors.api, Effect.map(present)))
    .handle("deleteCustomFont", ({ params }) => fonts.remove(params.organizationId, params.fontId).pipe(DomainErrors.api, Effect.asVoid))
}))
