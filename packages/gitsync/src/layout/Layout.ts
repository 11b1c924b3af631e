/**
 * GitBook's repository layout, both ways, as pure functions: `readRepository` turns the files of a
 * commit into a neutral page tree, `writeRepository` turns a page tree into the file changes that
 * make a commit hold it, keeping the bytes of every file whose meaning did not change.
 */
import type { PageLayout } from "@quire/content/domain/Revision"
import { slugify, uniqueSlug } from "@quire/markdown"
import { Result, Schema } from "effect"
import { Document, isMap, parseDocument } from "yaml"
import { type PageFileParts, type PageMetadata, parsePageFile, renderPageFile } from "./PageFile.ts"
import {
  assetRefPrefix,
  assetsFolder,
  decodedAssetRefs,
  basename,
  dirname,
  fromNeutralAssetRefs,
  insideOf,
  joinPath,
  normalizePath,
  relativePath,
  toNeutralAssetRefs
} from "./Paths.ts"
import { type ParsedSummary, parseSummary, renderSummary, type SummaryEntry, type SummaryNode } from "./Summary.ts"

export { type AssetFile, assetRefPrefix, assetRefsToFileRefs, fileRefsToAssetRefs } from "./Paths.ts"

/** A file of a commit: its blob id and bytes. */
export interface RepositoryFile {
  readonly oid: string
  readonly bytes: Uint8Array
}

/** The files of a commit by path, relative to the repository root (`docs/README.md`). */
export type RepositoryFiles = ReadonlyMap<string, RepositoryFile>

export interface LayoutOptions {
  /** The project root inside the repository (a monorepo's folder); `.gitbook.yaml` lives there. */
  readonly projectDirectory?: string | undefined
}

/** `.gitbook.yaml`: paths as written there. */
export interface RepositoryConfig {
  /** The documentation root, relative to the project directory (`./`, `./docs/`). */
  readonly root: string
  /** The first page, relative to `root`. */
  readonly readme: string
  /** The table of contents, relative to `root`. */
  readonly summary: string
  /** Old paths (without leading `/`) to the files that replace them, relative to `root`. */
  readonly redirects: Readonly<Record<string, string>>
}

export const defaultConfig: RepositoryConfig = { root: "./", readme: "README.md", summary: "SUMMARY.md", redirects: {} }

/** A page of the neutral tree. */
export interface RepoPage {
  readonly kind: "document" | "group" | "link"
  readonly title: string
  /** Unique among siblings. */
  readonly slug: string
  /** Documents: the markdown file, from the repository root; absent for pages not yet in Git. */
  readonly path?: string | undefined
  readonly oid?: string | undefined
  /**
   * Documents: the body (no frontmatter, no title heading), as written but for references to the
   * assets folder, which are in neutral form (`/.gitbook/assets/<name>`, see `assetRefPrefix`).
   */
  readonly markdown: string
  readonly description?: string | undefined
  readonly icon?: string | undefined
  readonly emoji?: string | undefined
  /** A URL, or an asset in neutral form. */
  readonly cover?: string | undefined
  readonly coverY?: number | undefined
  readonly hidden?: boolean | undefined
  readonly layout?: PageLayout | undefined
  /** Links: the URL. */
  readonly href?: string | undefined
  readonly children: ReadonlyArray<RepoPage>
}

/** A file of `.gitbook/assets/`. */
export interface RepoAsset {
  /** From the repository root. */
  readonly path: string
  /** The file name inside the assets folder (`image (1).png`). */
  readonly name: string
  /** How page bodies refer to it: `/.gitbook/assets/<name>`. */
  readonly ref: string
  readonly oid: string
  readonly bytes: Uint8Array
}

/** What a repository holds in GitBook's layout. */
export interface RepositoryContent {
  readonly config: RepositoryConfig
  readonly pages: ReadonlyArray<RepoPage>
  readonly files: ReadonlyArray<RepoAsset>
  /** What was skipped or ignored, one sentence each, naming the file. */
  readonly warnings: ReadonlyArray<string>
}

