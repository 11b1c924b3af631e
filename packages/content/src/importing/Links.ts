/**
 * References between the files of an upload: a link or an image's path, resolved against the file
 * it is written in, and rewritten to the import's references (ImportTree.ts) when it names an
 * imported page or file. Markdown is rewritten outside code; HTML is converted with turndown against
 * a base URL that stands for the upload's root.
 */
import type { DomDocument } from "../markdown/Dom.ts"
import { fileRef, pageRef } from "./ImportTree.ts"

/** What the pages and files of an upload are, by path. */
export interface Resolver {
  /** The key of the page at `path` (an upload's page file, or a folder's index), if it is one. */
  readonly page: (path: string) => string | undefined
  /** Whether `path` is a file a page may show (an image, an attachment). */
  readonly file: (path: string) => boolean
}

const dirname = (path: string) => (path.includes("/") ? path.slice(0, path.lastIndexOf("/")) : "")

/** `target` as a path from the upload's root, read from the file at `from`; undefined for a URL, an anchor, or a path outside. */
export const resolvePath = (from: string, target: string): { readonly path: string; readonly hash: string } | undefined => {
  const trimmed = target.trim()
  if (trimmed === "" || trimmed.startsWith("#") || /^[a-z][a-z0-9+.-]*:/i.test(trimmed) || trimmed.startsWith("//")) return undefined
  const hashAt = trimmed.indexOf("#")
  const hash = hashAt < 0 ? "" : trimmed.slice(hashAt)
  let raw = (hashAt < 0 ? trimmed : trimmed.slice(0, hashAt)).replace(/\?.*$/, "")
  try {
    raw = decodeURIComponent(raw)
  } catch {
    // A stray % stays as written.
  }
  const segments = raw.startsWith("/") ? [] : dirname(from).split("/").filter((s) => s !== "")
  for (const segment of raw.split("/")) {
    if (segment === "" || segment === ".") continue
    if (segment === "..") {
      if (segments.length === 0) return undefined
      segments.pop()
    } else segments.push(segment)
  }
  return { path: segments.join("/"), hash }
}

/** The import's reference for `target` written in `from`, or undefined to leave it as written. */
export const rewriteTarget = (from: string, target: string, kind: "link" | "image", resolver: Resolver): string | undefined => {
  const resolved = resolvePath(from, target)
  if (resolved === undefined) return undefined
  if (kind === "link") {
    const key = resolver.page(resolved.path)
    if (key !== undefined) return pageRef(key, resolved.hash)
  }
  return resolver.file(resolved.path) ? fileRef(resolved.path) : undefined
}

const linkPattern = /(!?)\[((?:[^\][]|\[[^\]]*\])*)\]\(\s*(<[^>]*>|[^()\s]+(?:\([^()\s]*\)[^()\s]*)*)(\s+(?:"[^"]*"|'[^']*'))?\s*\)/g
const htmlImage = /(<img\b[^>]*?\bsrc\s*=\s*)(["'])([^"']*)\2/gi

/** Rewrites the links and images of `markdown` written in the file at `from`; code blocks and code spans stay as they are. */
export const rewriteMarkdown = (markdown: string, from: string, resolver: Resolver): string => {
  const parts = markdown.split(/(^(?:```|~~~)[^\n]*\n[\s\S]*?^(?:```|~~~)[ \t]*$|`[^`\n]+`)/m)
  return parts.map((part, index) => {
    if (index % 2 === 1) return part
    return part
      .replace(linkPattern, (match, bang: string, text: string, destination: string, title: string | undefined) => {
        const bare = destination.startsWith("<") ? destination.slice(1, -1) : destination
        const next = rewriteTarget(from, bare, bang === "!" ? "image" : "link", resolver)
        return next === undefined ? match : `${bang}[${text}](${next}${title ?? ""})`
      })
      .replace(htmlImage, (match, open: string, quote: string, src: string) => {
        const next = rewriteTarget(from, src, "image", resolver)
        return next === undefined ? match : `${open}${quote}${next}${quote}`
      })
  }).join("")
}

/** Stands for the upload's root while turndown resolves an HTML page's links. */
const base = "https://upload.quire.invalid/"

/**
 * The GitBook markdown of an HTML page of the upload at `from`, its links and images rewritten;
 * `prepare` turns another tool's markup into what the converter knows before it runs.
 */
export const htmlPage = async (html: string, from: string, resolver: Resolver, prepare?: (document: DomDocument) => void): Promise<string> => {
  const { htmlToMarkdown } = await import("./HtmlToMarkdown.ts")
  const pageUrl = base + from.split("/").map(encodeURIComponent).join("/")
  const markdown = htmlToMarkdown(html, pageUrl, {
    rewriteUrl: (url, kind) => {
      if (!url.startsWith(base)) return url
      const path = url.slice(base.length)
      return rewriteTarget("", path, kind, resolver) ?? decodeURI(path.replace(/#.*$/, ""))
    },
    ...(prepare === undefined ? {} : { prepare })
  })
  // A hint made of paragraphs opens and closes on blank lines the markdown does not need.
  return markdown.replace(/(\{% hint style="\w+" %\})\n\n+/g, "$1\n").replace(/\n\n+(\{% endhint %\})/g, "\n$1")
}

/** A hint block in GitBook's markdown. */
export const hint = (style: "info" | "success" | "warning" | "danger", body: string): string =>
  `{% hint style="${style}" %}\n${body.trim()}\n{% endhint %}`

/** Image file names a page may show. */
export const isImage = (path: string): boolean => /\.(png|jpe?g|gif|svg|webp|bmp|ico|avif)$/i.test(path)

/** The last segment of a path. */
export const basename = (path: string): string => path.slice(path.lastIndexOf("/") + 1)
