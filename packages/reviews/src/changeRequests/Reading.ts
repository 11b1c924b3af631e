/** Use cases that read a change request's content (its head revision): pages, files, and the whole as a PDF. */
import { Effect } from "effect"
import { BlobStore } from "@quire/content"
import type { Pagination } from "@quire/kernel"
import type { PdfOptions } from "./ChangeRequestTypes.ts"
import * as Pdf from "../PdfOnDemand.ts"
import type { Branch } from "./Branch.ts"

/** Built by the ChangeRequests layer over the shared branch helpers; needs the BlobStore for PDFs. */
export const reading = Effect.fnUntraced(function*(branch: Branch) {
  const { content, resolve, revisionOf } = branch
  const blobs = yield* BlobStore
  const pdfs = yield* Pdf.PdfRenderer

  const contentOf = Effect.fn("ChangeRequests.content")(function*(spaceId: string, ref: string) {
    const found = yield* resolve(spaceId, ref)
    return { ...found, revision: yield* revisionOf(found.changeRequest) }
  })

  const page = Effect.fn("ChangeRequests.page")(function*(spaceId: string, ref: string, pageId: string) {
    const found = yield* contentOf(spaceId, ref)
    return { access: found.access, ...(yield* content.pageIn(found.revision, pageId)) }
  })

  const files = Effect.fn("ChangeRequests.files")(function*(spaceId: string, ref: string, request: Pagination.PageRequest) {
    const found = yield* contentOf(spaceId, ref)
    return yield* content.filesIn(found.revision, request)
  })

  const file = Effect.fn("ChangeRequests.file")(function*(spaceId: string, ref: string, fileId: string) {
    const found = yield* contentOf(spaceId, ref)
    return yield* content.fileIn(found.revision, fileId)
  })

  const pdf = Effect.fn("ChangeRequests.pdf")(function*(spaceId: string, ref: string, options: PdfOptions = {}) {
    const found = yield* contentOf(spaceId, ref)
    const cr = found.changeRequest
    const bytes = yield* pdfs.renderRevision({
      title: found.access.space.title,
      subtitle: `Change request #${cr.number}${cr.subject === "" ? "" : `: ${cr.subject}`}`,
      revision: found.revision,
      page: options.page,
      only: options.only,
      pageIn: content.pageIn,
      reusableContentIn: content.reusableContentIn,
      blob: blobs.get
    })
    // Content-addressed: re-rendering the same content stores nothing new.
    return { changeRequest: cr, blob: yield* blobs.put(bytes), size: bytes.byteLength }
  })

  return { content: contentOf, page, files, file, pdf }
})