/** An asset to write: one read before (`path`), or a new one (`name`, `bytes`). */
export interface AssetToWrite {
  readonly path?: string | undefined
  readonly name: string
  readonly oid?: string | undefined
  /** Needed for new files and changed ones; an unchanged file may leave it out. */
  readonly bytes?: Uint8Array | undefined
}

/** What `writeRepository` writes: a `RepositoryContent` fits. */
export interface ContentToWrite {
  readonly config: RepositoryConfig
  readonly pages: ReadonlyArray<RepoPage>
  readonly files: ReadonlyArray<AssetToWrite>
}

export interface WrittenRepository {
  /** The files to write, `null` to delete; files not named stay as they are. */
  readonly changes: ReadonlyMap<string, Uint8Array | null>
  readonly summary: {
    readonly added: ReadonlyArray<string>
    readonly modified: ReadonlyArray<string>
    readonly deleted: ReadonlyArray<string>
  }
  /** Assets written under another name than asked (a name already taken): asked → written. */
  readonly renamedAssets: ReadonlyMap<string, string>
  readonly warnings: ReadonlyArray<string>
}

/** A repository that cannot be read in GitBook's layout: the file and why. */
export class LayoutProblem extends Schema.TaggedError<LayoutProblem>()("LayoutProblem", {
  path: Schema.String,
  reason: Schema.String
}) {
  override get message(): string {
    return `${this.path}: ${this.reason}`
  }
}

const decoder = new TextDecoder()
const encoder = new TextEncoder()

const sameBytes = (a: Uint8Array, b: Uint8Array): boolean => {
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false
  return true
}

const validSlug = /^[a-z0-9][a-z0-9_-]{0,99}$/i
const isUrl = (target: string): boolean => /^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith("//")
const isReadmeName = (name: string): boolean => name.toLowerCase() === "readme.md"

/** Everything a read learns, which a write needs to follow the previous files. */
interface ReadState {
  readonly content: RepositoryContent
  readonly configPath: string
  readonly configYaml: string | undefined
  readonly docsRoot: string
  readonly readmePath: string
  readonly summary: ParsedSummary | undefined
  /** Summary lines by the file (or URL) they point to, and group headings by `group:<title>`. */
  readonly summaryLines: ReadonlyMap<string, string>
  readonly pageInfo: ReadonlyMap<string, { readonly parts: PageFileParts; readonly parentKey: string; readonly page: RepoPage }>
  readonly assets: ReadonlyMap<string, RepoAsset>
}

interface Plan {
  readonly kind: RepoPage["kind"]
  readonly title: string
  readonly path?: string
  readonly href?: string
  readonly children: ReadonlyArray<Plan>
}

const readConfig = (
  files: RepositoryFiles,
  configPath: string,
  warnings: Array<string>
): Result.Result<{ config: RepositoryConfig; yaml: string | undefined }, LayoutProblem> => {
  const file = files.get(configPath)
  if (file === undefined) return Result.succeed({ config: defaultConfig, yaml: undefined })
  const yaml = decoder.decode(file.bytes)
  const doc = parseDocument(yaml)
  if (doc.errors.length > 0) {
    const error = doc.errors[0]!
    const line = error.linePos?.[0].line
    return Result.fail(new LayoutProblem({ path: configPath, reason: `not valid YAML${line === undefined ? "" : ` (line ${line})`}: ${error.message.split("\n")[0]}` }))
  }
  let data: unknown
  try {
    data = doc.toJS()
  } catch (error) {
    return Result.fail(new LayoutProblem({ path: configPath, reason: `cannot be read: ${error instanceof Error ? error.message : String(error)}` }))
  }
  if (data === null || data === undefined) return Result.succeed({ config: defaultConfig, yaml })
  if (typeof data !== "object" || Array.isArray(data)) {
    return Result.fail(new LayoutProblem({ path: configPath, reason: "not a mapping of options" }))
  }
  const record = data as Record<string, unknown>
  const text = (value: unknown, name: string, fallback: string): string | LayoutProblem =>
    value === undefined || value === null
      ? fallback
      : typeof value === "string" && value.trim() !== ""
      ? value
      : new LayoutProblem({ path: configPath, reason: `${name} must be a path` })
  const root = text(record["root"], "root", defaultConfig.root)
  if (typeof root !== "string") return Result.fail(root)
  const structure = record["structure"]
  if (structure !== undefined && structure !== null && (typeof structure !== "object" || Array.isArray(structure))) {
    return Result.fail(new LayoutProblem({ path: configPath, reason: "structure must be a mapping (readme, summary)" }))
  }
  const readme = text((structure as Record<string, unknown> | null | undefined)?.["readme"], "structure.readme", defaultConfig.readme)
  if (typeof readme !== "string") return Result.fail(readme)
  const summary = text((structure as Record<string, unknown> | null | undefined)?.["summary"], "structure.summary", defaultConfig.summary)
  if (typeof summary !== "string") return Result.fail(summary)
  const redirects: Record<string, string> = {}
  const source = record["redirects"]
  if (typeof source === "object" && source !== null && !Array.isArray(source)) {
    for (const [from, to] of Object.entries(source)) {
      if (typeof to === "string") redirects[from] = to
      else warnings.push(`${configPath}: redirect ${JSON.stringify(from)} has no target path; ignored`)
    }
  } else if (source !== undefined && source !== null) {
    warnings.push(`${configPath}: redirects is not a mapping; ignored`)
  }
  return Result.succeed({ config: { root, readme, summary, redirects }, yaml })
}

