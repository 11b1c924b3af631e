/**
 * `pnpm bench --git`: Git sync (issue 10, "Performance") through Quire's API with the real `git`
 * binary over local bare repositories (`file://`, `QUIRE_GIT_ALLOW_FILE=1`).
 *
 * A repository of 1,000 pages in GitBook's layout is written once: `SUMMARY.md` with 10 groups
 * (`## ` headings) of 10 chapters (`group-g/chapter-c/README.md`) of 9 pages, a root `README.md`,
 * YAML frontmatter on every page (`description`, some `icon` and `hidden`), pages of about 2 KB
 * with links to their siblings and, on every 50th, an image of `.gitbook/assets/` (5 assets).
 * Then, on each backend (PostgreSQL, where the jobs run in a worker process as deployed, and
 * embedded PGlite, where they run in the server), the built server (on PostgreSQL seeded as in the HTTP comparison, Seed.ts; on PGlite its organization made through the API):
 * 1. import: `importGitRepository` into a new space, until `getSpaceGitInfo` shows the import
 *    ended; target under 10 s;
 * 2. export: `exportToGitRepository` of that space (1,000 pages) to an empty bare repository,
 *    until the export ended; target under 10 s;
 * 3. incremental export: a change request editing one page merged through the API, then the
 *    same export, until it ended (median of 3); target under 1 s.
 * Each figure is from just before the API call to the end the run records in Git info (`at`), so
 * polling adds nothing; "queued" is the part before the job started (the run's `running` instant).
 * CPU is the user + system time of Quire's processes (server, worker) and every process below them
 * (Git sync's runner, the git commands), over the same interval; on PostgreSQL, the database server's own is not counted. The
 * results are checked: page counts after the import, the files of the exported commit, and the one
 * file the incremental export changed.
 */
import { Effect } from "effect"
import { type ChildProcess, execFileSync, spawn } from "node:child_process"
import { randomBytes } from "node:crypto"
import { once } from "node:events"
import { mkdir, readdir, readFile, writeFile } from "node:fs/promises"
import { loadavg } from "node:os"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { Database } from "@quire/db"
import * as Build from "./Build.ts"
import * as Scratch from "./Scratch.ts"
import * as Seed from "./Seed.ts"
import * as Servers from "./Servers.ts"

export interface GitBenchOptions {
  readonly backends: ReadonlySet<string>
  readonly adminUrl: string
  /** Pages of the repository (1,000). */
  readonly pages?: number | undefined
  /** Where CPU profiles go (the server's on embedded, the worker's on PostgreSQL); none when undefined. */
  readonly profileDir?: string | undefined
  /**
   * A built server on the embedded database that others use too (the smoke's), for that backend
   * instead of one of its own; it allows file URLs and has a Git cache of its own.
   */
  readonly embedded?: Effect.Effect<Servers.Running, Servers.ServerError> | undefined
  /** The same on PostgreSQL: its worker is started beside it, with its settings. */
  readonly postgres?: Effect.Effect<Servers.OnPostgres, unknown> | undefined
}

const targets = { import: 10_000, export: 10_000, incremental: 1_000 } as const
const incrementalRounds = 3

// ---------------------------------------------------------------------------------------------
// The repository

const words = ("space page sync commit branch export import revision content summary folder asset frontmatter " +
  "reader section group heading link image table code block hint merge change request review server token")
  .split(" ")

const assetNames = Array.from({ length: 5 }, (_, i) => `diagram-${i}.png`)

/** A page of about 2 KB: frontmatter, its title, paragraphs, a list, a code block, a hint, sibling links. */
const pageFile = (n: number, title: string, siblings: ReadonlyArray<string>, assetPrefix: string) => {
  const { word, sentence, paragraph, link } = Seed.prose(Seed.random(n + 1), words, siblings)
  const front = [`description: The ${word()} and ${word()} of page ${n}.`]
  if (n % 7 === 0) front.push("icon: book-open")
  if (n % 97 === 0) front.push("hidden: true")
  const parts = [`---\n${front.join("\n")}\n---`, `# ${title}`, paragraph(), `See ${link()}.`]
  if (n % 50 === 0) parts.push(`![A ${word()} diagram](${assetPrefix}.gitbook/assets/${assetNames[n / 50 % assetNames.length]})`)
  parts.push(`## The ${word()} ${word()}`, paragraph(), [`- **First**: ${sentence()}`, `- Second: \`${word()}\``, `- Third: ${link()}`].join("\n"))
  parts.push("```bash\nquire git export " + word() + " --message \"" + sentence() + "\"\n```")
  parts.push(`{% hint style="info" %}\n${sentence()}\n{% endhint %}`, paragraph())
  return `${parts.join("\n\n")}\n`
}

