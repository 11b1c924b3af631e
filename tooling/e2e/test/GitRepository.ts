/** A local bare Git repository for `quire git` tests: seeded with `files` on `main`, reached over `file://`. */
import { Effect } from "effect"
import { execFileSync } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as nodePath from "node:path"

/** `git <args>` in `cwd` as a fixed author, its output trimmed. */
export const git = (cwd: string, ...args: ReadonlyArray<string>) =>
  execFileSync("git", args, {
    cwd,
    encoding: "utf8",
    env: { ...process.env, GIT_AUTHOR_NAME: "Tess", GIT_AUTHOR_EMAIL: "tess@example.com", GIT_COMMITTER_NAME: "Tess", GIT_COMMITTER_EMAIL: "tess@example.com" }
  }).trim()

/** A bare repository whose `main` holds `files` (path → text) in one commit, removed with the scope. */
export const bareRepository = (files: Readonly<Record<string, string>>) =>
  Effect.acquireRelease(
    Effect.sync(() => {
      const dir = fs.mkdtempSync(nodePath.join(os.tmpdir(), "quire-e2e-git-"))
      const bare = nodePath.join(dir, "docs.git")
      const work = nodePath.join(dir, "work")
      execFileSync("git", ["init", "--quiet", "--bare", "--initial-branch=main", bare])
      execFileSync("git", ["init", "--quiet", "--initial-branch=main", work])
      for (const [path, text] of Object.entries(files)) fs.writeFileSync(nodePath.join(work, path), text)
      git(work, "add", ".")
      git(work, "commit", "--quiet", "-m", "Docs from Git")
      git(work, "push", "--quiet", bare, "main")
      return { dir, bare, url: `file://${bare}` }
    }),
    ({ dir }) => Effect.sync(() => fs.rmSync(dir, { recursive: true, force: true }))
  )
