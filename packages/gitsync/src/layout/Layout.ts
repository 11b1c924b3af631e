/**
 * GitBook's repository layout, both ways, as pure functions: `readRepository` turns the files of a
 * commit into a neutral page tree, `writeRepository` turns a page tree into the file changes that
 * make a commit hold it, keeping the bytes of every file whose meaning did not change. The jobs of
 * each way live beside it: the config file, the tree plans, assets, page placement, links, summary.
 */
import { slugify, uniqueSlug } from "@quire/markdown"
import { Result } from "effect"
import { referencedFiles } from "./AssetReading.ts"
import { sameBytes, writeAssets } from "./AssetWriting.ts"
import { defaultConfig, layoutPaths, readConfig, writeConfig } from "./ConfigFile.ts"
import { LayoutProblem } from "./LayoutProblem.ts"
import type {
  ContentToWrite,
  LayoutOptions,
  ReadState,
  RepoAsset,
  RepoPage,
  RepositoryContent,
  RepositoryFiles,
  WrittenRepository
} from "./LayoutTypes.ts"
import { type PageFileParts, type PageMetadata, parsePageFile, renderPageFile } from "./PageFile.ts"
import { linkRebaser } from "./PageLinks.ts"
import { movedPageFile, type Placed, placePages } from "./PagePlacement.ts"
import {
  assetRefPrefix,
  assetsFolder,
  basename,
  decodedAssetRefs,
  dirname,
  fromNeutralAssetRefs,
  insideOf,
  isReadmeName,
  joinPath,
  normalizePath,
  toNeutralAssetRefs,
  validSlug
} from "./Paths.ts"
import { writeSummary } from "./SummaryWriting.ts"
import { inferPlans, type Plan, summaryPlans } from "./TreePlans.ts"

export { type AssetFile, assetRefPrefix, assetRefsToFileRefs, fileRefsToAssetRefs } from "./Paths.ts"
export { defaultConfig } from "./ConfigFile.ts"
export { LayoutProblem } from "./LayoutProblem.ts"
export type * from "./LayoutTypes.ts"

const decoder = new TextDecoder()
const encoder = new TextEncoder()