interface Repository {
  readonly files: number
  readonly bytes: number
  readonly pages: number
}

/** Writes the repository into `work` and commits it on `main`. */
const writeRepository = async (work: string, pages: number): Promise<Repository> => {
  const files = new Map<string, string | Uint8Array>()
  const summary = ["# Table of contents", "", "* [Introduction](README.md)"]
  files.set("README.md", pageFile(0, "Introduction", [], ""))
  let n = 1
  for (let g = 0; n < pages; g++) {
    summary.push("", `## Group ${g}`, "")
    for (let c = 0; c < 10 && n < pages; c++) {
      const folder = `group-${g}/chapter-${c}`
      const children = Array.from({ length: Math.min(9, pages - n - 1) }, (_, p) => `page-${p}.md`)
      files.set(`${folder}/README.md`, pageFile(n++, `Chapter ${g}.${c}`, children, "../../"))
      summary.push(`* [Chapter ${g}.${c}](${folder}/README.md)`)
      children.forEach((child, p) => {
        files.set(`${folder}/${child}`, pageFile(n++, `Page ${g}.${c}.${p}`, children.filter((s) => s !== child), "../../"))
        summary.push(`  * [Page ${g}.${c}.${p}](${folder}/${child})`)
      })
    }
  }
  files.set("SUMMARY.md", `${summary.join("\n")}\n`)
  const next = Seed.random(42)
  for (const name of assetNames) {
    const bytes = new Uint8Array(20_000).map(() => Math.floor(next() * 256))
    bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
    files.set(`.gitbook/assets/${name}`, bytes)
  }
  let bytes = 0
  for (const [path, content] of files) {
    await mkdir(dirname(join(work, path)), { recursive: true })
    await writeFile(join(work, path), content)
    bytes += typeof content === "string" ? Buffer.byteLength(content) : content.length
  }
  git(work, "init", "--quiet", "--initial-branch=main")
  git(work, "add", ".")
  git(work, "-c", "user.name=Bench", "-c", "user.email=bench@bench.test", "commit", "--quiet", "-m", `${pages} pages in GitBook's layout`)
  return { files: files.size, bytes, pages: n }
}

/** Runs git in `cwd` without the user's or system's configuration; its standard output. */
export const git = (cwd: string, ...args: ReadonlyArray<string>) =>
  execFileSync("git", args, { cwd, encoding: "utf8", env: { ...process.env, GIT_CONFIG_NOSYSTEM: "1", HOME: cwd } })

/** An empty bare repository at `dir` whose branch is `main`; its `file://` URL. */
export const bareRepository = (dir: string) => {
  execFileSync("git", ["init", "--bare", "--quiet", "--initial-branch=main", dir])
  return `file://${dir}`
}

// ---------------------------------------------------------------------------------------------
// Processes

/** User + system CPU time of `pid` and of its children it waited for, in ms. */
const cpuMsOf = async (pid: number) => {
  const stat = await readFile(`/proc/${pid}/stat`, "utf8").catch(() => "")
  if (stat === "") return 0
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
  return [11, 12, 13, 14].reduce((sum, i) => sum + Number(fields[i]), 0) * 10
}

/** `pids` and every live process below them (Git sync's runner and the git commands it started). */
const withDescendants = async (pids: ReadonlyArray<number>) => {
  const parents = new Map<number, Array<number>>()
  for (const entry of await readdir("/proc")) {
    if (!/^\d+$/.test(entry)) continue
    const stat = await readFile(`/proc/${entry}/stat`, "utf8").catch(() => "")
    if (stat === "") continue
    const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1])
    parents.set(ppid, [...(parents.get(ppid) ?? []), Number(entry)])
  }
  const all = [...pids]
  for (let i = 0; i < all.length; i++) all.push(...(parents.get(all[i]!) ?? []))
  return all
}

/**
 * CPU time of `pids` and of their descendants, live or reaped, in ms: a reaped process's time is in
 * its parent's children times, a live one's is read from it.
 */
const treeCpuMs = async (pids: ReadonlyArray<number>) =>
  (await Promise.all((await withDescendants(pids)).map(cpuMsOf))).reduce((a, b) => a + b, 0)

const startScript = fileURLToPath(new URL("../../build/start.sh", import.meta.url))

