/**
 * GitBook's `{% include "…/.gitbook/includes/<name>.md" %}` (or `"/reusable-content/<id>"`): the
 * reusable content's markdown in place of the tag, before a page is rendered or indexed, nested
 * includes too. An include that names nothing the space holds leaves nothing behind, never the
 * raw tag. This is the pure part (tags found, references resolved, text substituted), light enough
 * for the parse workers; `Includes.ts` reads the bodies.
 */
import * as Syntax from "@quire/document/syntax"
import type { ReusableContentNode } from "../domain/Revision.ts"

/** The reference of an include tag (`{% include "x.md" %}`: one quoted reference), else undefined. */
const includeRef = (tag: Syntax.Tag): string | undefined => {
  if (tag.name !== "include" || tag.params?.length !== 1) return undefined
  const [param] = tag.params
  return param!.key === null && param!.quote !== "" ? param!.value : undefined
}

/** The reference of `text` when it is one include tag and nothing else (but space), as GitBook writes one on its own line. */
export const includeAlone = (text: string): { readonly ref: string; readonly indent: string } | undefined => {
  if (!text.includes("include")) return undefined
  const trimmed = text.trim()
  const tag = Syntax.readTag(trimmed)
  const ref = tag === undefined ? undefined : includeRef(tag)
  return ref === undefined ? undefined : { ref, indent: text.slice(0, text.length - text.trimStart().length) }
}

/** The id an include's reference names directly (`/reusable-content/<id>`), else undefined. */
export const includedId = (ref: string): string | undefined => /^\/?reusable-content\/([^/]+)\/?$/.exec(ref)?.[1]
const fence = /^\s*(`{3,}|~{3,})/

/** `path` with `.` and `..` resolved against the folder `from` (no leading `/`). */
const resolvePath = (from: string, path: string): string => {
  const out: Array<string> = path.startsWith("/") || from === "" ? [] : from.split("/")
  for (const segment of path.split("/")) {
    if (segment === "" || segment === ".") continue
    if (segment === "..") out.pop()
    else out.push(segment)
  }
  return out.join("/")
}

const decoded = (text: string): string => {
  try {
    return decodeURIComponent(text)
  } catch {
    return text
  }
}

const fileName = (path: string): string => path.slice(path.lastIndexOf("/") + 1).replace(/\.md$/i, "").toLowerCase()

/**
 * The reusable content an include names: by id (`/reusable-content/<id>`), by the file it came
 * from, resolved against the including page's file (`pageFile`), else by file name alone (a page
 * written in Quire, or a path GitBook wrote from another folder).
 */
export const findReusableContent = (
  ref: string,
  pageFile: string | undefined,
  nodes: ReadonlyArray<ReusableContentNode>
): ReusableContentNode | undefined => {
  const target = decoded(ref.trim().replace(/[?#].*$/, ""))
  const id = includedId(target)
  if (id !== undefined) return nodes.find((node) => node.id === id)
  const folder = pageFile === undefined || !pageFile.includes("/") ? "" : pageFile.slice(0, pageFile.lastIndexOf("/"))
  const path = resolvePath(folder, target)
  const exact = nodes.find((node) => node.git?.path === path)
  if (exact !== undefined) return exact
  const name = fileName(target)
  return nodes.find((node) => node.git !== undefined && fileName(node.git.path) === name)
}

/** Where a line's text outside inline code spans lies: false inside a span (an odd number of backticks before). */
const outsideCode = (line: string, index: number): boolean => (line.slice(0, index).match(/`/g)?.length ?? 0) % 2 === 0

/** `line` with each include tag outside inline code replaced by what `resolve` answers (undefined: nothing). */
const expandInline = (line: string, resolve: (ref: string) => string | undefined): string => {
  let out = ""
  let at = 0
  for (const tag of Syntax.scanTags(line)) {
    const ref = includeRef(tag)
    if (ref === undefined || !outsideCode(line, tag.start)) continue
    out += line.slice(at, tag.start) + (resolve(ref) ?? "").trim()
    at = tag.end
  }
  return out + line.slice(at)
}

/** The include references of `markdown` outside code, in order. */
export const includeRefs = (markdown: string): ReadonlyArray<string> => {
  const refs: Array<string> = []
  expandWith(markdown, (ref) => {
    refs.push(ref)
    return undefined
  })
  return refs
}

/**
 * `markdown` with each include tag outside code replaced by what `resolve` answers for its
 * reference (undefined: nothing). A tag alone on its line becomes a block of its own, indented as
 * the tag was, so it stays inside the list item or block that held it.
 */
export const expandWith = (markdown: string, resolve: (ref: string) => string | undefined): string => {
  if (!markdown.includes("include")) return markdown
  let open: string | undefined
  const lines = markdown.split("\n")
  const out: Array<string> = []
  for (const line of lines) {
    const marker = fence.exec(line)?.[1]
    if (open !== undefined) {
      if (marker !== undefined && marker[0] === open[0] && marker.length >= open.length) open = undefined
      out.push(line)
      continue
    }
    if (marker !== undefined) {
      open = marker
      out.push(line)
      continue
    }
    const alone = includeAlone(line)
    if (alone !== undefined) {
      const body = resolve(alone.ref)
      if (body === undefined || body.trim() === "") continue
      const indent = alone.indent
      out.push("", ...body.trim().split("\n").map((text) => (text === "" ? "" : `${indent}${text}`)), "")
      continue
    }
    out.push(line.includes("{%") ? expandInline(line, resolve) : line)
  }
  return out.join("\n")
}