const readState = (files: RepositoryFiles, options: LayoutOptions): Result.Result<ReadState, LayoutProblem> => {
  const warnings: Array<string> = []
  const project = normalizePath(options.projectDirectory ?? "")
  const configPath = joinPath(project, ".gitbook.yaml")
  const read = readConfig(files, configPath, warnings)
  if (Result.isFailure(read)) return Result.fail(read.failure)
  const { config, yaml: configYaml } = read.success
  const paths = layoutPaths(project, configPath, config)
  if (Result.isFailure(paths)) return Result.fail(paths.failure)
  const { docsRoot, readmePath, summaryPath } = paths.success
  // A root (or a folder above it) that is a file is a symbolic link, maybe out of the repository.
  const segments = docsRoot === "" ? [] : docsRoot.split("/")
  const linked = segments.map((_, i) => segments.slice(0, i + 1).join("/")).find((path) => files.has(path))
  if (linked !== undefined) {
    return Result.fail(new LayoutProblem({ path: configPath, reason: `root ${JSON.stringify(config.root)} is not a folder (${linked} is a file or a symbolic link)` }))
  }
  const summaryFile = files.get(summaryPath)
  const listed = summaryFile === undefined ? undefined : summaryPlans(files, summaryFile, { docsRoot, readmePath, summaryPath }, warnings)
  const summary = listed?.summary
  const summaryLines = listed?.summaryLines ?? new Map<string, string>()
  const plans = listed?.plans ?? inferPlans(files, docsRoot, readmePath, summaryPath)

  const pageInfo = new Map<string, { parts: PageFileParts; parentKey: string; page: RepoPage }>()
  let problem: LayoutProblem | undefined
  const materialize = (list: ReadonlyArray<Plan>, parentKey: string): Array<RepoPage> => {
    const taken = new Set<string>()
    const out: Array<RepoPage> = []
    for (const plan of list) {
      if (problem !== undefined) break
      if (plan.kind !== "document" || plan.path === undefined) {
        // A group keeps the slug its SUMMARY heading's anchor gives it, so its pages keep GitBook's URLs.
        const slug = uniqueSlug(plan.slug !== undefined && validSlug.test(plan.slug) ? plan.slug : slugify(plan.title), taken)
        taken.add(slug)
        out.push({
          kind: plan.kind,
          title: plan.title,
          ...(plan.linkTitle === undefined ? {} : { linkTitle: plan.linkTitle }),
          slug,
          markdown: "",
          ...(plan.href === undefined ? {} : { href: plan.href }),
          children: materialize(plan.children, `group:${slug}`)
        })
        continue
      }
      const path = plan.path
      const file = files.get(path)!
      const pageWarnings: Array<string> = []
      const parsed = parsePageFile(decoder.decode(file.bytes), pageWarnings)
      if (!parsed.ok) {
        problem = new LayoutProblem({ path, reason: parsed.reason })
        break
      }
      for (const warning of pageWarnings) warnings.push(`${path}: ${warning}`)
      const parts = parsed.parts
      const title = parts.title ?? plan.title
      const name = basename(path)
      const fromName = isReadmeName(name) ? (path === readmePath || dirname(path) === docsRoot ? "" : basename(dirname(path))) : name.replace(/\.md$/i, "")
      const wanted = fromName === "" ? slugify(title) : validSlug.test(fromName) ? fromName : slugify(fromName)
      const slug = uniqueSlug(wanted, taken)
      taken.add(slug)
      const meta = parts.metadata
      const page: RepoPage = {
        kind: "document",
        title,
        ...(plan.linkTitle === undefined ? {} : { linkTitle: plan.linkTitle }),
        slug,
        path,
        oid: file.oid,
        markdown: toNeutralAssetRefs(parts.body, path, docsRoot),
        ...(meta.description === undefined ? {} : { description: meta.description }),
        ...(meta.icon === undefined ? {} : { icon: meta.icon }),
        ...(meta.emoji === undefined ? {} : { emoji: meta.emoji }),
        ...(meta.cover === undefined ? {} : { cover: toNeutralAssetRefs(meta.cover, path, docsRoot) }),
        ...(meta.coverY === undefined ? {} : { coverY: meta.coverY }),
        ...(meta.coverHeight === undefined ? {} : { coverHeight: meta.coverHeight }),
        ...(meta.hidden === undefined ? {} : { hidden: meta.hidden }),
        ...(meta.layout === undefined ? {} : { layout: meta.layout }),
        ...(Object.keys(parts.extra).length === 0 ? {} : { frontmatter: parts.extra }),
        children: materialize(plan.children, `page:${path}`)
      }
      pageInfo.set(path, { parts, parentKey, page })
      out.push(page)
    }
    return out
  }
  const pages = materialize(plans, "root")
  if (problem !== undefined) return Result.fail(problem)

  const assets = new Map<string, RepoAsset>()
  const assetsDir = joinPath(docsRoot, assetsFolder)
  for (const [path, file] of files) {
    const name = insideOf(assetsDir, path)
    if (name === undefined) continue
    assets.set(path, { path, name, ref: `${assetRefPrefix}${name}`, oid: file.oid, bytes: file.bytes })
  }
  // Files the pages show from elsewhere (`img/` beside them) are assets too, at their own paths.
  const pageFiles = [...pageInfo].map(([path, info]) => ({ path, body: info.parts.body, cover: info.parts.metadata.cover }))
  for (const path of referencedFiles(pageFiles, files)) {
    const file = files.get(path)!
    assets.set(path, { path, name: basename(path), ref: `/${insideOf(docsRoot, path) ?? path}`, oid: file.oid, bytes: file.bytes })
  }
  return Result.succeed({
    content: { config, pages, files: [...assets.values()], warnings },
    configPath,
    configYaml,
    docsRoot,
    readmePath,
    summary,
    summaryLines,
    pageInfo,
    assets
  })
}

/**
 * The content of a repository in GitBook's layout: `.gitbook.yaml`, `SUMMARY.md` (else the tree
 * inferred from folders), the pages' frontmatter, titles and bodies, the assets. Fails only on
 * what cannot be read (malformed YAML), naming the file; what is skipped is in `warnings`.
 */
export const readRepository = (files: RepositoryFiles, options: LayoutOptions = {}): Result.Result<RepositoryContent, LayoutProblem> =>
  Result.map(readState(files, options), (state) => state.content)