/** The built worker of a PostgreSQL deployment on `databaseUrl` (tooling/build/start.sh worker), started and stopped with the scope. */
const startWorker = (databaseUrl: string, profileDir: string | undefined, env: Readonly<Record<string, string>>) =>
  Effect.gen(function*() {
    const profile = profileDir === undefined ? {} : { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${profileDir}` }
    const child = yield* Effect.acquireRelease(
      Effect.sync(() =>
        spawn("sh", [startScript, "worker"], { env: { ...process.env, ...env, DATABASE_URL: databaseUrl, ...profile }, stdio: ["ignore", "pipe", "pipe"] })
      ),
      (child) =>
        Effect.promise(async () => {
          if (child.exitCode !== null || child.signalCode !== null) return
          const exit = once(child, "exit")
          child.kill("SIGINT")
          await exit
        })
    )
    yield* Effect.promise(() => workerStarted(child))
    return child.pid!
  })

const workerStarted = (child: ChildProcess) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("the worker did not start within 2 minutes")), 120_000)
    const onData = (data: Buffer) => {
      process.stderr.write(data)
      if (data.toString().includes("Worker started")) {
        clearTimeout(timer)
        resolve()
      }
    }
    child.stdout!.on("data", onData)
    child.stderr!.on("data", onData)
    child.once("exit", (code) => reject(new Error(`the worker exited with ${code}`)))
  })

// ---------------------------------------------------------------------------------------------
// The API

export interface SyncRun {
  readonly status: "pending" | "running" | "succeeded" | "failed" | "skipped"
  readonly commit: string | null
  readonly at: string
  readonly error: string | null
}

export interface GitInfo {
  readonly lastImport: SyncRun | null
  readonly lastExport: SyncRun | null
}

export interface PageTree {
  readonly id: string
  readonly type: string
  readonly pages?: ReadonlyArray<PageTree>
}


export interface Timed {
  /** From just before the call to the end the run recorded, ms. */
  readonly wall: number
  /** From just before the call to the run's start, ms. */
  readonly queued: number
  /** CPU time of Quire's processes and their git processes over the same interval, ms. */
  readonly cpu: number
  readonly run: SyncRun
}

/**
 * Calls `start` (an import or an export), then polls Git info every `every` ms until that run
 * ended; the times come from the run's own instants.
 */
export const timedRun = async (
  call: ReturnType<typeof Seed.adminCall>,
  spaceId: string,
  kind: "lastImport" | "lastExport",
  pids: ReadonlyArray<number>,
  every: number,
  start: () => Promise<unknown>
): Promise<Timed> => {
  const cpu = () => treeCpuMs(pids)
  const cpuBefore = await cpu()
  const before = Date.now()
  await start()
  let started: number | undefined
  for (;;) {
    const run = (await call<GitInfo>("GET", `/v1/spaces/${spaceId}/git/info`))[kind]
    if (run !== null && run.status === "running") started ??= Date.parse(run.at)
    if (run !== null && run.status !== "pending" && run.status !== "running") {
      const cpuUsed = await cpu() - cpuBefore
      if (run.status !== "succeeded") throw new Error(`the ${kind === "lastImport" ? "import" : "export"} ${run.status}: ${run.error}`)
      const ended = Date.parse(run.at)
      return { wall: ended - before, queued: (started ?? ended) - before, cpu: cpuUsed, run }
    }
    await new Promise((resolve) => setTimeout(resolve, every))
  }
}

const countPages = (pages: ReadonlyArray<PageTree>): number =>
  pages.reduce((sum, page) => sum + (page.type === "group" ? 0 : 1) + countPages(page.pages ?? []), 0)

export const documents = (pages: ReadonlyArray<PageTree>): ReadonlyArray<PageTree> =>
  pages.flatMap((page) => [...(page.type === "document" ? [page] : []), ...documents(page.pages ?? [])])

interface BackendFigures {
  readonly backend: string
  readonly load: string
  readonly import: Timed
  readonly importedPages: number
  readonly export: Timed
  readonly exportedFiles: number
  readonly incremental: ReadonlyArray<Timed>
  readonly incrementalFiles: ReadonlyArray<string>
}

const loadAverage = () => loadavg().map((l) => l.toFixed(2)).join(" ")

const measureBackend = (
  backend: string,
  sourceUrl: string,
  repositoryPages: number,
  options: GitBenchOptions,
  progress: (message: string) => Effect.Effect<void>
) =>
  Effect.scoped(Effect.gen(function*() {
    const scratch = yield* Scratch.directory
    // Set for the server and the worker, not in this process's environment: other benches run beside this one.
    const env = { QUIRE_GIT_ALLOW_FILE: "1", QUIRE_GIT_CACHE_DIR: join(scratch, "git-cache") }
    // The server seals the repository URL that the worker opens: both need the same instance secret.
    process.env["QUIRE_SECRET"] ??= randomBytes(32).toString("hex")
    const pids: Array<number> = []
    let quire: Servers.Running
    let organizationId: string | undefined
    const shared = backend === "postgres" ? options.postgres : undefined
    if (shared !== undefined) {
      const onPostgres = yield* shared
      pids.push(yield* startWorker(onPostgres.databaseUrl, options.profileDir, onPostgres.env))
      quire = onPostgres.server
    } else if (backend === "postgres") {
      const url = yield* Scratch.postgresDatabase(options.adminUrl)
      yield* progress(`git (${backend}): seeding ${url}`)
      organizationId = (yield* Seed.seed(Database.layerUrl(url))).organizationId
      pids.push(yield* startWorker(url, options.profileDir, env))
      quire = yield* Servers.start(`quire (${backend})`, { server: "quire", backend: { kind: "postgres", url }, env, adminToken: Seed.adminToken, adminEmail: Seed.adminEmail })
    } else if (options.embedded !== undefined) {
      quire = yield* options.embedded
    } else {
      const dataDir = join(scratch, "quire")
      yield* progress(`git (${backend}): a new embedded database in ${dataDir}`)
      quire = yield* Servers.start(`quire (${backend})`, { server: "quire", backend: { kind: "embedded", dataDir }, env, adminToken: Seed.adminToken, adminEmail: Seed.adminEmail })
    }
    pids.push(quire.pid)
    organizationId ??= yield* Seed.organization(quire.baseUrl)
    const call = Seed.adminCall(quire.baseUrl)
    const profiled = <A>(name: string, f: () => Promise<A>) =>
      options.profileDir !== undefined && backend === "embedded"
        ? Effect.promise(f).pipe(quire.profiled(join(options.profileDir, `git-${backend}-${name}.cpuprofile`)), Effect.orDie)
        : Effect.promise(f)
    const load = [loadAverage()]

    yield* progress(`git (${backend}): import`)
    const space = yield* Effect.promise(() => call<{ id: string }>("POST", `/v1/orgs/${organizationId}/spaces`, { title: "From Git" }))
    const imported = yield* profiled("import", () =>
      timedRun(call, space.id, "lastImport", pids, 50, () =>
        call("POST", `/v1/spaces/${space.id}/git/import`, { url: sourceUrl, ref: "refs/heads/main" })))
    const tree = yield* Effect.promise(() => call<{ pages: ReadonlyArray<PageTree> }>("GET", `/v1/spaces/${space.id}/content/pages`))
    const importedPages = countPages(tree.pages)
    if (importedPages !== repositoryPages) return yield* Effect.fail(new Error(`git (${backend}): the import made ${importedPages} pages of ${repositoryPages}`))

    yield* progress(`git (${backend}): export to an empty repository`)
    const exportDir = join(scratch, "export.git")
    const exportUrl = bareRepository(exportDir)
    const exportTo = (commitMessage: string) => () =>
      call("POST", `/v1/spaces/${space.id}/git/export`, { url: exportUrl, ref: "refs/heads/main", commitMessage })
    const exported = yield* profiled("export", () => timedRun(call, space.id, "lastExport", pids, 50, exportTo(`Export ${importedPages} pages`)))
    const exportedFiles = git(exportDir, "ls-tree", "-r", "--name-only", "main").split("\n").filter((l) => l !== "").length

    const pages = documents(tree.pages)
    const incremental: Array<Timed> = []
    const incrementalFiles: Array<string> = []
    for (let round = 0; round < incrementalRounds; round++) {
      yield* progress(`git (${backend}): incremental export ${round + 1}/${incrementalRounds}`)
      // A different page each round, wherever the repository's size puts the middle.
      const page = pages[(Math.floor(pages.length / 2) + round * 17) % pages.length]!
      const before = yield* Effect.promise(() =>
        call<{ markdown: string }>("GET", `/v1/spaces/${space.id}/content/page/${page.id}?format=markdown`))
      const cr = yield* Effect.promise(() => call<{ id: string }>("POST", `/v1/spaces/${space.id}/change-requests`, { subject: `Edit one page (${round})` }))
      yield* Effect.promise(() =>
        call("POST", `/v1/spaces/${space.id}/change-requests/${cr.id}/content`, {
          changes: [{ operation: "update_page", page: page.id, document: { markdown: `${before.markdown}\n\nEdited in round ${round}.\n` } }]
        }))
      yield* Effect.promise(() => call("POST", `/v1/spaces/${space.id}/change-requests/${cr.id}/merge`))
      incremental.push(yield* profiled(`incremental-${round}`, () =>
        timedRun(call, space.id, "lastExport", pids, 20, exportTo(`Edit one page (${round})`))))
      const changed = git(exportDir, "diff", "--name-only", "main~1", "main").trim().split("\n").filter((l) => l !== "")
      if (changed.length !== 1) return yield* Effect.fail(new Error(`git (${backend}): the export after one page's edit changed ${changed.length} files: ${changed.join(", ")}`))
      incrementalFiles.push(changed.join(", "))
    }
    load.push(loadAverage())
    return {
      backend,
      load: load.join(" → "),
      import: imported,
      importedPages,
      export: exported,
      exportedFiles,
      incremental,
      incrementalFiles
    } satisfies BackendFigures
  }))

