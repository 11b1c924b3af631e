/** Handlers of the space PDF group: the space's main content rendered to a PDF behind a signed link. */
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "@quire/api"
import { SpacePdfs } from "@quire/reviews"
import * as DomainErrors from "../DomainErrors.ts"
import { FileLinks } from "../FileLinks.ts"

/** A file name of the space's title: characters file systems refuse (and control characters) become spaces. */
const fileName = (title: string, fallback: string) =>
  `${[...title].map((c) => (c < " " || '\\/:*?"<>|'.includes(c) ? " " : c)).join("").trim() || fallback}.pdf`

export const layer = HttpApiBuilder.group(Api, "spacePdf", Effect.fn(function*(handlers) {
  const pdfs = yield* SpacePdfs
  const links = yield* FileLinks
  return handlers
    .handle("getSpacePDF", ({ params, query }) =>
      Effect.gen(function*() {
        const rendered = yield* pdfs.pdf(params.spaceId, query).pipe(DomainErrors.api)
        const sign = yield* links.signer
        return {
          url: sign(params.spaceId, {
            id: `space-pdf:${rendered.revision.id}`,
            blob: rendered.blob,
            contentType: "application/pdf",
            name: fileName(rendered.title, params.spaceId)
          })
        }
      }))
}))
