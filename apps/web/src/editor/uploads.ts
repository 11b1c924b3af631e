/**
 * What every upload of the editor shares, without TipTap (the app's transport imports it while the
 * editor is still on its way): the stored file's shape, progress and cancelling, and failures in
 * words, each of a kind a view tells differently.
 */

/** A size in words: `1.4 MB`, `320 KB`, `12 bytes`. */
export const describeSize = (bytes: number): string =>
  bytes >= 1 << 20 ? `${(bytes / (1 << 20)).toFixed(1)} MB` : bytes >= 1024 ? `${Math.round(bytes / 1024)} KB` : `${bytes} bytes`

/** Why an upload did not store the file: each is told differently, and only some are worth a retry. */
export type UploadFailureKind = "too-large" | "quota" | "network" | "refused" | "cancelled"

/** An upload refused or broken off, with the words to show next to what was uploaded. */
export class UploadFailure extends Error {
  readonly kind: UploadFailureKind
  constructor(kind: UploadFailureKind, message: string) {
    super(message)
    this.kind = kind
  }
  /** Whether trying the same file again may work (the network failed, or the person cancelled). */
  get retryable(): boolean {
    return this.kind === "network" || this.kind === "cancelled"
  }
}

/** How an upload reports its progress and is cancelled. */
export interface UploadOptions {
  readonly onProgress?: (loaded: number, total: number) => void
  readonly signal?: AbortSignal
}

/** A stored file as the page refers to it. */
export interface UploadedFile {
  /** How the page refers to the file: `/files/<id>`. */
  readonly src: string
  readonly name: string
  readonly size: number
  readonly contentType: string
}

/** A failure's words: an UploadFailure's own, anything else as a refusal. */
export const failureOf = (failure: unknown): UploadFailure =>
  failure instanceof UploadFailure ? failure : new UploadFailure("refused", failure instanceof Error ? failure.message : String(failure))

