/** A space's main content as a PDF (GitBook's getSpacePDF), rendered by Pdf and kept in the BlobStore. */
import { Context, Effect, Layer } from "effect"
import { type Actor, Errors } from "@quire/kernel"
import { BlobStore, type Revision, SpaceContent } from "@quire/content"
import * as Pdf from "./PdfOnDemand.ts"

/** A rendered PDF: the hash of its bytes in the BlobStore, and what it shows. */
export interface SpacePdf {
  readonly blob: string
  readonly size: number
  readonly title: string
  readonly revision: Revision
}

export interface SpacePdfsShape {
  /**
   * The space's current content as a PDF, for a caller who can view the space: every page in tree
   * order, or only `page` and its subpages (only `page` with `only`). NotFound for an unknown page.
   */
  readonly pdf: (spaceId: string, options?: Pdf.PageSelection) => Effect.Effect<SpacePdf, Errors.NotFound, Actor.Actor>
}

export class SpacePdfs extends Context.Service<SpacePdfs, SpacePdfsShape>()("@quire/reviews/SpacePdfs") {
  static readonly layer = Layer.effect(
    SpacePdfs,
    Effect.gen(function*() {
      const content = yield* SpaceContent
      const blobs = yield* BlobStore
      const pdfs = yield* Pdf.PdfRenderer
      const pdf = Effect.fn("SpacePdfs.pdf")(function*(spaceId: string, options: Pdf.PageSelection = {}) {
        const current = yield* content.revision(spaceId)
        const bytes = yield* pdfs.renderRevision({
          title: current.access.space.title,
          revision: current.revision,
          page: options.page,
          only: options.only,
          pageIn: content.pageIn,
          reusableContentIn: content.reusableContentIn,
          blob: blobs.get
        })
        // Content-addressed: the same content rendered again stores nothing new.
        return { blob: yield* blobs.put(bytes), size: bytes.byteLength, title: current.access.space.title, revision: current.revision }
      })
      return SpacePdfs.of({ pdf })
    })
  )
}