/** Sets in `next` the file of each document of `tree`, in the style of its previous file when it had one. */
const writePageFiles = (
  tree: ReadonlyArray<Placed>,
  state: ReadState | undefined,
  docsRoot: string,
  renameRefs: (text: string) => string,
  rebase: (body: string, from: string, to: string) => string,
  next: Map<string, string | Uint8Array>
) => {
  const assetNames = [...(state?.assets.values() ?? [])].map((asset) => asset.name)
  const movedFile = movedPageFile(tree, state)
  const render = (list: ReadonlyArray<Placed>) => {
    for (const placed of list) {
      const { page } = placed
      if (page.kind === "document" && placed.path !== undefined) {
        const path = placed.path
        const own = page.path === undefined ? undefined : state?.pageInfo.get(page.path)
        // A page an earlier export moved follows the style of the file it was written to.
        const info = own ?? movedFile(placed)
        const previousParts = info === undefined ? undefined : { ...info.parts, title: info.page.title }
        const neutral = renameRefs(page.markdown)
        const unchangedBody = own !== undefined &&
          (own.page.markdown === neutral || decodedAssetRefs(own.page.markdown, assetNames) === decodedAssetRefs(neutral, assetNames))
        // The body's relative links are written from the file it was read from.
        const body = rebase(
          unchangedBody && dirname(own.page.path!) === dirname(path) ? own.parts.body : fromNeutralAssetRefs(neutral, path, docsRoot),
          dirname(page.path ?? path),
          dirname(path)
        )
        const metadata: PageMetadata = {
          description: page.description,
          icon: page.icon,
          emoji: page.emoji,
          cover: page.cover === undefined
            ? undefined
            : info !== undefined && info.page.cover !== undefined && dirname(info.page.path!) === dirname(path) &&
                decodedAssetRefs(info.page.cover, assetNames) === decodedAssetRefs(page.cover, assetNames)
            ? info.parts.metadata.cover
            : fromNeutralAssetRefs(renameRefs(page.cover), path, docsRoot),
          coverY: page.coverY,
          coverHeight: page.coverHeight,
          hidden: page.hidden,
          layout: page.layout
        }
        next.set(path, renderPageFile({ title: page.title, metadata, extra: page.frontmatter, body }, previousParts))
      }
      render(placed.children)
    }
  }
  render(tree)
}

/** What differs from the previous bytes: the files to write and delete, by kind of change. */
const changesOf = (next: ReadonlyMap<string, string | Uint8Array>, deletions: ReadonlySet<string>, previous: RepositoryFiles) => {
  const changes = new Map<string, Uint8Array | null>()
  const added: Array<string> = []
  const modified: Array<string> = []
  const deleted: Array<string> = []
  for (const [path, value] of next) {
    const bytes = typeof value === "string" ? encoder.encode(value) : value
    const old = previous.get(path)
    if (old !== undefined && sameBytes(old.bytes, bytes)) continue
    changes.set(path, bytes)
    ;(old === undefined ? added : modified).push(path)
  }
  for (const path of deletions) {
    if (next.has(path) || !previous.has(path)) continue
    changes.set(path, null)
    deleted.push(path)
  }
  return { changes, summary: { added, modified, deleted } }
}

/**
 * The changes that make a repository whose files are `previous` hold `content`: pages whose
 * meaning did not change keep their bytes (and so do `SUMMARY.md` and `.gitbook.yaml`); a changed
 * page is rewritten in its file's style; new pages get GitBook's paths (`slug.md`, `slug/README.md`
 * with children), moved or renamed ones move their file, deleted ones and deleted assets go.
 */
export const writeRepository = (
  content: ContentToWrite,
  previous: RepositoryFiles,
  options: LayoutOptions = {}
): Result.Result<WrittenRepository, LayoutProblem> => {
  let state: ReadState | undefined
  if (previous.size > 0) {
    const read = readState(previous, options)
    if (Result.isFailure(read)) return Result.fail(read.failure)
    state = read.success
  }
  const warnings: Array<string> = []
  const project = normalizePath(options.projectDirectory ?? "")
  const config = content.config
  const configPath = joinPath(project, ".gitbook.yaml")
  const paths = layoutPaths(project, configPath, config)
  if (Result.isFailure(paths)) return Result.fail(paths.failure)
  const { docsRoot, readmePath, summaryPath } = paths.success
  const next = new Map<string, string | Uint8Array>()

  const before = state?.content.config ?? defaultConfig
  const configYaml = writeConfig(config, before, state?.configYaml)
  if (configYaml !== undefined) next.set(configPath, configYaml)

  // Assets first: a new one whose name is taken gets another, and the pages' references follow.
  const taken = (path: string) => next.has(path) || (previous.has(path) && !state?.pageInfo.has(path) && !state?.assets.has(path))
  const assets = writeAssets(content.files, state, joinPath(docsRoot, assetsFolder), next, taken, warnings)
  const deletions = new Set<string>(assets.deleted)

  const { tree, used } = placePages(content.pages, state, { docsRoot, readmePath }, (path) => !taken(path) && !assets.keptAssets.has(path))
  const rebase = linkRebaser(tree, state, previous, used)
  writePageFiles(tree, state, docsRoot, assets.renameRefs, rebase, next)
  for (const path of state?.pageInfo.keys() ?? []) if (!used.has(path)) deletions.add(path)

  const summary = writeSummary(tree, state, summaryPath, before.summary)
  if (summary !== undefined) next.set(summaryPath, summary)

  return Result.succeed({ ...changesOf(next, deletions, previous), renamedAssets: assets.renamedAssets, warnings })
}
