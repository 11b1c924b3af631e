/** What a path below a site's root asks for: a machine file, a revision's file, a site asset, the search, Ask, a page, or nothing. */
import { safeDecode } from "./UrlScheme.ts"

export type MachineFile = "sitemap.xml" | "robots.txt" | "llms.txt" | "llms-full.txt"

export type Route =
  | { readonly kind: "Machine"; readonly file: MachineFile }
  | { readonly kind: "File"; readonly spaceId: string; readonly fileId: string }
  | { readonly kind: "Search" }
  /** `~ask?q=…`: a question answered from the site's pages (JSON). */
  | { readonly kind: "Ask" }
  /** `~assets/<name>`: a file pages load from the site itself (KaTeX's, Mermaid, the page script). */
  | { readonly kind: "Asset"; readonly name: string }
  /** `[section]/[site-space]/<page path>[.md]`, the `.md` taken off (and `index.md` with it). */
  | { readonly kind: "Page"; readonly segments: ReadonlyArray<string>; readonly markdown: boolean }
  | { readonly kind: "NotFound" }

const machineFiles: ReadonlyArray<string> = ["sitemap.xml", "robots.txt", "llms.txt", "llms-full.txt"]

/** A path's segments: decoded (`undefined` where one does not decode), and those that do. */
export const segmentsOf = (path: string) => {
  const decoded = path.replace(/^\/+/, "").split("/").filter((s) => s !== "").map(safeDecode)
  return { decoded, segments: decoded.filter((s): s is string => s !== undefined) }
}

export const routeOf = (decoded: ReadonlyArray<string | undefined>, segments: ReadonlyArray<string>): Route => {
  const first = segments[0]
  // Machine files and routes of their own, at the root of the site.
  if (segments.length === 1 && first !== undefined && machineFiles.includes(first)) return { kind: "Machine", file: first as MachineFile }
  if (first === "~files" && segments.length === 3) return { kind: "File", spaceId: segments[1]!, fileId: segments[2]! }
  if (first === "~search" && segments.length === 1) return { kind: "Search" }
  if (first === "~ask" && segments.length === 1) return { kind: "Ask" }
  if (first === "~assets" && segments.length > 1 && decoded.every((s) => s !== undefined)) return { kind: "Asset", name: segments.slice(1).join("/") }
  if (decoded.some((s) => s === undefined || s.startsWith("~"))) return { kind: "NotFound" }
  const last = segments[segments.length - 1]
  if (last !== undefined && last.endsWith(".md")) {
    return { kind: "Page", segments: [...segments.slice(0, -1), ...(last === "index.md" ? [] : [last.slice(0, -3)])], markdown: true }
  }
  return { kind: "Page", segments, markdown: false }
}

/** Whether a path below a site's root is its Ask (`~ask`), however it is spelled: the serving routes spend a question on it. */
export const isAskPath = (path: string): boolean => {
  const { decoded, segments } = segmentsOf(path)
  return routeOf(decoded, segments).kind === "Ask"
}
