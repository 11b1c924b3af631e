/**
 * The files pages refer to outside the assets folder (`img/` beside a page, `mining/images/`, a
 * spec for an OpenAPI block): found from each page's links, images and GitBook blocks, resolved
 * from the page's file, so that an import stores every file a page shows wherever it lives.
 */
import * as Syntax from "@quire/document/syntax"
import { htmlLinks } from "@quire/content"
import { links } from "@quire/markdown"
import type { RepositoryFiles } from "./LayoutTypes.ts"
import { basename, dirname, joinPath } from "./Paths.ts"

const scheme = /^[a-z][a-z0-9+.-]*:/i

const decodePath = (path: string): string => {
  try {
    return decodeURI(path)
  } catch {
    return path
  }
}

/** The repository path a destination written in the file at `pagePath` names, or `undefined` (a URL, an anchor, a rooted path). */
export const relativeTarget = (destination: string, pagePath: string): string | undefined => {
  let url = destination.trim()
  if (url.startsWith("<") && url.endsWith(">")) url = url.slice(1, -1).trim()
  if (url === "" || url.startsWith("#") || url.startsWith("/") || scheme.test(url)) return undefined
  const path = url.replace(/[?#].*$/, "")
  return path === "" ? undefined : joinPath(dirname(pagePath), decodePath(path))
}

/** Whether a file can be a page's asset: not markdown, not in a dot folder (`.gitbook/assets` is read whole). */
const isCandidate = (path: string): boolean => !/\.md$/i.test(path) && !path.split("/").some((segment) => segment.startsWith("."))

/**
 * The files of `files` that `pages` (their file path, body and cover as written) refer to by
 * relative path and that are not pages: in the repository's order, each once.
 */
export const referencedFiles = (
  pages: ReadonlyArray<{ readonly path: string; readonly body: string; readonly cover?: string | undefined }>,
  files: RepositoryFiles
): Array<string> => {
  const candidates = [...files.keys()].filter(isCandidate)
  if (candidates.length === 0) return []
  // A page is read only when it names one of the candidates' files (most pages name none).
  const names = [...new Set(candidates.map(basename))].flatMap((name) => [...new Set([name, encodeURI(name)])])
  const found = new Set<string>()
  const add = (destination: string, pagePath: string) => {
    const target = relativeTarget(destination, pagePath)
    if (target !== undefined && files.has(target) && isCandidate(target)) found.add(target)
  }
  for (const page of pages) {
    if (page.cover !== undefined) add(page.cover, page.path)
    if (!names.some((name) => page.body.includes(name))) continue
    for (const link of links(page.body, htmlLinks)) add(link.url, page.path)
    // A GitBook block's file argument: `{% file src="x.pdf" %}`, `{% openapi src="spec.yaml" %}`, `{% embed url="..." %}`.
    for (const tag of Syntax.scanTags(page.body)) {
      for (const param of tag.params ?? []) if ((param.key === "src" || param.key === "url") && param.value !== "") add(param.value, page.path)
    }
  }
  return candidates.filter((path) => found.has(path))
}
