/**
 * GitBook's `{% include "…/.gitbook/includes/<name>.md" %}` (or `"/reusable-content/<id>"`): the
 * reusable content's markdown in place of the tag, before a page is rendered or indexed, nested
 * includes too. An include that names nothing the space holds leaves nothing behind, never the raw tag.
 */
import { Effect } from "effect"
import type { ReusableContentNode } from "../domain/Revision.ts"

const includeTag = /\{%-?\s*include\s+(?:"([^"]*)"|'([^']*)')\s*-?%\}/g
const fence = /^\s*(`{3,}|~{3,})/
/** How deep includes may nest (a reusable content including another). */
const maxDepth = 3

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
  const byId = /^\/?reusable-content\/([^/]+)\/?$/.exec(target)
  if (byId !== null) return nodes.find((node) => node.id === byId[1])
  const folder = pageFile === undefined || !pageFile.includes("/") ? "" : pageFile.slice(0, pageFile.lastIndexOf("/"))
  const path = resolvePath(folder, target)
  const exact = nodes.find((node) => node.git?.path === path)
  if (exact !== undefined) return exact
  const name = fileName(target)
  return nodes.find((node) => node.git !== undefined && fileName(node.git.path) === name)
}

/** Where a line's text outside inline code spans lies: false inside a span (an odd number of backticks before). */
const outsideCode = (line: string, index: number): boolean => (line.slice(0, index).match(/`/g)?.length ?? 0) % 2 === 0

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
    const alone = /^(\s*)\{%-?\s*include\s+(?:"[^"]*"|'[^']*')\s*-?%\}\s*$/.exec(line)
    if (alone !== null) {
      const match = new RegExp(includeTag.source).exec(line)
      const body = match === null ? undefined : resolve(match[1] ?? match[2] ?? "")
      if (body === undefined || body.trim() === "") continue
      const indent = alone[1] ?? ""
      out.push("", ...body.trim().split("\n").map((text) => (text === "" ? "" : `${indent}${text}`)), "")
      continue
    }
    out.push(line.replace(includeTag, (tag, double: string | undefined, single: string | undefined, index: number) =>
      outsideCode(line, index) ? (resolve(double ?? single ?? "") ?? "").trim() : tag
    ))
  }
  return out.join("\n")
}

/**
 * A page's markdown with its includes expanded from the revision's reusable contents `nodes`
 * (their markdown read through `documents`), nested ones to a few levels; a reusable content
 * never includes itself, however deep. Published pages, the search index, the page's JSON
 * document and its PDF all read a page through this.
 */
export const withIncludes = (
  markdown: string,
  nodes: ReadonlyArray<ReusableContentNode> | undefined,
  pageFile: string | undefined,
  documents: (hashes: ReadonlyArray<string>) => Effect.Effect<ReadonlyMap<string, string>>
): Effect.Effect<string> =>
  Effect.gen(function*() {
    if (nodes === undefined || nodes.length === 0 || !markdown.includes("include")) return markdown
    const bodies = new Map<string, string>()
    // Read the bodies level by level: each level's includes name the next level's, relative to
    // the file that includes them (the page's, then each reusable content's own).
    let pending: ReadonlyArray<{ readonly text: string; readonly file: string | undefined }> = [{ text: markdown, file: pageFile }]
    for (let depth = 0; depth < maxDepth && pending.length > 0; depth++) {
      const wanted = new Map<string, ReusableContentNode>()
      for (const { text, file } of pending) {
        for (const ref of includeRefs(text)) {
          const node = findReusableContent(ref, file, nodes)
          if (node?.document !== undefined && !bodies.has(node.document)) wanted.set(node.document, node)
        }
      }
      const read = yield* documents([...wanted.keys()])
      for (const [hash, body] of read) bodies.set(hash, body)
      pending = [...read].map(([hash, text]) => ({ text, file: wanted.get(hash)?.git?.path }))
    }
    const expand = (text: string, file: string | undefined, seen: ReadonlySet<string>): string =>
      expandWith(text, (ref) => {
        const node = findReusableContent(ref, file, nodes)
        if (node === undefined || node.document === undefined || seen.has(node.id) || seen.size >= maxDepth) return undefined
        const body = bodies.get(node.document)
        return body === undefined ? undefined : expand(body, node.git?.path, new Set([...seen, node.id]))
      })
    return expand(markdown, pageFile, new Set())
  })