// ---------------------------------------------------------------------------------------------
// The report

const median = (values: ReadonlyArray<number>) => values.toSorted((a, b) => a - b)[Math.floor(values.length / 2)]!

const seconds = (ms: number) => (ms / 1000).toFixed(2)

const verdict = (ms: number, target: number) => (ms < target ? "PASS" : "MISS")

const report = (repository: Repository, figures: ReadonlyArray<BackendFigures>, version: string) => {
  const header = ["backend", "step", "wall s", "queued s", "CPU s", "target s", "result"]
  const rows: Array<ReadonlyArray<string>> = []
  for (const f of figures) {
    rows.push([f.backend, `import of ${f.importedPages} pages into a new space`, seconds(f.import.wall), seconds(f.import.queued), seconds(f.import.cpu), seconds(targets.import), verdict(f.import.wall, targets.import)])
    rows.push([f.backend, `export of ${f.importedPages} pages to an empty branch (${f.exportedFiles} files)`, seconds(f.export.wall), seconds(f.export.queued), seconds(f.export.cpu), seconds(targets.export), verdict(f.export.wall, targets.export)])
    const wall = median(f.incremental.map((t) => t.wall))
    rows.push([
      f.backend,
      `incremental export after a merge, one page (median of ${f.incremental.length}: ${f.incremental.map((t) => seconds(t.wall)).join(", ")})`,
      seconds(wall),
      seconds(median(f.incremental.map((t) => t.queued))),
      seconds(median(f.incremental.map((t) => t.cpu))),
      seconds(targets.incremental),
      verdict(wall, targets.incremental)
    ])
  }
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)))
  const line = (cells: ReadonlyArray<string>) => cells.map((c, i) => (i < 2 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join("  ")
  return [
    `Git sync (issue 10) through the API, ${version} over file:// bare repositories: a repository of ${repository.pages} pages in GitBook's layout`,
    `(${repository.files} files, ${(repository.bytes / 1e6).toFixed(1)} MB: SUMMARY.md, 10 groups of chapter folders with README.md, frontmatter, 5 assets).`,
    "Wall: from the API call to the end recorded in Git info; queued: until the job started; CPU: Quire's processes (server,",
    "worker on PostgreSQL) and all below them (git), user + system, over the same interval (PostgreSQL's own not counted).",
    "",
    line(header),
    widths.map((w) => "-".repeat(w)).join("  "),
    ...rows.map(line),
    "",
    ...figures.map((f) =>
      `${f.backend}: load average ${f.load} (1, 5, 15 min; 2 cores); files changed by the incremental exports: ${f.incrementalFiles.join("; ")}`
    )
  ].join("\n")
}

export const run = (options: GitBenchOptions, progress: (message: string) => Effect.Effect<void>) =>
  Effect.gen(function*() {
    // The server and the worker are the production build.
    yield* Build.current(progress)
    const root = yield* Scratch.directory
    const work = join(root, "source")
    yield* progress(`git: writing a ${options.pages ?? 1000}-page repository in ${work}`)
    const repository = yield* Effect.promise(() => writeRepository(work, options.pages ?? 1000))
    const sourceDir = join(root, "source.git")
    const sourceUrl = bareRepository(sourceDir)
    git(work, "push", "--quiet", sourceUrl, "main")
    const figures: Array<BackendFigures> = []
    for (const backend of ["postgres", "embedded"].filter((b) => options.backends.has(b))) {
      figures.push(yield* measureBackend(backend, sourceUrl, repository.pages, options, progress))
    }
    return report(repository, figures, execFileSync("git", ["--version"], { encoding: "utf8" }).trim())
  })
