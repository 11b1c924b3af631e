/**
 * What an export writes, beyond the layout's rules: the revision's tree with its pages' ids and its
 * references to files in GitBook's form; and, for a repository that does not hold the project yet,
 * the files of the space's last import to start from, so that the pages, the summary, the config and
 * the assets come back at the paths and with the bytes they were imported with.
 */
import { Data, Effect, Option, Result } from "effect"
import type { FileNode, PageNode, Revision } from "@quire/content"
import { exportContent } from "../ContentMapping.ts"
import type { GitBlob } from "../GitTransport.ts"
import type { ImportedLayout, LayoutFile } from "../ImportedLayoutRepo.ts"
import { layoutPaths } from "../layout/ConfigFile.ts"
import {
  type AssetToWrite,
  type ContentToWrite,
  defaultConfig,
  readRepository,
  type RepoPage,
  type RepositoryConfig,
  type RepositoryContent,
  type RepositoryFiles,
  writeRepository
} from "../layout/Layout.ts"
import type { IdentifiedPage } from "../layout/PageLinks.ts"
import { assetRefPrefix, insideOf, joinPath, normalizePath } from "../layout/Paths.ts"

/** Why an export cannot be written. */
export class ExportStopped extends Data.TaggedError("ExportStopped")<{ readonly reason: string }> {}

