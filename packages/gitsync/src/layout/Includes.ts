/**
 * GitBook's reusable contents in a repository: `.gitbook/includes/<name>.md` beside the assets
 * folder (the documentation root, or the project directory above it), each a `title:` frontmatter
 * and a body. Reading turns them into neutral includes; writing gives back the files whose title
 * or body changed, in the same style, and new ones at `<root>/.gitbook/includes/<slug>.md`.
 */
import { fenceFrontmatter, readFrontmatter, slugify, splitFrontmatter, yamlPair } from "@quire/markdown"
import { Result } from "effect"
import { layoutPaths } from "./ConfigFile.ts"
import type { RepositoryConfig, RepositoryFiles } from "./LayoutTypes.ts"
import { basename, insideOf, joinPath, normalizePath } from "./Paths.ts"

/** The folder of reusable contents, relative to the documentation root. */
export const includesFolder = ".gitbook/includes"

/** A reusable content of the repository. */
export interface RepoInclude {
  /** From the repository root. */
  readonly path: string
  readonly oid: string
  /** Frontmatter `title`, else the file name without `.md`. */
  readonly title: string
  /** What follows the frontmatter, as written. */
  readonly markdown: string
}

/** A reusable content to write: one read before keeps its `path`. */
export interface IncludeToWrite {
  readonly path?: string | undefined
  readonly title: string
  readonly markdown: string
}

const decoder = new TextDecoder()
const encoder = new TextEncoder()

/** The folders that hold reusable contents, the documentation root's first (where new ones go). */
export const includeFolders = (projectDirectory: string, config: RepositoryConfig): ReadonlyArray<string> => {
  const project = normalizePath(projectDirectory)
  const paths = layoutPaths(project, joinPath(project, ".gitbook.yaml"), config)
  const docsRoot = Result.isSuccess(paths) ? paths.success.docsRoot : project
  return [...new Set([joinPath(docsRoot, includesFolder), joinPath(project, includesFolder)])]
}

/** A file's title and body; the frontmatter it had, kept when the title stays. */
const parseInclude = (text: string, path: string): { readonly title: string; readonly markdown: string; readonly block: string } => {
  const split = splitFrontmatter(text)
  const read = split.yaml === undefined ? undefined : readFrontmatter(split.yaml)
  const title = read?.ok === true && typeof read.data.title === "string" && read.data.title.trim() !== ""
    ? read.data.title.trim()
    : basename(path).replace(/\.md$/i, "")
  return { title, markdown: split.body, block: split.block }
}

/** The reusable contents of `files` in `folders` (their `.md` files, not below a subfolder), ordered by path. */
export const readIncludes = (files: RepositoryFiles, folders: ReadonlyArray<string>): ReadonlyArray<RepoInclude> => {
  const found: Array<RepoInclude> = []
  for (const [path, file] of files) {
    const inside = folders.some((folder) => {
      const name = insideOf(folder, path)
      return name !== undefined && !name.includes("/") && /\.md$/i.test(name)
    })
    if (!inside) continue
    const { title, markdown } = parseInclude(decoder.decode(file.bytes), path)
    found.push({ path, oid: file.oid, title, markdown })
  }
  return found.toSorted((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
}

/** A reusable content's file: its frontmatter (the previous one when its title stays) and body. */
const renderInclude = (include: IncludeToWrite, previous: ReturnType<typeof parseInclude> | undefined): string => {
  const block = previous !== undefined && previous.title === include.title && previous.block !== ""
    ? previous.block
    : fenceFrontmatter(yamlPair("title", include.title))
  const body = include.markdown.startsWith("\n") || include.markdown === "" ? include.markdown : `\n${include.markdown}`
  return `${block}${body}`
}

/**
 * The files that make `previous` hold `includes`: those whose title and body did not change keep
 * their bytes (nothing to write), the others are rewritten; new ones get a file named after their
 * title in the first of `folders`. Files of reusable contents the space no longer has are kept:
 * nothing in Quire deletes one, so their absence means only that the space never read them.
 */
export const writeIncludes = (
  includes: ReadonlyArray<IncludeToWrite>,
  previous: RepositoryFiles,
  folders: ReadonlyArray<string>
): ReadonlyMap<string, Uint8Array> => {
  const changes = new Map<string, Uint8Array>()
  const taken = new Set(includes.flatMap((include) => (include.path === undefined ? [] : [include.path])))
  for (const include of includes) {
    let path = include.path
    if (path === undefined) {
      const base = slugify(include.title) || "reusable-content"
      path = joinPath(folders[0] ?? includesFolder, `${base}.md`)
      for (let n = 2; taken.has(path) || previous.has(path); n++) path = joinPath(folders[0] ?? includesFolder, `${base}-${n}.md`)
      taken.add(path)
    }
    const old = previous.get(path)
    const parsed = old === undefined ? undefined : parseInclude(decoder.decode(old.bytes), path)
    if (parsed !== undefined && parsed.title === include.title && parsed.markdown === include.markdown) continue
    changes.set(path, encoder.encode(renderInclude(include, parsed)))
  }
  return changes
}
