/**
 * An organization's custom fonts (GitBook's `CustomizationFontDefinition` with `custom: true`): a
 * family and its faces, each face a weight and the uploaded file (`storageKey`) holding it. A site
 * whose customization picks one serves its faces with `@font-face`.
 */
import { Schema } from "effect"

/** GitBook's `FontFamily`. */
export const FontFamily = Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(50))
/** GitBook's `FontWeight`. */
export const FontWeight = Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 1000 }))
/** GitBook's `StorageFileKey`: here, the key an upload of font bytes answered. */
export const StorageFileKey = Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(512))

/** The font formats a site serves: GitBook's `FontSource.format`. */
export type FontFormat = "woff2" | "woff"

export interface CustomFontFace {
  readonly weight: number
  readonly storageKey: string
  /** The bytes' hash in the file store (the upload's). */
  readonly blobHash: string
  readonly format: FontFormat
}

export interface CustomFont {
  readonly id: string
  readonly organizationId: string
  readonly fontFamily: string
  /** By weight, ascending; one of them 400. */
  readonly faces: ReadonlyArray<CustomFontFace>
  readonly createdAt: Date
  readonly updatedAt: Date
}

/** A file of font bytes an organization uploaded, which its fonts' faces may name by `storageKey`. */
export interface FontUpload {
  readonly organizationId: string
  /** What faces name: the bytes' hash for a direct upload, the key a signed upload URL was made for otherwise. */
  readonly storageKey: string
  /** The bytes' hash in the file store. */
  readonly blobHash: string
  readonly name: string
  readonly format: FontFormat
  readonly size: number
  readonly createdAt: Date
}

/** The largest font file taken: 5 MB. */
export const maxFontBytes = 5 * 1024 * 1024

/** The most fonts an organization keeps. */
export const maxFonts = 100

/** The format of font bytes by their signature, or none for anything but WOFF and WOFF2. */
export const formatOf = (head: Uint8Array): FontFormat | undefined => {
  const magic = String.fromCharCode(...head.subarray(0, 4))
  return magic === "wOF2" ? "woff2" : magic === "wOFF" ? "woff" : undefined
}

/** Where a site (any origin) fetches a face's bytes, below the server's public base URL. */
export const facePath = (fontId: string, face: Pick<CustomFontFace, "weight" | "format">) =>
  `/~fonts/${encodeURIComponent(fontId)}/${face.weight}.${face.format}`
