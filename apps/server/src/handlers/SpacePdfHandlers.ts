/** Handlers of the space export group: the space's main content as a PDF, or a zip of its markdown, behind a signed link. */
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "@quire/api"
import { SpaceArchives } from "@quire/gitsync"
import { SpacePdfs } from "@quire/reviews"
import * as DomainErrors from "../DomainErrors.ts"
import { FileLinks } from "../FileLinks.ts"

/** A file name of the space's title: characters file systems refuse (and control characters) become spaces. */
const fileName = (title: string, fallback: string, extension: string) =>
  `${[...title].map((c) => (c < " " || '\\/:*?"<>|'.includes(c) ? " " : c)).join("").trim() || fallback}.${extension}`

export const layer = HttpApiBuilder.group(Api, "spacePdf", Effect.fn(function*(handlers) {
  const pdfs = yield* SpacePdfs
  const archives = yield* SpaceArchives
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
            name: fileName(rendered.title, params.spaceId, "pdf")
          })
        }
      }))
    .handle("getSpaceMarkdownArchive", ({ params }) =>
      Effect.gen(function*() {
        const archive = yield* archives.archive(params.spaceId).pipe(DomainErrors.api)
        const sign = yield* links.signer
        return {
          url: sign(params.spaceId, {
            id: `space-archive:${archive.revision.id}`,
            blob: archive.blob,
            contentType: "application/zip",
            name: fileName(archive.title, params.spaceId, "zip")
          })
        }
      }))
}))
