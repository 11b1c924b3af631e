/**
 * How the bytes people upload are served on Quire's own origin (`/files/...` and a published
 * site's files under `/~sites/...`): never as something a browser runs. A type a browser only
 * shows (PNG, JPEG, GIF, WebP, AVIF, fonts, video, sound, PDF, plain text) keeps its stored type and is
 * shown inline; SVG keeps `image/svg+xml` (so pages show it in `<img>`, where its scripts never run)
 * but is a download when opened; every other type (HTML, JavaScript, CSS, XML, JSON, WebAssembly,
 * archives...) is served as `application/octet-stream`, a download: with `nosniff`, no `<script>`,
 * stylesheet or frame of our origin can use it. Every answer is sandboxed (a unique origin, no
 * script) by its own policy, which the global security headers keep.
 */
import { Schemas } from "@quire/api"
import { filePolicy } from "./SecurityHeaders.ts"

const shownInline = /^(image\/(png|jpeg|gif|webp|avif)|font\/(woff2|woff|ttf|otf)|video\/[a-z0-9.+-]+|audio\/[a-z0-9.+-]+|application\/pdf|text\/plain)$/

const essence = (contentType: string): string => contentType.split(";", 1)[0]!.trim().toLowerCase()

/**
 * The type to answer with: the stored one when a browser can only show it (or SVG) and it is a
 * well-formed media type (one stored before types were validated may hold bytes no header can),
 * else `application/octet-stream`.
 */
export const servedType = (contentType: string): string => {
  if (contentType.length > 200 || !Schemas.mediaTypePattern.test(contentType)) return "application/octet-stream"
  const type = essence(contentType)
  return shownInline.test(type) || type === "image/svg+xml" ? contentType : "application/octet-stream"
}

/** `filename*` of a name: a lone surrogate (which `encodeURIComponent` throws on) becomes U+FFFD. */
const encodedName = (name: string): string =>
  encodeURIComponent(name.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, "\ufffd"))

/** `inline` for what a browser only shows, `attachment` for the rest (SVG included) of a served type. */
export const disposition = (servedContentType: string, name: string): string =>
  `${shownInline.test(essence(servedContentType)) ? "inline" : "attachment"}; filename*=UTF-8''${encodedName(name)}`

/** The policy of every uploaded file's answer: sandboxed, no script, only its own image or media shown. */
export const uploadPolicy = `sandbox; ${filePolicy}`

/** The headers of an uploaded file's answer (its `servedType`), the content type aside. */
export const uploadHeaders = (servedContentType: string, name: string): Record<string, string> => ({
  "content-disposition": disposition(servedContentType, name),
  "x-content-type-options": "nosniff",
  "content-security-policy": uploadPolicy
})
