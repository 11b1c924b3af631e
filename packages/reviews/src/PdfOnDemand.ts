/**
 * The PDF renderer of a server or worker: Pdf.ts loaded on its first PDF, so pdfkit, fontkit and
 * their tables are not held by a process that never renders one (the built bundles keep the module
 * in a chunk of its own), and the fonts parsed then kept for the next PDFs.
 */
import { Context, Effect, Layer } from "effect"
import type { Errors } from "@quire/kernel"
import type { Fonts } from "./Fonts.ts"
import type { RevisionPdfInput } from "./Pdf.ts"

export type { PageSelection, RevisionPdfInput } from "./Pdf.ts"

export interface PdfRendererShape {
  /** `Pdf.renderRevision` with the renderer's fonts, once Pdf.ts is loaded. */
  readonly renderRevision: (input: RevisionPdfInput) => Effect.Effect<Uint8Array, Errors.NotFound>
}

export class PdfRenderer extends Context.Service<PdfRenderer, PdfRendererShape>()("@quire/reviews/PdfRenderer") {
  static readonly layer = Layer.effect(
    PdfRenderer,
    Effect.sync(() => {
      // Node keeps the module once loaded; the fonts are this renderer's, parsed on its first PDF.
      let fonts: Fonts | undefined
      const loaded = Effect.promise(async () => {
        const [pdf, fontTable] = await Promise.all([import("./Pdf.ts"), import("./Fonts.ts")])
        fonts ??= fontTable.makeFonts()
        return { pdf, fonts }
      })
      return PdfRenderer.of({
        renderRevision: (input) => Effect.flatMap(loaded, ({ fonts, pdf }) => pdf.renderRevision(input, fonts))
      })
    })
  )
}
