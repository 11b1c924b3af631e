/**
 * `pnpm bench --fidelity <dir>`: how faithfully Quire takes in a real GitBook repository (issue 20,
 * "Measured"). Against a Quire server it starts (embedded PGlite in a temporary directory, Git
 * sync's jobs in the server, `file://` repositories allowed):
 * 1. the directory (a GitBook project directory, or a repository: its committed tree) becomes one
 *    commit of a scratch bare repository (FidelityRepo.ts); a space is connected to it
 *    (`connectSpaceGitRepository`) and imports it (`importGitRepository`);
 * 2. the pages imported are counted against the pages SUMMARY.md lists;
 * 3. the space is exported with no edits into the same repository (`exportToGitRepository`): the
 *    files that commit changed; then into an empty repository: the files that differ from the
 *    original content root;
 * 4. a site showing the space is published and every page crawled in Chromium (FidelityCrawl.ts):
 *    broken links, broken images, raw tags, anchors missing, console errors.
 * It prints a table of the counts and, for each, the first offenders grouped by cause (`--json`:
 * everything, machine-readable). Counts that should be zero are marked.
 */
import { Effect } from "effect"
import { readFile } from "node:fs/promises"
import { join, relative } from "node:path"
import type { Browser } from "playwright-core"
import * as FidelityCrawl from "./FidelityCrawl.ts"
import * as FidelityRepo from "./FidelityRepo.ts"
import * as FidelitySource from "./FidelitySource.ts"
import { bareRepository, type SyncRun } from "./GitBench.ts"
import * as Scratch from "./Scratch.ts"
import * as Seed from "./Seed.ts"
import * as Servers from "./Servers.ts"

export interface FidelityOptions {
  /** The GitBook repository or project directory under test. */
  readonly path: string
  /** Its project directory inside the repository (Git sync's `repoProjectDirectory`), when not where `path` points. */
  readonly projectDirectory?: string | undefined
  /** Pages crawled at once (2). */
  readonly concurrency: number
  /** Per page navigation and per probe, ms. */
  readonly timeout: number
  /** Offenders shown per cause in the table's report. */
  readonly examples: number
  /** A built server on the embedded database that others use too (the smoke's; it allows file URLs), instead of one of its own. */
  readonly server?: Effect.Effect<Servers.Running, Servers.ServerError> | undefined
  /** A Chromium that others use too (the smoke's), instead of one launched for the crawl. */
  readonly browser?: (() => Promise<Browser>) | undefined
}

interface ApiPage {
  readonly id: string
  readonly title: string
  readonly kind: string
  readonly type: string
  readonly path: string
  readonly git?: { readonly path: string }
  readonly pages?: ReadonlyArray<ApiPage>
}

const flatten = (pages: ReadonlyArray<ApiPage>): ReadonlyArray<ApiPage> => pages.flatMap((p) => [p, ...flatten(p.pages ?? [])])

/** One line of the table: a count, what it should be, and the offenders behind it. */
export interface Measure {
  readonly name: string
  readonly value: number
  /** What a faithful import shows (0, or the pages SUMMARY lists). */
  readonly expected: number
  readonly note: string
  readonly offenders: ReadonlyArray<FidelityCrawl.Offender>
}

export interface FidelityReport {
  readonly source: string
  readonly projectDirectory: string
  readonly errors: ReadonlyArray<string>
  readonly measures: ReadonlyArray<Measure>
  readonly external: { readonly links: number; readonly images: number }
  /** The published site crawled (gone with the server unless `hold`). */
  readonly site: string
  readonly seconds: number
}

type Call = ReturnType<typeof Seed.adminCall>

