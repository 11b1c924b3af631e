/** The markdown pages the editor's round-trip tests read: the committed fixtures and, when present, real GitBook repositories. */
import { execFileSync } from "node:child_process"
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs"
import { join, relative } from "node:path"
import { fileURLToPath } from "node:url"

export type Page = readonly [name: string, markdown: string]

const here = fileURLToPath(new URL(".", import.meta.url))

export const markdownFiles = (dir: string): Array<string> =>
  readdirSync(dir).flatMap((name) => {
    if (name === "node_modules" || name === ".git") return []
    const path = join(dir, name)
    return statSync(path).isDirectory() ? markdownFiles(path) : name.endsWith(".md") ? [path] : []
  })

/** Every committed fixture under packages/document/test (block fixtures, Beefree pages), named by its path there. */
export const fixturePages = (): Array<Page> => markdownFiles(here).toSorted().map((f) => [relative(here, f), readFileSync(f, "utf8")])

/** Real GitBook repositories checked out as folders (only on machines that have them). */
export const CORPORA = [
  ["GitbookIO/public-docs", "/tmp/pd/documentation"],
  ["BeefreeSDK/beefree-sdk-docs", "/tmp/BeefreeSDK+beefree-sdk-docs"],
  ["Airstack-xyz/docs", "/tmp/Airstack-xyz+docs"]
] as const

/** The same repositories as bare git mirrors: every .md file at HEAD. */
export const MIRRORS = [
  ["GitbookIO/public-docs", "/work/.mirror/GitbookIO+public-docs/repo"],
  ["BeefreeSDK/beefree-sdk-docs", "/work/.mirror/BeefreeSDK+beefree-sdk-docs/repo"],
  ["Airstack-xyz/docs", "/work/.mirror/Airstack-xyz+docs/repo"]
] as const

export const folderPages = (dir: string): Array<Page> => markdownFiles(dir).map((f) => [f, readFileSync(f, "utf8")])

export const gitPages = (gitDir: string): Array<Page> => {
  const git = (...args: Array<string>): Buffer => execFileSync("git", ["--git-dir", gitDir, ...args], { maxBuffer: 1 << 30 })
  const entries = git("ls-tree", "-r", "-z", "HEAD")
    .toString("utf8")
    .split("\0")
    .filter((e) => e.endsWith(".md") && e.includes(" blob "))
    .map((e) => {
      const [meta, path] = e.split("\t") as [string, string]
      return [path, meta.split(" ")[2]!] as const
    })
  // One `git cat-file --batch` for every blob: `<sha> blob <size>\n<content>\n` each.
  const batch = execFileSync("git", ["--git-dir", gitDir, "cat-file", "--batch"], { input: entries.map(([, sha]) => sha).join("\n") + "\n", maxBuffer: 1 << 30 })
  let at = 0
  return entries.map(([path]) => {
    const header = batch.indexOf(10, at)
    const size = Number(batch.toString("latin1", at, header).split(" ")[2])
    const text = batch.toString("utf8", header + 1, header + 1 + size)
    at = header + 1 + size + 1
    return [path, text]
  })
}

/** Every corpus page this machine has, named `<repo>:<path>`: the folders when present, else the git mirrors. */
export const corpusPages = (): { readonly pages: Array<Page>; readonly found: Array<string>; readonly missing: Array<string> } => {
  const pages: Array<Page> = []
  const found: Array<string> = []
  const missing: Array<string> = []
  for (const [repo, dir] of CORPORA) {
    const mirror = MIRRORS.find(([r]) => r === repo)![1]
    if (existsSync(dir)) {
      found.push(repo)
      pages.push(...folderPages(dir).map(([n, t]): Page => [`${repo}:${relative(dir, n)}`, t]))
    } else if (existsSync(mirror)) {
      found.push(repo)
      pages.push(...gitPages(mirror).map(([n, t]): Page => [`${repo}:${n}`, t]))
    } else missing.push(repo)
  }
  return { pages, found, missing }
}
