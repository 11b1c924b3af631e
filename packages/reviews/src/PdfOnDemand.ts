/**
 * Pdf.ts loaded on the first PDF a process renders: pdfkit, fontkit and their tables (some 2 MB of
 * code and what it builds when loaded) are not held by a server or worker that never renders one
 * (issue 23's footprint). The built bundles keep the module in a chunk of its own.
 */
import { Effect } from "effect"
import type { RevisionPdfInput } from "./Pdf.ts"

export type { PageSelection, RevisionPdfInput } from "./Pdf.ts"

let loading: Promise<typeof import("./Pdf.ts")> | undefined

/** `Pdf.renderRevision`, once Pdf.ts is loaded. */
export const renderRevision = (input: RevisionPdfInput) =>
  Effect.flatMap(Effect.promise(() => (loading ??= import("./Pdf.ts"))), (pdf) => pdf.renderRevision(input))
