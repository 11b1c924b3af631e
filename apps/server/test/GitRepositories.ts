/**
 * Git repositories for the tests of Git sync: `git` run as a test author, and a bare repository
 * on this machine (`file://`, which the test servers allow) with some files on `main`.
 */
import { Effect } from "effect"
import { execFileSync } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"

/** Who the test commits are by. */
const author = {
  GIT_AUTHOR_NAME: "Tess",
  GIT_AUTHOR_EMAIL: "tess@example.com",
  GIT_COMMITTER_NAME: "Tess",
  GIT_COMMITTER_EMAIL: "tess@example.com"
}

/** Runs git in `cwd` (a test repository), answering its output. */
export const git = (cwd: string, ...args: ReadonlyArray<string>) =>
  execFileSync("git", args, { cwd, encoding: "utf8", env: { ...process.env, ...author } }).trim()

/** `git fast-import`'s input for one commit "Docs from Git" on `main` holding `files` (regular files). */
const commitOf = (files: Record<string, string>): Buffer => {
  const chunks: Array<Buffer> = []
  const data = (text: string) => {
    const bytes = Buffer.from(text)
    chunks.push(Buffer.from(`data ${bytes.length}\n`), bytes, Buffer.from("\n"))
  }
  chunks.push(Buffer.from(`commit refs/heads/main\ncommitter ${author.GIT_COMMITTER_NAME} <${author.GIT_COMMITTER_EMAIL}> ${Math.floor(Date.now() / 1000)} +0000\n`))
  // What `git commit -m` stores: the message and a newline.
  data("Docs from Git\n")
  for (const [path, text] of Object.entries(files)) {
    chunks.push(Buffer.from(`M 100644 inline ${JSON.stringify(path)}\n`))
    data(text)
  }
  return Buffer.concat(chunks)
}

/**
 * A bare repository holding `files` on `main` in one commit (no commit, no branch, when there are
 * none), removed with the scope; `work` is a clone to push from, made when first asked for. The
 * commit is written by one `git fast-import` rather than a clone, an add, a commit and a push,
 * each a process of its own, and the tests make dozens.
 */
export const bareRepository = (files: Record<string, string>) =>
  Effect.acquireRelease(
    Effect.sync(() => {
      const dir = mkdtempSync(join(tmpdir(), "quire-git-"))
      const bare = join(dir, "docs.git")
      execFileSync("git", ["init", "--quiet", "--bare", "--initial-branch=main", bare])
      const committed = Object.keys(files).length > 0
      if (committed) execFileSync("git", ["fast-import", "--quiet"], { cwd: bare, input: commitOf(files), env: { ...process.env, ...author } })
      let work: string | undefined
      return {
        dir,
        bare,
        url: `file://${bare}`,
        get work(): string {
          if (work !== undefined) return work
          work = join(dir, "work")
          if (committed) execFileSync("git", ["clone", "--quiet", bare, work])
          else execFileSync("git", ["init", "--quiet", "--initial-branch=main", work])
          return work
        }
      }
    }),
    ({ dir }) => Effect.sync(() => rmSync(dir, { recursive: true, force: true }))
  )