/** Starts an import or export with `start`, then waits until Git info shows it ended; the run. */
const syncRun = async (call: Call, spaceId: string, kind: "lastImport" | "lastExport", start: () => Promise<unknown>) => {
  const before = (await call<Record<typeof kind, SyncRun | null>>("GET", `/v1/spaces/${spaceId}/git/info`))[kind]
  await start()
  const deadline = Date.now() + 15 * 60_000
  while (Date.now() < deadline) {
    const run = (await call<Record<typeof kind, SyncRun | null>>("GET", `/v1/spaces/${spaceId}/git/info`))[kind]
    if (run !== null && run.status !== "pending" && run.status !== "running" && run.at !== before?.at) return run
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
  throw new Error(`the ${kind === "lastImport" ? "import" : "export"} did not end within 15 minutes`)
}

const syncFailure = (what: string, run: SyncRun) => run.status === "failed" ? [`${what} failed: ${run.error ?? "(no message)"}`] : []

/** A file an export changed, once per cause of its differences (a rewritten page may have several). */
const fileOffenders = (
  gitDir: string,
  from: string,
  to: string,
  files: ReadonlyArray<FidelityRepo.ChangedFile>
): ReadonlyArray<FidelityCrawl.Offender> =>
  files.flatMap((file) => {
    const kind = { A: "added", D: "left out", M: "rewritten", T: "changed type" }[file.status[0]!] ?? file.status
    if (!file.status.startsWith("M")) {
      const extension = /\.[^./]+$/.exec(file.path)?.[0] ?? "(no extension)"
      const folder = /^(\.gitbook\/[^/]+)\//.exec(file.path)?.[1]
      return [{ page: file.path, cause: `${kind}: ${extension} file${folder === undefined ? "" : ` of ${folder}/`}`, detail: "" }]
    }
    return FidelityRepo.diffCauses(gitDir, from, to, file.path).map(({ cause, example }) => ({ page: file.path, cause, detail: example }))
  })

/**
 * Whether the import read a path of the repository: a page's file, a file of the space (by its
 * `git.path`), one of `layoutFiles` (the summary, `.gitbook.yaml`) or a file under a `.gitbook/`
 * folder (reusable contents and the rest, kept with the import's layout).
 */
const readPaths = async (call: Call, spaceId: string, projectDirectory: string, documents: ReadonlyArray<ApiPage>, layoutFiles: ReadonlyArray<string>) => {
  const paths = new Set([...layoutFiles, ...documents.flatMap((p) => p.git === undefined ? [] : [p.git.path.replace(/^\/+/, "")])])
  for (let page: string | undefined = ""; page !== undefined;) {
    const query: string = page === "" ? "" : `&page=${encodeURIComponent(page)}`
    const found: ApiFiles = await call<ApiFiles>("GET", `/v1/spaces/${spaceId}/content/files?metadata=true&limit=1000${query}`)
    for (const file of found.items) if (file.git !== undefined) paths.add(file.git.path.replace(/^\/+/, ""))
    page = found.next?.page
  }
  // Git paths are the repository's or the project directory's: either is accepted.
  return (path: string) => paths.has(path) || paths.has(relative(projectDirectory, path)) || /(^|\/)\.gitbook\//.test(path)
}

interface ApiFiles {
  readonly items: ReadonlyArray<{ readonly git?: { readonly path: string } }>
  readonly next?: { readonly page: string }
}

/** Steps 1–3 over the API; the space and what its pages are. */
const importAndExport = async (call: Call, organizationId: string, source: FidelityRepo.Source, scratch: string, progress: (m: string) => void) => {
  const errors: Array<string> = []
  const repo = source.projectDirectory === "" ? {} : { repoProjectDirectory: source.projectDirectory }
  const space = await call<{ id: string }>("POST", `/v1/orgs/${organizationId}/spaces`, { title: "Fidelity" })
  await call("PUT", `/v1/spaces/${space.id}/git`, { url: source.url, ref: "refs/heads/main", ...repo })
  progress("importing")
  const imported = await syncRun(call, space.id, "lastImport", () =>
    call("POST", `/v1/spaces/${space.id}/git/import`, { url: source.url, ref: "refs/heads/main", ...repo }))
  errors.push(...syncFailure("the import", imported))
  if (imported.status === "failed") return { spaceId: space.id, documents: [], errors, measures: [] }

  const tree = await call<{ pages: ReadonlyArray<ApiPage> }>("GET", `/v1/spaces/${space.id}/content/pages?metadata=true`)
  const documents = flatten(tree.pages).filter((p) => p.kind === "sheet" || p.type === "document")
  const layout = await FidelityRepo.projectLayout(source)
  const contentRoot = relative(source.work, layout.root)
  const listed = await FidelityRepo.summaryEntries(layout.summary)
  // Git paths are the repository's or the project directory's: either is accepted.
  const importedPaths = new Set(documents.flatMap((p) => p.git === undefined ? [] : [p.git.path.replace(/^\/+/, "")]))
  const rootInProject = relative(source.projectDirectory, contentRoot)
  const notImported = listed.filter((entry) =>
    ![entry.path, join(contentRoot, entry.path), join(rootInProject, entry.path)].some((path) => importedPaths.has(path)))
  const pagesMeasure: Measure = {
    name: "pages imported vs SUMMARY.md",
    value: documents.length,
    expected: listed.length,
    note: `${documents.length} / ${listed.length}`,
    offenders: importedPaths.size === 0 ? [] : notImported.map((entry) => ({ page: entry.path, cause: "listed in SUMMARY.md, no page imported from it", detail: entry.title }))
  }

  progress("exporting with no edits into the same repository")
  const back = await syncRun(call, space.id, "lastExport", () =>
    call("POST", `/v1/spaces/${space.id}/git/export`, { url: source.url, ref: "refs/heads/main", commitMessage: "Fidelity: export with no edits", ...repo }))
  errors.push(...syncFailure("the export with no edits", back))
  const head = FidelityRepo.headOf(source.gitDir) ?? source.commit
  const rewritten = FidelityRepo.changedFiles(source.gitDir, source.commit, head, [])
  const noEdit: Measure = {
    name: "files changed by an export with no edits",
    value: rewritten.length,
    expected: 0,
    note: head === source.commit ? "no commit" : FidelityRepo.diffStat(source.gitDir, source.commit, head, []),
    offenders: fileOffenders(source.gitDir, source.commit, head, rewritten)
  }

  progress("exporting into an empty repository")
  const emptyUrl = bareRepository(join(scratch, "empty.git"))
  const fresh = await syncRun(call, space.id, "lastExport", () =>
    call("POST", `/v1/spaces/${space.id}/git/export`, { url: emptyUrl, ref: "refs/heads/main", commitMessage: "Fidelity: export into an empty repository", ...repo }))
  errors.push(...syncFailure("the export into an empty repository", fresh))
  const freshCommit = fresh.status === "succeeded" ? FidelityRepo.fetchBranch(source.gitDir, emptyUrl, "fresh") : undefined
  // The content root and the project's .gitbook.yaml: files outside them are not the space's.
  const pathspec = [contentRoot === "" ? "." : contentRoot, join(source.projectDirectory, ".gitbook.yaml")]
  const differing = freshCommit === undefined ? [] : FidelityRepo.changedFiles(source.gitDir, source.commit, freshCommit, pathspec)
  // A file the import never read (an .md file SUMMARY.md does not list, LICENSE, .github/...) is not
  // the space's: an export into an empty repository cannot give it back, nor could GitBook's.
  const read = await readPaths(call, space.id, source.projectDirectory, documents, [layout.summary, join(source.work, source.projectDirectory, ".gitbook.yaml")].map((path) => relative(source.work, path)))
  const neverRead = (file: FidelityRepo.ChangedFile) => file.status.startsWith("D") && !read(file.path)
  const counted = differing.filter((file) => !neverRead(file))
  const freshMeasure: Measure = {
    name: "files differing in a fresh export",
    value: freshCommit === undefined ? -1 : counted.length,
    expected: 0,
    note: freshCommit === undefined
      ? "no export"
      : [
        counted.length === 0 ? "" : FidelityRepo.diffStat(source.gitDir, source.commit, freshCommit, counted.map((file) => `:(literal)${file.path}`)),
        counted.length === differing.length ? "" : `+${differing.length - counted.length} never imported, left out`
      ]
        .filter((part) => part !== "")
        .join("; "),
    offenders: freshCommit === undefined
      ? []
      : fileOffenders(source.gitDir, source.commit, freshCommit, differing).map((o) =>
        neverRead({ status: "D", path: o.page }) && o.cause.startsWith("left out") ? { ...o, cause: `never imported, ${o.cause}` } : o
      )
  }
  return { spaceId: space.id, documents, errors, measures: [pagesMeasure, noEdit, freshMeasure] }
}

/** Step 4: a site of the space, published, every page crawled. */
const publishAndCrawl = async (
  call: Call,
  baseUrl: string,
  organizationId: string,
  spaceId: string,
  documents: ReadonlyArray<ApiPage>,
  /** The repository's files, to trace broken links to their source. */
  work: string,
  options: FidelityOptions,
  progress: (m: string) => void
) => {
  const site = await call<{ id: string }>("POST", `/v1/orgs/${organizationId}/sites`, { title: "Fidelity", spaces: [spaceId] })
  await call("POST", `/v1/orgs/${organizationId}/sites/${site.id}/publish`)
  const sitePath = `/~sites/${site.id}/`
  const root = `${baseUrl}${sitePath}`
  // The first page is the site's home, at its root.
  const urls = [root, ...documents.slice(1).map((p) => `${root}${p.path.split("/").map(encodeURIComponent).join("/")}`)]
  progress(`crawling ${urls.length} pages of ${root} in Chromium, ${options.concurrency} at a time`)
  const result = await FidelityCrawl.crawl(urls, { concurrency: options.concurrency, timeout: options.timeout, browser: options.browser }, progress)
  const byUrl = new Map(urls.map((url, i) => [decodeURI(url), documents[i]!]))
  const markdown = new Map<string, Promise<string>>()
  const fromApi = (page: FidelitySource.SourcePage) =>
    call<{ markdown: string }>("GET", `/v1/spaces/${spaceId}/content/page/${page.id}?format=markdown`).then((r) => r.markdown, () => "")
  const source: FidelitySource.PageSource = {
    work,
    pageAt: (url) => byUrl.get(decodeURI(url.split("#")[0]!)),
    markdown: (page) => {
      if (!markdown.has(page.id)) {
        markdown.set(page.id, page.git === undefined ? fromApi(page) : readFile(join(work, page.git.path), "utf8").catch(() => fromApi(page)))
      }
      return markdown.get(page.id)!
    }
  }
  const brokenLinks = await FidelitySource.traceDrawnBroken(source, result.brokenLinks)
  const brokenImages = await FidelitySource.traceDrawnBroken(source, result.brokenImages)
  const missingAnchors = await FidelitySource.traceAnchors(source, result.missingAnchors)
  const rawTags = await FidelitySource.traceRawTags(source, result.rawTags)
  const measure = (name: string, offenders: ReadonlyArray<FidelityCrawl.Offender>, of = ""): Measure => {
    const quire = offenders.filter((o) => !o.cause.startsWith(FidelitySource.inSource))
    const inSource = offenders.length - quire.length
    return {
      name,
      value: quire.length,
      expected: 0,
      note: `on ${new Set(quire.map((o) => o.page)).size} pages${of === "" ? "" : `, of ${of}`}${inSource === 0 ? "" : `; +${inSource} broken in the source too`}`,
      // Paths below the site's root, as a reader's address bar would show them on the site's own host.
      offenders: offenders.map((o) => ({
        ...o,
        page: o.page.startsWith(root) ? `/${o.page.slice(root.length)}` : o.page,
        detail: o.detail.replace(`${baseUrl}${sitePath}`, "/").replace(sitePath, "/")
      }))
    }
  }
  return {
    measures: [
      measure("pages that do not load", result.failedPages, `${result.pages} crawled`),
      measure("broken links", brokenLinks, `${result.checked.links} links to the server`),
      measure("broken images", brokenImages, `${result.checked.images} images from the server`),
      measure("raw tags", rawTags),
      measure("anchors missing", missingAnchors, `${result.checked.anchors} #anchor links`),
      measure("console errors", result.consoleErrors)
    ],
    external: result.external,
    site: root
  }
}

const say = (message: string) => console.error(`[bench] fidelity: ${message}`)

export const run = (options: FidelityOptions) =>
  Effect.gen(function*() {
    const started = Date.now()
    const scratch = yield* Scratch.directory
    const source = yield* Effect.promise(() => FidelityRepo.prepare(options.path, scratch, options.projectDirectory))
    say(`${source.origin}, project directory "${source.projectDirectory}"; starting Quire on PGlite`)
    const quire = yield* (options.server ?? Servers.start("quire (embedded)", {
      server: "quire",
      backend: { kind: "embedded", dataDir: join(scratch, "quire") },
      // The server's own settings, not this process's: other benches run beside this one.
      env: { QUIRE_GIT_ALLOW_FILE: "1", QUIRE_GIT_CACHE_DIR: join(scratch, "git-cache") },
      adminToken: Seed.adminToken,
      adminEmail: Seed.adminEmail
    }))
    const organizationId = yield* Seed.organization(quire.baseUrl)
    const call = Seed.adminCall(quire.baseUrl)
    const steps = yield* Effect.promise(() => importAndExport(call, organizationId, source, scratch, say))
    // A failed import leaves nothing to export or show: the report is its error.
    const crawled = steps.documents.length === 0
      ? { measures: [], external: { links: 0, images: 0 }, site: "" }
      : yield* Effect.promise(() => publishAndCrawl(call, quire.baseUrl, organizationId, steps.spaceId, steps.documents, source.work, options, say))
    return {
      source: source.origin,
      projectDirectory: source.projectDirectory,
      errors: steps.errors,
      measures: [...steps.measures, ...crawled.measures],
      external: crawled.external,
      site: crawled.site,
      seconds: Math.round((Date.now() - started) / 1000)
    } satisfies FidelityReport
  })

// ---------------------------------------------------------------------------------------------
// The report

/** Offenders grouped by cause, most frequent first, with the first `examples` of each. */
export const byCause = (offenders: ReadonlyArray<FidelityCrawl.Offender>, examples: number) => {
  const groups = new Map<string, Array<FidelityCrawl.Offender>>()
  for (const o of offenders) groups.set(o.cause, [...(groups.get(o.cause) ?? []), o])
  return [...groups.entries()]
    .map(([cause, all]) => ({ cause, count: all.length, pages: new Set(all.map((o) => o.page)).size, examples: all.slice(0, examples) }))
    .toSorted((a, b) => b.count - a.count)
}

export const table = (report: FidelityReport, examples: number) => {
  const rows = report.measures.map((m) => [
    m.name,
    m.value < 0 ? "n/a" : String(m.value),
    m.name.startsWith("pages imported") ? String(m.expected) : "0",
    m.value === m.expected ? "ok" : "OFF",
    m.note
  ])
  const header = ["measure", "count", "expected", "", "note"]
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)))
  const line = (cells: ReadonlyArray<string>) =>
    cells.map((c, i) => (i === 1 || i === 2 ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join("  ").trimEnd()
  const out = [
    `GitBook fidelity of ${report.source}${report.projectDirectory === "" ? "" : ` (project directory ${report.projectDirectory})`}, ${report.seconds} s`,
    "",
    line(header),
    widths.map((w) => "-".repeat(w)).join("  "),
    ...rows.map(line),
    "",
    `Not judged (no network here): ${report.external.links} links and ${report.external.images} images to other hosts.`
  ]
  for (const error of report.errors) out.push(`ERROR: ${error}`)
  for (const m of report.measures) {
    if (m.offenders.length === 0) continue
    out.push("", `${m.name}, by cause:`)
    for (const group of byCause(m.offenders, examples).slice(0, 12)) {
      out.push(`  ${group.count} × ${group.cause} (${group.pages} ${m.name.startsWith("files") ? "files" : "pages"})`)
      for (const o of group.examples) out.push(`      ${o.page}${o.detail === "" ? "" : `  ${o.detail}`}`.slice(0, 240))
    }
  }
  return out.join("\n")
}

