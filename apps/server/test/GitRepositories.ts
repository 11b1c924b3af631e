/**
 * Git repositories for the tests of Git sync: `git` run as a test author, and a bare repository
 * on this machine (`file://`, which the test servers allow) with some files on `main`.
 */
import { Effect } from "effect"
import { execFileSync } from "node:child_process"
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"

/** Runs git in `cwd` (a test repository), answering its output. */
export const git = (cwd: string, ...args: ReadonlyArray<string>) =>
  execFileSync("git", args, {
    cwd,
    encoding: "utf8",
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: "Tess",
      GIT_AUTHOR_EMAIL: "tess@example.com",
      GIT_COMMITTER_NAME: "Tess",
      GIT_COMMITTER_EMAIL: "tess@example.com"
    }
  }).trim()

/**
 * A bare repository holding `files` on `main` in one commit (no commit, no branch, when there are
 * none), with a clone to push from (`work`), removed with the scope.
 */
export const bareRepository = (files: Record<string, string>) =>
  Effect.acquireRelease(
    Effect.sync(() => {
      const dir = mkdtempSync(join(tmpdir(), "quire-git-"))
      const bare = join(dir, "docs.git")
      const work = join(dir, "work")
      execFileSync("git", ["init", "--quiet", "--bare", "--initial-branch=main", bare])
      execFileSync("git", ["init", "--quiet", "--initial-branch=main", work])
      for (const [path, text] of Object.entries(files)) {
        mkdirSync(join(work, path, ".."), { recursive: true })
        writeFileSync(join(work, path), text)
      }
      if (Object.keys(files).length > 0) {
        git(work, "add", ".")
        git(work, "commit", "--quiet", "-m", "Docs from Git")
        git(work, "push", "--quiet", bare, "main")
      }
      return { dir, bare, work, url: `file://${bare}` }
    }),
    ({ dir }) => Effect.sync(() => rmSync(dir, { recursive: true, force: true }))
  )