/** Files and folders by name (a file's without `.md`), by code point. */
const byName = (a: string, b: string) => {
  const x = basename(a).replace(/\.md$/i, "")
  const y = basename(b).replace(/\.md$/i, "")
  return x < y ? -1 : x > y ? 1 : 0
}

/** The page tree without a `SUMMARY.md`: folders, `README.md` first, then files and folders by name. */
const inferPlans = (files: RepositoryFiles, docsRoot: string, readmePath: string, summaryPath: string): Array<Plan> => {
  const folders = new Map<string, { files: Array<string>; folders: Set<string> }>()
  const folder = (path: string) => {
    let entry = folders.get(path)
    if (entry === undefined) {
      entry = { files: [], folders: new Set() }
      folders.set(path, entry)
    }
    return entry
  }
  for (const path of files.keys()) {
    const inner = insideOf(docsRoot, path)
    if (inner === undefined || !inner.toLowerCase().endsWith(".md") || path === summaryPath) continue
    if (inner.split("/").some((segment) => segment.startsWith("."))) continue
    folder(dirname(path)).files.push(path)
    let dir = dirname(path)
    while (dir !== docsRoot && dir !== "") {
      folder(dirname(dir)).folders.add(dir)
      dir = dirname(dir)
    }
  }
  const plans = (dir: string, top: boolean): Array<Plan> => {
    const entry = folders.get(dir)
    if (entry === undefined) return []
    const names = [...entry.files.filter((f) => !isReadmeName(basename(f)) && f !== readmePath), ...entry.folders].toSorted(byName)
    return names.flatMap((path): Array<Plan> => {
      if (!entry.folders.has(path)) return [{ kind: "document", title: basename(path).replace(/\.md$/i, ""), path, children: [] }]
      const readme = folders.get(path)?.files.find((f) => isReadmeName(basename(f)))
      const children = plans(path, false)
      if (readme !== undefined && readme !== readmePath) return [{ kind: "document", title: basename(path), path: readme, children }]
      if (top) return [{ kind: "group", title: basename(path), children }]
      return children
    })
  }
  const out = plans(docsRoot, true)
  return files.has(readmePath) ? [{ kind: "document", title: basename(dirname(readmePath)) || "Introduction", path: readmePath, children: [] }, ...out] : out
}

/** Whether `path`, read from a folder, is absolute or climbs above that folder (`../`, `a/../../b`). */
const leavesFolder = (path: string): boolean => {
  if (/^([\\/]|[a-zA-Z]:)/.test(path)) return true
  let depth = 0
  for (const segment of path.split(/[\\/]/)) {
    if (segment === "..") depth--
    else if (segment !== "" && segment !== ".") depth++
    if (depth < 0) return true
  }
  return false
}

