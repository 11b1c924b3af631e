/**
 * The Git side of `pnpm bench --fidelity` (FidelityBench.ts): the GitBook repository under test
 * copied into a scratch bare repository of one commit, what its `SUMMARY.md` lists, and the files
 * an export changed. The repository given is only read: exports go to the scratch copies.
 */
import { execFileSync } from "node:child_process"
import { existsSync, statSync } from "node:fs"
import { cp, mkdir, readFile, symlink, writeFile } from "node:fs/promises"
import { dirname, join, relative, resolve } from "node:path"
import { bareRepository, git } from "./GitBench.ts"

export interface Source {
  /** `file://` URL of the scratch bare repository, branch `main`. */
  readonly url: string
  readonly gitDir: string
  /** The commit imported; exports are compared with it. */
  readonly commit: string
  /** The project directory inside the repository ("" for its root), as Git sync's `repoProjectDirectory`. */
  readonly projectDirectory: string
  /** Where the original files were checked out, to read `SUMMARY.md`. */
  readonly work: string
  /** What the path given was: a plain directory, or a repository's committed tree. */
  readonly origin: string
}

const gitOut = (args: ReadonlyArray<string>) => execFileSync("git", args, { encoding: "utf8", maxBuffer: 256 * 1024 * 1024 })

const tryGit = (args: ReadonlyArray<string>) => {
  try {
    return execFileSync("git", args, { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim()
  } catch {
    return undefined
  }
}

/** A path that is a Git repository (bare, or any directory of a work tree): its git dir and the path's place in it. */
const repositoryOf = (path: string) => {
  // A git directory (a bare repository, a mirror whose config may not say `bare`) resolves HEAD as one.
  if (tryGit(["--git-dir", path, "rev-parse", "--verify", "--quiet", "HEAD"]) !== undefined) return { gitDir: path, prefix: "" }
  const top = tryGit(["-C", path, "rev-parse", "--show-toplevel"])
  if (top === undefined) return undefined
  return { gitDir: join(top, ".git"), prefix: relative(top, path).split("\\").join("/") }
}

/**
 * Writes the tree of `commit` into `work`; blobs a partial mirror lacks (its largest files) are
 * left out, not fatal: their paths are returned.
 */
const checkout = async (gitDir: string, commit: string, work: string) => {
  const tar = join(work, "..", "source.tar")
  try {
    gitOut(["--git-dir", gitDir, "archive", "--format=tar", "-o", tar, commit])
    execFileSync("tar", ["-x", "-f", tar, "-C", work])
    return []
  } catch {
    const missing: Array<string> = []
    for (const entry of gitOut(["--git-dir", gitDir, "ls-tree", "-r", "-z", commit]).split("\0")) {
      const tab = entry.indexOf("\t")
      if (tab < 0) continue
      const [mode, type, oid] = entry.slice(0, tab).split(" ")
      const path = entry.slice(tab + 1)
      if (type !== "blob") continue
      try {
        const bytes = execFileSync("git", ["--git-dir", gitDir, "cat-file", "blob", oid!], { maxBuffer: 1024 * 1024 * 1024, stdio: ["ignore", "pipe", "ignore"] })
        await mkdir(dirname(join(work, path)), { recursive: true })
        if (mode === "120000") await symlink(bytes.toString(), join(work, path))
        else await writeFile(join(work, path), bytes, { mode: mode === "100755" ? 0o755 : 0o644 })
      } catch {
        missing.push(path)
      }
    }
    return missing
  }
}

/**
 * Copies `path` into `scratch/work` and commits it as one commit on `main` of `scratch/source.git`:
 * a plain directory as it is on disk, a repository (bare, or its work tree) as committed at `HEAD`.
 * `projectDirectory` overrides the project directory; by default it is where `path` sits in its
 * repository (a subdirectory of a work tree), else the root.
 */
export const prepare = async (path: string, scratch: string, projectDirectory: string | undefined): Promise<Source> => {
  const absolute = resolve(path)
  if (!existsSync(absolute) || !statSync(absolute).isDirectory()) throw new Error(`${absolute} is not a directory`)
  const work = join(scratch, "work")
  await mkdir(work, { recursive: true })
  const repository = repositoryOf(absolute)
  let origin: string
  let directory: string
  if (repository === undefined) {
    await cp(absolute, work, { recursive: true, filter: (source) => !source.split("/").includes(".git") })
    origin = `directory ${absolute}`
    directory = projectDirectory ?? ""
  } else {
    const head = gitOut(["--git-dir", repository.gitDir, "rev-parse", "HEAD"]).trim()
    const missing = await checkout(repository.gitDir, head, work)
    origin = `repository ${repository.gitDir} at ${head.slice(0, 12)}` +
      (missing.length === 0 ? "" : ` (${missing.length} blobs absent from it, left out: ${missing.slice(0, 3).join(", ")})`)
    directory = projectDirectory ?? repository.prefix
  }
  git(work, "init", "--quiet", "--initial-branch=main")
  git(work, "add", "--all")
  git(work, "-c", "user.name=Fidelity", "-c", "user.email=fidelity@bench.test", "commit", "--quiet", "--no-verify", "-m", "The repository under test")
  const gitDir = join(scratch, "source.git")
  const url = bareRepository(gitDir)
  git(work, "push", "--quiet", url, "main")
  return { url, gitDir, commit: git(work, "rev-parse", "HEAD").trim(), projectDirectory: directory.replace(/^\.?\/+|\/+$/g, ""), work, origin }
}

// ---------------------------------------------------------------------------------------------
// SUMMARY.md

/** The value of a `key: value` line of YAML indented by `indent` (a regular expression). */
const scalar = (text: string, indent: string, key: string) =>
  new RegExp(`^${indent}${key}:[ \\t]*['"]?([^'"#\\r\\n]+?)['"]?[ \\t]*$`, "m").exec(text)?.[1]

/**
 * GitBook's `.gitbook.yaml` of the project directory: its top-level `root` and the
 * `summary` of its top-level `structure` mapping (defaults otherwise: a `structure` key spelled
 * otherwise, as Airstack's with a zero-width space before it, says nothing).
 */
export const projectLayout = async (source: Source) => {
  const projectRoot = join(source.work, source.projectDirectory)
  const yaml = await readFile(join(projectRoot, ".gitbook.yaml"), "utf8").catch(() => "")
  const structure = /^structure:[ \t]*\n((?:[ \t]+.*(?:\n|$)|[ \t]*\n)*)/m.exec(yaml)?.[1] ?? ""
  const root = join(projectRoot, scalar(yaml, "", "root") ?? ".")
  return { root, summary: join(root, scalar(structure, "[ \\t]+", "summary") ?? "SUMMARY.md") }
}

/** A page SUMMARY.md lists: its file path relative to the content root, and its title. */
export interface SummaryEntry {
  readonly path: string
  readonly title: string
}

/** A SUMMARY.md link's file: `<>` and title left out, markdown's backslash escapes (`error\_001.md`) and URL encoding decoded. */
const decodeTarget = (target: string) => {
  const bare = target.trim().replace(/^<(.*)>$/, "$1").replace(/\s+"[^"]*"$/, "").replace(/^<(.*)>$/, "$1")
    .replace(/\\([!-/:-@[-`{-~])/g, "$1")
  try {
    return decodeURI(bare.split("#")[0]!)
  } catch {
    return bare.split("#")[0]!
  }
}

/** The local pages SUMMARY.md lists (links to URLs are link pages, not counted), each once. */
export const summaryEntries = async (summaryFile: string): Promise<ReadonlyArray<SummaryEntry>> => {
  const text = await readFile(summaryFile, "utf8").catch(() => "")
  const seen = new Set<string>()
  const entries: Array<SummaryEntry> = []
  for (const match of text.matchAll(/^\s*[*+-]\s+\[((?:[^\]\\]|\\.)*)\]\(((?:<[^>]*>|[^)])*)\)/gm)) {
    const target = decodeTarget(match[2]!)
    if (target === "" || /^[a-z][a-z0-9+.-]*:/i.test(target)) continue
    const path = target.replace(/^\.\//, "")
    if (seen.has(path)) continue
    seen.add(path)
    entries.push({ path, title: match[1]! })
  }
  return entries
}

// ---------------------------------------------------------------------------------------------
// Exports

/** A file an export added (A), deleted (D), modified (M) or renamed (R), relative to the repository. */
export interface ChangedFile {
  readonly status: string
  readonly path: string
}

/** Files that differ between two commits of `gitDir`, within `pathspec` (all when empty). */
export const changedFiles = (gitDir: string, from: string, to: string, pathspec: ReadonlyArray<string>): ReadonlyArray<ChangedFile> =>
  gitOut(["--git-dir", gitDir, "diff", "--no-renames", "--name-status", "-z", from, to, "--", ...pathspec])
    .split("\0")
    .filter((s) => s !== "")
    .reduce<Array<ChangedFile>>((files, field, i, fields) => {
      if (i % 2 === 0) files.push({ status: field, path: fields[i + 1]! })
      return files
    }, [])

/** `git diff --stat`'s summary line between two commits of `gitDir`, within `pathspec` (all when empty). */
export const diffStat = (gitDir: string, from: string, to: string, pathspec: ReadonlyArray<string>) =>
  gitOut(["--git-dir", gitDir, "diff", "--shortstat", from, to, "--", ...pathspec]).trim()

/** The head of `main` of a bare repository, or undefined when it has none. */
export const headOf = (gitDir: string) => tryGit(["--git-dir", gitDir, "rev-parse", "--verify", "--quiet", "refs/heads/main"])

/** Fetches `main` of another repository into `gitDir` as `refs/heads/<as>`; its commit. */
export const fetchBranch = (gitDir: string, fromUrl: string, as: string) => {
  gitOut(["--git-dir", gitDir, "fetch", "--quiet", fromUrl, `+refs/heads/main:refs/heads/${as}`])
  return gitOut(["--git-dir", gitDir, "rev-parse", `refs/heads/${as}`]).trim()
}

/** Why a line of a page differs, judged from the line (a heuristic, to group files by cause). */
const lineCause = (line: string) => {
  const text = line.slice(1)
  if (/<a href="#[^"]*" id="[^"]*"><\/a>/.test(text)) return "GitBook heading anchor <a id> dropped or moved"
  if (/^[\w-]+:\s*[>|]-?\s*$/.test(text)) return "folded YAML scalar (>-, |) rewritten"
  if (/^(\s{2,})?[\w-]+:( |$)/.test(text) && !/^\s*[*-] /.test(text)) return `frontmatter \`${/^\s*([\w-]+):/.exec(text)![1]}:\` rewritten`
  if (text.trim() === "") return "blank lines added or removed"
  if (/\{%/.test(text)) return `{% ${/\{%-?\s*(?:end)?([@\w][\w@/.-]*)?/.exec(text)?.[1] ?? ""} %} block rewritten`
  if (/!\[[^\]]*\]\(|<img\b|<figure\b|<picture\b/.test(text)) return "image markup rewritten"
  if (/\]\([^)]*\)|<a\b/.test(text)) return "link markup rewritten"
  if (/^\s*\|/.test(text)) return "table rewritten"
  if (/^#{1,6} /.test(text)) return "heading rewritten"
  if (/^\s*([*+-]|\d+\.) /.test(text)) return "list item rewritten"
  if (/^\s*(```|~~~)/.test(text)) return "code fence rewritten"
  return "other text rewritten"
}

/** Each cause of the differences of one file between two commits, with its first changed line. */
export const diffCauses = (gitDir: string, from: string, to: string, path: string): ReadonlyArray<{ readonly cause: string; readonly example: string }> => {
  const lines = gitOut(["--git-dir", gitDir, "diff", "--unified=0", from, to, "--", path])
    .split("\n")
    .filter((l) => /^[+-]/.test(l) && !/^(\+\+\+|---) /.test(l))
  // What was lost says more than what replaced it: added lines count only where none were removed.
  const judged = lines.some((l) => l.startsWith("-")) ? lines.filter((l) => l.startsWith("-")) : lines
  const causes = new Map<string, string>()
  for (const line of judged) {
    const cause = lineCause(line)
    if (!causes.has(cause)) causes.set(cause, line.slice(0, 160))
  }
  return [...causes].map(([cause, example]) => ({ cause, example }))
}