const fileLinkTarget = /(\]\(\s*)(<?)\/files\/([A-Za-z0-9_-]+)/g
const fileRef = /(^|[\s(<"'=[])\/files\/([A-Za-z0-9_-]+)/g

/**
 * `markdown` with its references to the space's files (`/files/<id>`, as Quire writes them) in the
 * neutral form of the assets folder with the file's name as it is, which the layout writes relative
 * (`../.gitbook/assets/image (1).png`); a link destination with spaces goes in `<>`, as GitBook writes it.
 */
export const fileRefsAsAssets = (markdown: string, names: ReadonlyMap<string, string>): string => {
  if (!markdown.includes("/files/")) return markdown
  return markdown
    .replace(fileLinkTarget, (match, lead: string, open: string, id: string) => {
      const name = names.get(id)
      if (name === undefined) return match
      const ref = `${assetRefPrefix}${name}`
      return open === "" && /[\s()<>]/.test(name) ? `${lead}<${ref}>` : `${lead}${open}${ref}`
    })
    .replace(fileRef, (match, lead: string, id: string) => {
      const name = names.get(id)
      return name === undefined ? match : `${lead}${assetRefPrefix}${name}`
    })
}

/** A revision as the layout's tree: each page with its id (links by id become paths) and its file references as assets. */
export const exportTree = (
  revision: Revision,
  documents: ReadonlyMap<string, string>,
  files: ReadonlyArray<AssetToWrite>,
  config: ContentToWrite["config"]
): ContentToWrite => {
  const content = exportContent(revision, documents, files, config)
  const names = new Map(revision.files.map((file) => [file.id, file.name]))
  // `exportContent` keeps the revision's order and nesting, page for page.
  const identified = (nodes: ReadonlyArray<PageNode>, pages: ReadonlyArray<RepoPage>): Array<IdentifiedPage> =>
    pages.map((page, i) => {
      const node = nodes[i]!
      // A link to a page goes where the page is written, which only the layout knows.
      const href = node.type === "link" && node.target?.kind === "page" ? { href: `/pages/${node.target.page}${node.target.anchor === undefined ? "" : `#${node.target.anchor}`}` } : {}
      return { ...page, ...href, id: node.id, markdown: fileRefsAsAssets(page.markdown, names), children: identified(node.pages, page.children) }
    })
  return { ...content, pages: identified(revision.pages, content.pages) }
}

const pagePaths = (pages: ReadonlyArray<RepoPage>): Array<string> =>
  pages.flatMap((page) => [...(page.path === undefined ? [] : [page.path]), ...pagePaths(page.children)])

/**
 * The files of GitBook's layout an import read, to keep: the page files, the summary, `.gitbook.yaml`,
 * and the files of the root's and the project's `.gitbook/` folders that are not assets (the space keeps those).
 */
export const layoutFilesOf = (files: ReadonlyMap<string, GitBlob>, tree: RepositoryContent, projectDirectory: string): Map<string, LayoutFile> => {
  const project = normalizePath(projectDirectory)
  const configPath = joinPath(project, ".gitbook.yaml")
  const paths = layoutPaths(project, configPath, tree.config)
  const kept = new Set([configPath, ...pagePaths(tree.pages)])
  const assets = new Set(tree.files.map((file) => file.path))
  // GitBook's folders: the root's, and the project's above it (reusable contents may live there).
  const gitbookFolders = [joinPath(project, ".gitbook")]
  if (Result.isSuccess(paths)) {
    kept.add(paths.success.summaryPath)
    gitbookFolders.push(joinPath(paths.success.docsRoot, ".gitbook"))
  }
  const out = new Map<string, LayoutFile>()
  for (const [path, file] of files) {
    const inGitbookFolder = gitbookFolders.some((folder) => insideOf(folder, path) !== undefined)
    if (kept.has(path) || (inGitbookFolder && !assets.has(path))) out.set(path, { oid: file.oid, bytes: file.bytes })
  }
  return out
}

/** What an export pushes: the changes to the branch's files (all of them for a repository without the project). */
export interface ExportInput {
  readonly revision: Revision
  readonly documents: ReadonlyMap<string, string>
  /** The branch's files in the project directory (none for a new branch or a repository without the project). */
  readonly previous: ReadonlyMap<string, GitBlob>
  readonly projectDirectory: string
  /** The space's last import (read only for a repository without the project). */
  readonly layout: Effect.Effect<Option.Option<ImportedLayout>>
  readonly bytesOf: (file: FileNode) => Effect.Effect<Option.Option<Uint8Array>>
  /** Changes of files beside the layout's (reusable contents), over the same starting files and config. */
  readonly besides?: ((files: RepositoryFiles, config: RepositoryConfig) => ReadonlyMap<string, Uint8Array | null>) | undefined
}

/**
 * The file changes of an export. Into a repository that holds the project, the layout keeps every
 * file whose meaning did not change. Into one that does not, the space's last import (read from the
 * same project directory) is the starting point: its files and the assets it brought are written
 * where they were, then the space's changes since on top, and every resulting file is pushed.
 */
export const exportChanges = (input: ExportInput): Effect.Effect<ReadonlyMap<string, Uint8Array | null>, ExportStopped> =>
  Effect.gen(function*() {
    const { revision, projectDirectory } = input
    const layout = input.previous.size === 0 ? Option.getOrUndefined(yield* input.layout) : undefined
    const fromImport = input.previous.size === 0 && layout !== undefined && layout.projectDirectory === normalizePath(projectDirectory)
    const base = new Map<string, GitBlob>(fromImport ? layout.files : input.previous)
    const bytesOf = (file: FileNode) =>
      Effect.flatMap(input.bytesOf(file), (bytes) =>
        Option.isNone(bytes) ? Effect.fail(new ExportStopped({ reason: `The bytes of file ${JSON.stringify(file.name)} are missing` })) : Effect.succeed(bytes.value))
    if (fromImport) {
      for (const file of revision.files) if (file.git !== undefined) base.set(file.git.path, { oid: file.git.oid, bytes: yield* bytesOf(file) })
    }
    // Files that came from Git and are still there as they were need no bytes.
    const assets: Array<AssetToWrite> = []
    for (const file of revision.files) {
      if (file.git !== undefined && base.get(file.git.path)?.oid === file.git.oid) {
        assets.push({ path: file.git.path, name: file.name, oid: file.git.oid })
        continue
      }
      assets.push({ ...(file.git === undefined ? {} : { path: file.git.path }), name: file.name, bytes: yield* bytesOf(file) })
    }
    const before = base.size === 0 ? undefined : readRepository(base, { projectDirectory })
    const config = before !== undefined && Result.isSuccess(before) ? before.success.config : defaultConfig
    const written = writeRepository(exportTree(revision, input.documents, assets, config), base, { projectDirectory })
    if (Result.isFailure(written)) return yield* new ExportStopped({ reason: `The branch cannot be written: ${written.failure.message}` })
    const changes = new Map([...written.success.changes, ...(input.besides?.(base, config) ?? [])])
    if (!fromImport) return changes
    const all = new Map<string, Uint8Array | null>()
    for (const [path, file] of base) if (!changes.has(path)) all.set(path, file.bytes)
    for (const [path, bytes] of changes) if (bytes !== null) all.set(path, bytes)
    return all
  })