/** The documentation root, readme and summary of `config`, which must stay inside the project. */
const layoutPaths = (
  project: string,
  configPath: string,
  config: RepositoryConfig
): Result.Result<{ docsRoot: string; readmePath: string; summaryPath: string }, LayoutProblem> => {
  // Checked as written: joining clamps `..` at the repository's root, which would read another folder.
  if (leavesFolder(config.root)) {
    const reason = project === "" ? "root leads outside the repository" : "root leads outside the project directory"
    return Result.fail(new LayoutProblem({ path: configPath, reason }))
  }
  const docsRoot = joinPath(project, config.root)
  const readmePath = joinPath(docsRoot, config.readme)
  const summaryPath = joinPath(docsRoot, config.summary)
  if (docsRoot !== project && insideOf(project, docsRoot) === undefined) {
    return Result.fail(new LayoutProblem({ path: configPath, reason: "root leads outside the project directory" }))
  }
  for (const [name, path] of [["structure.readme", readmePath], ["structure.summary", summaryPath]] as const) {
    if (path === docsRoot || insideOf(docsRoot, path) === undefined) {
      return Result.fail(new LayoutProblem({ path: configPath, reason: `${name} leads outside the documentation root` }))
    }
  }
  return Result.succeed({ docsRoot, readmePath, summaryPath })
}

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
  let summary: ParsedSummary | undefined
  const summaryLines = new Map<string, string>()
  let plans: Array<Plan>
  if (summaryFile !== undefined) {
    summary = parseSummary(decoder.decode(summaryFile.bytes))
    for (const warning of summary.warnings) warnings.push(warning.replace(/^SUMMARY\.md/, summaryPath))
    const summaryDir = dirname(summaryPath)
    const used = new Set<string>()
    const fromEntry = (entry: SummaryEntry): Array<Plan> => {
      const children = entry.children.flatMap(fromEntry)
      if (isUrl(entry.target)) {
        summaryLines.set(entry.target, entry.line)
        return [{ kind: "link", title: entry.title, href: entry.target, children: [] }, ...children]
      }
      const target = joinPath(summaryDir, entry.target.replace(/[#?].*$/, ""))
      const where = `${summaryPath} line ${entry.lineNumber}`
      if (entry.target.replace(/[#?].*$/, "") === "") {
        warnings.push(`${where}: ${JSON.stringify(entry.title)} links to no file; skipped`)
        return children
      }
      if (insideOf(docsRoot, target) === undefined) {
        warnings.push(`${where}: ${entry.target} is outside the documentation root; skipped`)
        return children
      }
      if (!files.has(target)) {
        warnings.push(`${where}: ${target} does not exist; skipped`)
        return children
      }
      if (used.has(target)) {
        warnings.push(`${where}: ${target} is listed twice; the second one is skipped`)
        return children
      }
      used.add(target)
      summaryLines.set(target, entry.line)
      return [{ kind: "document", title: entry.title, path: target, children }]
    }
    plans = summary.nodes.flatMap((node): Array<Plan> => {
      if (node.kind !== "group") return fromEntry(node)
      summaryLines.set(`group:${node.title}`, node.line)
      return [{ kind: "group", title: node.title, children: node.children.flatMap(fromEntry) }]
    })
    if (!used.has(readmePath) && files.has(readmePath)) {
      plans.unshift({ kind: "document", title: "Introduction", path: readmePath, children: [] })
    }
  } else {
    plans = inferPlans(files, docsRoot, readmePath, summaryPath)
  }

  const pageInfo = new Map<string, { parts: PageFileParts; parentKey: string; page: RepoPage }>()
  let problem: LayoutProblem | undefined
  const materialize = (list: ReadonlyArray<Plan>, parentKey: string): Array<RepoPage> => {
    const taken = new Set<string>()
    const out: Array<RepoPage> = []
    for (const plan of list) {
      if (problem !== undefined) break
      if (plan.kind !== "document" || plan.path === undefined) {
        const slug = uniqueSlug(slugify(plan.title), taken)
        taken.add(slug)
        out.push({
          kind: plan.kind,
          title: plan.title,
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
        slug,
        path,
        oid: file.oid,
        markdown: toNeutralAssetRefs(parts.body, path, docsRoot),
        ...(meta.description === undefined ? {} : { description: meta.description }),
        ...(meta.icon === undefined ? {} : { icon: meta.icon }),
        ...(meta.emoji === undefined ? {} : { emoji: meta.emoji }),
        ...(meta.cover === undefined ? {} : { cover: toNeutralAssetRefs(meta.cover, path, docsRoot) }),
        ...(meta.coverY === undefined ? {} : { coverY: meta.coverY }),
        ...(meta.hidden === undefined ? {} : { hidden: meta.hidden }),
        ...(meta.layout === undefined ? {} : { layout: meta.layout }),
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

const sortedEntries = (record: Readonly<Record<string, string>>) => Object.entries(record).toSorted(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))

const sameConfig = (a: RepositoryConfig, b: RepositoryConfig): boolean =>
  a.root === b.root && a.readme === b.readme && a.summary === b.summary &&
  JSON.stringify(sortedEntries(a.redirects)) === JSON.stringify(sortedEntries(b.redirects))

// A relative link to a markdown file: a link destination (`](x.md)`, `](<x y.md>)`) or a GitBook
// block's `url="x.md"`; URLs, absolute paths and anchors alone are left out.
const relativePageLink = /(\]\(|\burl=")(<?)((?![a-z][a-z0-9+.-]*:|\/|#)[^\s"<>)]*?(?: [^\s"<>)]+?)*\.md)(#[^\s")>]*)?(>?)/gi

interface Placed {
  readonly page: RepoPage
  readonly parent: Placed | undefined
  readonly children: Array<Placed>
  kept: boolean
  path: string | undefined
}

const withSuffix = (name: string, n: number): string => {
  const dot = name.lastIndexOf(".")
  return dot <= 0 ? `${name} (${n})` : `${name.slice(0, dot)} (${n})${name.slice(dot)}`
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
  const deletions = new Set<string>()

  // .gitbook.yaml
  const before = state?.content.config ?? defaultConfig
  if (!sameConfig(config, before)) {
    const doc = state?.configYaml !== undefined ? parseDocument(state.configYaml) : new Document({})
    if (!isMap(doc.contents)) doc.contents = doc.createNode({}) as typeof doc.contents
    if (config.root !== before.root || state?.configYaml === undefined) doc.set("root", config.root)
    if (config.readme !== before.readme || state?.configYaml === undefined) doc.setIn(["structure", "readme"], config.readme)
    if (config.summary !== before.summary || state?.configYaml === undefined) doc.setIn(["structure", "summary"], config.summary)
    for (const key of Object.keys(before.redirects)) if (!(key in config.redirects)) doc.deleteIn(["redirects", key])
    for (const [key, value] of Object.entries(config.redirects)) if (before.redirects[key] !== value) doc.setIn(["redirects", key], value)
    const redirects = doc.get("redirects")
    if (isMap(redirects) && redirects.items.length === 0) doc.delete("redirects")
    next.set(configPath, doc.toString({ lineWidth: 0 }))
  }

  // Assets first: a new one whose name is taken gets another, and the pages' references follow.
  const assetsDir = joinPath(docsRoot, assetsFolder)
  const keptAssets = new Set<string>()
  const renamedAssets = new Map<string, string>()
  const taken = (path: string) => next.has(path) || (previous.has(path) && !state?.pageInfo.has(path) && !state?.assets.has(path))
  for (const file of content.files) {
    const old = file.path === undefined ? undefined : state?.assets.get(file.path)
    if (old !== undefined && !keptAssets.has(old.path)) {
      keptAssets.add(old.path)
      if (file.bytes !== undefined && !sameBytes(file.bytes, old.bytes)) next.set(old.path, file.bytes)
      continue
    }
    if (file.bytes === undefined) {
      warnings.push(`file ${JSON.stringify(file.name)} has no bytes and is not in the repository; not written`)
      continue
    }
    // A name never leaves the assets folder.
    const asked = file.name.replace(/[/\\]/g, "-").replace(/^\.+$/, "") || "file"
    let name = asked
    for (let n = 1; ; n++) {
      const path = joinPath(assetsDir, name)
      const existing = state?.assets.get(path)
      if (existing !== undefined && !keptAssets.has(path) && sameBytes(existing.bytes, file.bytes)) {
        keptAssets.add(path)
        break
      }
      if (!taken(path) && existing === undefined) {
        next.set(path, file.bytes)
        break
      }
      name = withSuffix(asked, n)
    }
    if (name !== file.name) renamedAssets.set(file.name, name)
  }
  for (const asset of state?.assets.values() ?? []) if (!keptAssets.has(asset.path)) deletions.add(asset.path)
  const renameRefs = (text: string): string => {
    if (renamedAssets.size === 0 || !text.includes(assetRefPrefix)) return text
    let out = text
    for (const [from, to] of renamedAssets) {
      out = out.split(`${assetRefPrefix}${from}`).join(`${assetRefPrefix}${to}`)
      const encoded = encodeURI(from)
      if (encoded !== from) out = out.split(`${assetRefPrefix}${encoded}`).join(`${assetRefPrefix}${encodeURI(to)}`)
    }
    return out
  }

  // Where each page goes: its file stays while its slug and parent do.
  const used = new Set<string>()
  const place = (pages: ReadonlyArray<RepoPage>, parent: Placed | undefined): Array<Placed> =>
    pages.map((page) => {
      const placed: Placed = { page, parent, children: [], kept: false, path: undefined }
      const key = parent === undefined
        ? "root"
        : parent.page.kind === "document"
        ? `page:${parent.page.path ?? "(new)"}`
        : `group:${parent.page.slug}`
      const info = page.kind === "document" && page.path !== undefined ? state?.pageInfo.get(page.path) : undefined
      const parentStays = parent === undefined || parent.page.kind !== "document" || parent.kept
      if (info !== undefined && parentStays && !used.has(page.path!) && info.page.slug === page.slug && info.parentKey === key && state?.docsRoot === docsRoot) {
        placed.kept = true
        placed.path = page.path
        used.add(page.path!)
      }
      placed.children.push(...place(page.children, placed))
      return placed
    })
  const tree = place(content.pages, undefined)
  const free = (path: string) => !used.has(path) && !taken(path) && !keptAssets.has(path)
  const folderOf = (parent: Placed | undefined): string => {
    if (parent === undefined) return docsRoot
    if (parent.page.kind !== "document" || parent.path === undefined) return joinPath(docsRoot, parent.page.slug)
    if (isReadmeName(basename(parent.path))) {
      return dirname(parent.path) === docsRoot ? joinPath(docsRoot, parent.page.slug) : dirname(parent.path)
    }
    return parent.path.replace(/\.md$/i, "")
  }
  let firstDocument = true
  const assign = (list: ReadonlyArray<Placed>) => {
    for (const placed of list) {
      const { page } = placed
      if (page.kind === "document") {
        const top = placed.parent === undefined && firstDocument
        if (placed.parent === undefined) firstDocument = false
        if (!placed.kept) {
          const folder = folderOf(placed.parent)
          let path: string | undefined = top && free(readmePath) ? readmePath : undefined
          // A slug never leaves its folder.
          const base = validSlug.test(page.slug) ? page.slug : slugify(page.slug)
          for (let n = 1; path === undefined; n++) {
            const slug = n === 1 ? base : `${base}-${n}`
            const candidate = page.children.length > 0 ? joinPath(folder, slug, "README.md") : joinPath(folder, `${slug}.md`)
            if (free(candidate)) path = candidate
          }
          placed.path = path
          used.add(path)
        }
      }
      assign(placed.children)
    }
  }
  assign(tree)

  // Page files.
  const assetNames = [...(state?.assets.values() ?? [])].map((asset) => asset.name)
  // Where each previous page file went, for the relative links that point to it.
  const moves = new Map<string, string | null>()
  const collectMoves = (list: ReadonlyArray<Placed>) => {
    for (const placed of list) {
      if (placed.page.kind === "document" && placed.page.path !== undefined && state?.pageInfo.has(placed.page.path) && placed.path !== placed.page.path) {
        if (!moves.has(placed.page.path)) moves.set(placed.page.path, placed.path ?? null)
      }
      collectMoves(placed.children)
    }
  }
  collectMoves(tree)
  for (const path of state?.pageInfo.keys() ?? []) if (!used.has(path) && !moves.has(path)) moves.set(path, null)
  const rebase = (body: string, from: string, to: string): string => {
    if (!body.includes(".md") || (from === to && moves.size === 0)) return body
    return body.replace(relativePageLink, (match, lead: string, open: string, destination: string, anchor: string | undefined, close: string) => {
      let decoded = destination
      try {
        decoded = decodeURI(destination)
      } catch {
        return match
      }
      const target = joinPath(from, decoded)
      const moved = moves.get(target)
      if (moved === null) return match
      const final = moved ?? target
      if (moved === undefined && !previous.has(target) && !used.has(target)) return match
      if (final === target && from === to) return match
      let relative = relativePath(to, final)
      if (destination !== decoded) relative = encodeURI(relative)
      else if (open === "" && /[\s()]/.test(relative) && lead.endsWith("(")) return `${lead}<${relative}${anchor ?? ""}>${close}`
      return `${lead}${open}${relative}${anchor ?? ""}${close}`
    })
  }
  const render = (list: ReadonlyArray<Placed>) => {
    for (const placed of list) {
      const { page } = placed
      if (page.kind === "document" && placed.path !== undefined) {
        const path = placed.path
        const info = page.path === undefined ? undefined : state?.pageInfo.get(page.path)
        const previousParts = info === undefined ? undefined : { ...info.parts, title: info.page.title }
        const neutral = renameRefs(page.markdown)
        const unchangedBody = info !== undefined &&
          (info.page.markdown === neutral || decodedAssetRefs(info.page.markdown, assetNames) === decodedAssetRefs(neutral, assetNames))
        const body = rebase(
          unchangedBody && dirname(info.page.path!) === dirname(path) ? info.parts.body : fromNeutralAssetRefs(neutral, path, docsRoot),
          info === undefined ? dirname(path) : dirname(info.page.path!),
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
          hidden: page.hidden,
          layout: page.layout
        }
        next.set(path, renderPageFile({ title: page.title, metadata, body }, previousParts))
      }
      render(placed.children)
    }
  }
  render(tree)
  for (const path of state?.pageInfo.keys() ?? []) if (!used.has(path)) deletions.add(path)

  // SUMMARY.md
  const summaryDir = dirname(summaryPath)
  const nodes = (list: ReadonlyArray<Placed>): Array<SummaryNode> =>
    list.map((placed): SummaryNode => {
      const { page } = placed
      const children = nodes(placed.children)
      if (page.kind === "group") return { kind: "group", title: page.title, reuse: state?.summaryLines.get(`group:${page.title}`), children }
      if (page.kind === "link") {
        const href = page.href ?? ""
        const line = state?.summaryLines.get(href)
        const reuse = line !== undefined && line.includes(`[${page.title}]`) ? line : undefined
        return { kind: "entry", title: page.title, target: href, reuse, children }
      }
      const path = placed.path!
      const info = page.path === undefined ? undefined : state?.pageInfo.get(page.path)
      const reuse = placed.kept && info?.page.title === page.title ? state?.summaryLines.get(path) : undefined
      return { kind: "entry", title: page.title, target: relativePath(summaryDir, path), reuse, children }
    })
  // The table of contents' meaning (kinds, titles, files or URLs, nesting): unchanged, it keeps its bytes.
  const shapeOfNew = (list: ReadonlyArray<Placed>): ReadonlyArray<unknown> =>
    list.map((p) => [p.page.kind, p.page.title, p.page.kind === "link" ? p.page.href : p.path, shapeOfNew(p.children)])
  const shapeOfOld = (list: ReadonlyArray<RepoPage>): ReadonlyArray<unknown> =>
    list.map((p) => [p.kind, p.title, p.kind === "link" ? p.href : p.path, shapeOfOld(p.children)])
  const unchanged = state !== undefined && summaryPath === joinPath(state.docsRoot, before.summary) &&
    JSON.stringify(shapeOfNew(tree)) === JSON.stringify(shapeOfOld(state.content.pages))
  if (!unchanged) next.set(summaryPath, renderSummary(nodes(tree), state?.summary))

  // The changes: what differs from the previous bytes.
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
  return Result.succeed({ changes, summary: { added, modified, deleted }, renamedAssets, warnings })
}
