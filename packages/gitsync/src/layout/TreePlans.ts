/**
 * The page tree of a repository before its files are read: from `SUMMARY.md` (what it cannot point
 * to skipped, with a warning), else inferred from the folders.
 */
import { compareCodePoints } from "@quire/kernel"
import type { RepoPage, RepositoryFile, RepositoryFiles } from "./LayoutTypes.ts"
import { basename, dirname, insideOf, isReadmeName, joinPath } from "./Paths.ts"
import { type ParsedSummary, parseSummary, type SummaryEntry, type SummaryGroup } from "./Summary.ts"

type SummaryNodeRead = SummaryGroup | SummaryEntry

/** A page to read: a document's file, a group or a link, and its children. */
export interface Plan {
  readonly kind: RepoPage["kind"]
  readonly title: string
  /** Groups: the slug `SUMMARY.md` gives it (its heading's GitBook anchor). */
  readonly slug?: string | undefined
  /** The title the navigation shows instead of the page's (`[Title](page.md "Label")`). */
  readonly linkTitle?: string | undefined
  readonly path?: string
  readonly href?: string
  readonly children: ReadonlyArray<Plan>
}

const decoder = new TextDecoder()

const isUrl = (target: string): boolean => /^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith("//")

/** Files and folders by name (a file's without `.md`), by code point as Git orders UTF-8 names (not by UTF-16 unit). */
const byName = (a: string, b: string) => compareCodePoints(basename(a).replace(/\.md$/i, ""), basename(b).replace(/\.md$/i, ""))

/** The page tree without a `SUMMARY.md`: folders, `README.md` first, then files and folders by name. */
export const inferPlans = (files: RepositoryFiles, docsRoot: string, readmePath: string, summaryPath: string): Array<Plan> => {
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

/** A summary entry's file without its anchor or query, as written. */
const entryFile = (entry: SummaryEntry): string => entry.target.replace(/[#?].*$/, "")

/**
 * The entries that link to a heading of a file another entry lists (`[Buttons](blocks/inline.md#buttons)`
 * beside `[Inline](blocks/inline.md)`): the file's page is its first entry without anchor (else its
 * first entry), and every other entry of that file with an anchor is a link to the heading.
 */
const anchorLinkedEntries = (nodes: ReadonlyArray<SummaryNodeRead>): ReadonlySet<SummaryEntry> => {
  const byFile = new Map<string, Array<SummaryEntry>>()
  const collect = (list: ReadonlyArray<SummaryNodeRead>) => {
    for (const node of list) {
      if (node.kind === "entry" && node.unlinked !== true && !isUrl(node.target) && entryFile(node) !== "") {
        const same = byFile.get(entryFile(node)) ?? []
        same.push(node)
        byFile.set(entryFile(node), same)
      }
      collect(node.children)
    }
  }
  collect(nodes)
  const linked = new Set<SummaryEntry>()
  for (const entries of byFile.values()) {
    if (entries.length < 2) continue
    const page = entries.find((entry) => !entry.target.includes("#")) ?? entries[0]!
    for (const entry of entries) if (entry !== page && /#./.test(entry.target)) linked.add(entry)
  }
  return linked
}

/** The tree `summaryFile` (at `summaryPath`) lists, and its lines by the file (or URL) they point to, group headings by `group:<title>`. */
export const summaryPlans = (
  files: RepositoryFiles,
  summaryFile: RepositoryFile,
  paths: { readonly docsRoot: string; readonly readmePath: string; readonly summaryPath: string },
  warnings: Array<string>
): { summary: ParsedSummary; summaryLines: Map<string, string>; plans: Array<Plan> } => {
  const { docsRoot, readmePath, summaryPath } = paths
  const summaryLines = new Map<string, string>()
  const summary = parseSummary(decoder.decode(summaryFile.bytes))
  for (const warning of summary.warnings) warnings.push(warning.replace(/^SUMMARY\.md/, summaryPath))
  const summaryDir = dirname(summaryPath)
  const used = new Set<string>()
  const anchorLinked = anchorLinkedEntries(summary.nodes)
  const fromEntry = (entry: SummaryEntry): Array<Plan> => {
    const children = entry.children.flatMap(fromEntry)
    const where = `${summaryPath} line ${entry.lineNumber}`
    const linkTitle = entry.label === undefined ? {} : { linkTitle: entry.label }
    if (entry.unlinked === true) {
      // An entry without link that holds others is a group of them, as GitBook shows it.
      if (children.length === 0) {
        warnings.push(`${where}: ${JSON.stringify(entry.title)} is not a link and holds no entries; ignored`)
        return []
      }
      summaryLines.set(`group:${entry.title}`, entry.line)
      return [{ kind: "group", title: entry.title, children }]
    }
    if (isUrl(entry.target)) {
      summaryLines.set(entry.target, entry.line)
      return [{ kind: "link", title: entry.title, ...linkTitle, href: entry.target, children: [] }, ...children]
    }
    const target = joinPath(summaryDir, entryFile(entry))
    if (entryFile(entry) === "") {
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
    if (anchorLinked.has(entry)) {
      // A file listed again at one of its headings (`[Icons](blocks/inline.md#icons)`): GitBook's
      // navigation shows a link to the heading, a link page to `<file>#<anchor>`.
      const href = `${target}${entry.target.slice(entry.target.indexOf("#"))}`
      summaryLines.set(href, entry.line)
      return [{ kind: "link", title: entry.title, ...linkTitle, href, children: [] }, ...children]
    }
    if (used.has(target)) {
      warnings.push(`${where}: ${target} is listed twice; the second one is skipped`)
      return children
    }
    used.add(target)
    summaryLines.set(target, entry.line)
    return [{ kind: "document", title: entry.title, ...linkTitle, path: target, children }]
  }
  const plans = summary.nodes.flatMap((node): Array<Plan> => {
    if (node.kind !== "group") return fromEntry(node)
    summaryLines.set(`group:${node.title}`, node.line)
    return [{ kind: "group", title: node.title, ...(node.slug === undefined ? {} : { slug: node.slug }), children: node.children.flatMap(fromEntry) }]
  })
  if (!used.has(readmePath) && files.has(readmePath)) {
    plans.unshift({ kind: "document", title: "Introduction", path: readmePath, children: [] })
  }
  return { summary, summaryLines, plans }
}
