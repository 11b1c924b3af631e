import { assert, describe, it } from "@effect/vitest"
import { ConfigProvider, Effect, Layer } from "effect"
import { execFileSync, spawnSync } from "node:child_process"
import { createHash } from "node:crypto"
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import * as http from "node:http"
import { createServer } from "node:net"
import { hostname, tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { afterAll } from "vitest"
import * as GitCli from "../src/GitCli.ts"
import { GitAuthFailed, GitBranchMissing, GitDiverged, GitFailed, GitRemoteRefused, GitTooLarge, GitUnreachable } from "../src/domain/GitErrors.ts"
import { blobOid, type GitPush, GitTransport, MemoryGitRemotes } from "../src/GitTransport.ts"
import { Redact } from "@quire/kernel"
import * as SyncJobs from "../src/SyncJobs.ts"
import * as GitHttpServer from "./GitHttpServer.ts"

const root = mkdtempSync(join(tmpdir(), "quire-gitcli-"))
afterAll(() => rmSync(root, { recursive: true, force: true }))

const gitEnv = {
  PATH: process.env.PATH ?? "/usr/bin:/bin",
  HOME: root,
  LC_ALL: "C",
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_CONFIG_GLOBAL: "/dev/null",
  GIT_AUTHOR_NAME: "Someone",
  GIT_AUTHOR_EMAIL: "someone@example.com",
  GIT_COMMITTER_NAME: "Someone",
  GIT_COMMITTER_EMAIL: "someone@example.com"
}

/** Runs git for the test's own setup and checks. */
const sh = (cwd: string, ...args: Array<string>): string =>
  execFileSync("git", args, { cwd, env: gitEnv, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 }).trim()

let counter = 0
const fresh = (prefix: string) => join(root, `${prefix}-${counter++}`)

/** A new bare repository without commits, in `<root>/srv` (the HTTP server's folder). */
const createBare = (): { readonly name: string; readonly dir: string } => {
  const name = `repo-${counter++}.git`
  const dir = join(root, "srv", name)
  mkdirSync(dir, { recursive: true })
  sh(dir, "init", "--quiet", "--bare", "--initial-branch=main")
  return { name, dir }
}

/** Commits `files` (null deletes) on `ref` of the bare repository `dir` as someone else would, and answers the commit. */
const commitAs = (dir: string, ref: string, files: Readonly<Record<string, string | null>>, message = "someone's change"): string => {
  const work = fresh("work")
  const branch = ref.slice("refs/heads/".length)
  const exists = sh(dir, "for-each-ref", ref) !== ""
  if (exists) sh(root, "clone", "--quiet", "--branch", branch, dir, work)
  else {
    mkdirSync(work)
    sh(work, "init", "--quiet", `--initial-branch=${branch}`)
  }
  for (const [path, content] of Object.entries(files)) {
    const file = join(work, path)
    if (content === null) rmSync(file)
    else {
      mkdirSync(dirname(file), { recursive: true })
      writeFileSync(file, content)
    }
  }
  sh(work, "add", "--all")
  sh(work, "commit", "--quiet", "--allow-empty", "-m", message)
  sh(work, "push", "--quiet", dir, `HEAD:${ref}`)
  const commit = sh(work, "rev-parse", "HEAD")
  rmSync(work, { recursive: true, force: true })
  return commit
}

const headOf = (dir: string, ref: string): string | undefined => {
  const line = sh(dir, "for-each-ref", "--format=%(objectname)", ref)
  return line === "" ? undefined : line
}

const text = (bytes: Uint8Array | undefined) => (bytes === undefined ? undefined : new TextDecoder().decode(bytes))
const encode = (value: string) => new TextEncoder().encode(value)
const author = { name: "Ada Writer", email: "ada@example.com" }
const pushOf = (parent: string | undefined, changes: Readonly<Record<string, string | null>>, extra: Partial<GitPush> = {}): GitPush => ({
  parent,
  changes: new Map(Object.entries(changes).map(([path, value]) => [path, value === null ? null : encode(value)])),
  message: "Update docs",
  author,
  force: false,
  ...extra
})

const cliLayer = (extra: Partial<GitCli.GitCliOptions> = {}) =>
  GitCli.layer({ cacheDir: join(root, "cache"), allowFile: true, allow: ["127.0.0.1"], timeout: "30 seconds", ...extra })

// One contract, two adapters ----------------------------------------------------------------------------

/** A remote the contract can create, move behind the transport's back and inspect. */
interface Fixture {
  readonly create: () => string
  readonly commit: (url: string, ref: string, files: Readonly<Record<string, string | null>>) => string
  readonly head: (url: string, ref: string) => string | undefined
}

const fileFixture: Fixture = {
  create: () => `file://${createBare().dir}`,
  commit: (url, ref, files) => commitAs(new URL(url).pathname, ref, files),
  head: (url, ref) => headOf(new URL(url).pathname, ref)
}

const memoryRemotes = new MemoryGitRemotes()
let memoryCounter = 0
const memoryFixture: Fixture = {
  create: () => `https://git.example.com/memory-${memoryCounter++}.git`,
  commit: (url, ref, files) => memoryRemotes.commit(url, ref, files),
  head: (url, ref) => memoryRemotes.head(url, ref)
}

const adapters: ReadonlyArray<readonly [string, Layer.Layer<GitTransport>, Fixture]> = [
  ["memory", GitTransport.layerTest(memoryRemotes), memoryFixture],
  ["git over file://", cliLayer(), fileFixture]
]

const main = "refs/heads/main"

const fetchOf = (url: string) => Effect.flip(GitTransport.use((git) => git.fetch({ url, ref: main })))

for (const [name, transportLayer, fixture] of adapters) {
  describe(`GitTransport contract: ${name}`, () => {
    it.live("fetches the commit of a branch and its whole tree with blob ids", () =>
      Effect.gen(function*() {
        const url = fixture.create()
        const commit = fixture.commit(url, main, { "README.md": "# Hello\n", "docs/guide.md": "Guide\n", ".gitbook.yaml": "root: ./\n" })
        const git = yield* GitTransport
        const snapshot = yield* git.fetch({ url, ref: main })
        assert.strictEqual(snapshot.commit, commit)
        assert.deepStrictEqual([...snapshot.files.keys()].toSorted(), [".gitbook.yaml", "README.md", "docs/guide.md"])
        assert.strictEqual(text(snapshot.files.get("docs/guide.md")?.bytes), "Guide\n")
        assert.strictEqual(snapshot.files.get("docs/guide.md")?.oid, blobOid(encode("Guide\n")))
      }).pipe(Effect.provide(transportLayer)))

    it.live("pushes one commit holding only the changed files, on the parent", () =>
      Effect.gen(function*() {
        const url = fixture.create()
        fixture.commit(url, main, { "README.md": "# Hello\n", "a.md": "A\n", "old.md": "Old\n" })
        const git = yield* GitTransport
        const before = yield* git.fetch({ url, ref: main })
        const { commit } = yield* git.push({ url, ref: main }, pushOf(before.commit, { "a.md": "A changed\n", "new/b.md": "B\n", "old.md": null }))
        assert.notStrictEqual(commit, before.commit)
        assert.strictEqual(fixture.head(url, main), commit)
        const after = yield* git.fetch({ url, ref: main })
        assert.strictEqual(after.commit, commit)
        assert.deepStrictEqual([...after.files.keys()].toSorted(), ["README.md", "a.md", "new/b.md"])
        assert.strictEqual(text(after.files.get("a.md")?.bytes), "A changed\n")
        assert.strictEqual(after.files.get("README.md")?.oid, before.files.get("README.md")?.oid)
      }).pipe(Effect.provide(transportLayer)))

    it.live("makes no commit when nothing changes", () =>
      Effect.gen(function*() {
        const url = fixture.create()
        const head = fixture.commit(url, main, { "README.md": "# Hello\n" })
        const git = yield* GitTransport
        assert.strictEqual((yield* git.push({ url, ref: main }, pushOf(head, {}))).commit, head)
        assert.strictEqual((yield* git.push({ url, ref: main }, pushOf(head, { "README.md": "# Hello\n" }))).commit, head)
        assert.strictEqual(fixture.head(url, main), head)
      }).pipe(Effect.provide(transportLayer)))

    it.live("refuses a push onto a branch that moved (nothing pushed) unless forced", () =>
      Effect.gen(function*() {
        const url = fixture.create()
        const base = fixture.commit(url, main, { "README.md": "# Hello\n" })
        const theirs = fixture.commit(url, main, { "theirs.md": "Theirs\n" })
        const git = yield* GitTransport
        const error = yield* Effect.flip(git.push({ url, ref: main }, pushOf(base, { "ours.md": "Ours\n" })))
        assert.instanceOf(error, GitDiverged)
        assert.strictEqual(fixture.head(url, main), theirs)
        const forced = yield* git.push({ url, ref: main }, pushOf(base, { "ours.md": "Ours\n" }, { force: true }))
        assert.strictEqual(fixture.head(url, main), forced.commit)
        const after = yield* git.fetch({ url, ref: main })
        assert.deepStrictEqual([...after.files.keys()].toSorted(), ["README.md", "ours.md"])
      }).pipe(Effect.provide(transportLayer)))

    it.live("answers GitBranchMissing for a missing branch, saying when the repository is empty", () =>
      Effect.gen(function*() {
        const git = yield* GitTransport
        const empty = fixture.create()
        const none = yield* Effect.flip(git.fetch({ url: empty, ref: main }))
        assert.instanceOf(none, GitBranchMissing)
        assert.isTrue(none instanceof GitBranchMissing && none.repositoryEmpty)
        const url = fixture.create()
        fixture.commit(url, main, { "README.md": "# Hello\n" })
        const missing = yield* Effect.flip(git.fetch({ url, ref: "refs/heads/nope" }))
        assert.instanceOf(missing, GitBranchMissing)
        assert.isTrue(missing instanceof GitBranchMissing && !missing.repositoryEmpty && missing.ref === "refs/heads/nope")
      }).pipe(Effect.provide(transportLayer)))

    it.live("creates a branch: a root commit in an empty repository, or a new branch from a commit", () =>
      Effect.gen(function*() {
        const git = yield* GitTransport
        const url = fixture.create()
        const root = yield* git.push({ url, ref: main }, pushOf(undefined, { "README.md": "# First\n" }))
        assert.strictEqual(fixture.head(url, main), root.commit)
        const feature = "refs/heads/feature/x"
        const created = yield* git.push({ url, ref: feature }, pushOf(root.commit, { "f.md": "F\n" }, { createBranch: true }))
        assert.strictEqual(fixture.head(url, feature), created.commit)
        assert.strictEqual(fixture.head(url, main), root.commit)
        const again = yield* Effect.flip(git.push({ url, ref: feature }, pushOf(root.commit, { "g.md": "G\n" }, { createBranch: true })))
        assert.instanceOf(again, GitDiverged)
        const onExisting = yield* Effect.flip(git.push({ url, ref: main }, pushOf(undefined, { "x.md": "X\n" })))
        assert.instanceOf(onExisting, GitDiverged)
        assert.strictEqual(fixture.head(url, main), root.commit)
      }).pipe(Effect.provide(transportLayer)))

    it.live("reads only the directory asked for, and refuses a tree beyond its limits naming the limit", () =>
      Effect.gen(function*() {
        const git = yield* GitTransport
        const url = fixture.create()
        fixture.commit(url, main, {
          "docs/README.md": "# Docs\n",
          "docs/guide.md": "0123456789",
          "src/big.bin": "x".repeat(5000)
        })
        const roomy = { maxFileBytes: 1000, maxTreeBytes: 1000, maxTreeFiles: 2 }
        const docs = yield* git.fetch({ url, ref: main }, { directory: "docs", limits: roomy })
        assert.deepStrictEqual([...docs.files.keys()].toSorted(), ["docs/README.md", "docs/guide.md"])
        const refusals: ReadonlyArray<readonly [limits: typeof roomy, limit: string, says: string]> = [
          [{ ...roomy, maxFileBytes: 9 }, "file bytes", "docs/guide.md is 10 bytes, more than the limit of 9 bytes per file (QUIRE_GIT_MAX_FILE_BYTES)"],
          [{ ...roomy, maxTreeBytes: 16 }, "tree bytes", "The tree's files hold 17 bytes, more than the limit of 16 bytes per import (QUIRE_GIT_MAX_TREE_BYTES)"],
          [{ ...roomy, maxTreeFiles: 1 }, "tree files", "The tree holds 2 files, more than the limit of 1 files per import (QUIRE_GIT_MAX_TREE_FILES)"]
        ]
        for (const [limits, limit, says] of refusals) {
          const error = yield* Effect.flip(git.fetch({ url, ref: main }, { directory: "docs", limits }))
          assert.instanceOf(error, GitTooLarge)
          assert.deepStrictEqual([error instanceof GitTooLarge ? error.limit : undefined, error.message], [limit, says])
        }
        // The whole tree: the 5,000-byte file outside docs counts too.
        const whole = yield* Effect.flip(git.fetch({ url, ref: main }, { limits: { ...roomy, maxTreeFiles: 10 } }))
        assert.strictEqual(whole.message, "src/big.bin is 5000 bytes, more than the limit of 1000 bytes per file (QUIRE_GIT_MAX_FILE_BYTES)")
      }).pipe(Effect.provide(transportLayer)))

    it.live("refuses a ref that is not a branch, and a URL git would run a program for", () =>
      Effect.gen(function*() {
        const git = yield* GitTransport
        const error = yield* Effect.flip(git.fetch({ url: fixture.create(), ref: "main" }))
        assert.instanceOf(error, GitRemoteRefused)
        assert.instanceOf(yield* Effect.flip(git.fetch({ url: "ext::sh -c id", ref: main })), GitRemoteRefused)
      }).pipe(Effect.provide(transportLayer)))
  })
}

// The git binary only -------------------------------------------------------------------------------

/** A plain HTTP server on a loopback port for the scope; answers its port. */
const listen = (handler: http.RequestListener) =>
  Effect.acquireRelease(
    Effect.promise(() => new Promise<http.Server>((resolve) => {
      const server = http.createServer(handler)
      server.listen(0, "127.0.0.1", () => resolve(server))
    })),
    (server) => Effect.promise(() => new Promise<void>((resolve) => {
      server.closeAllConnections()
      server.close(() => resolve())
    }))
  ).pipe(Effect.map((server) => (server.address() as { port: number }).port))

const closedPort = () =>
  new Promise<number>((resolve) => {
    const server = createServer()
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })

const credentials = { username: "writer", password: "s3cret-Tok3n!" }

describe("GitCli", () => {
  it.live("blob ids are git's", () =>
    Effect.gen(function*() {
      const { dir } = createBare()
      commitAs(dir, main, { "a.txt": "Guide\n" })
      const git = yield* GitTransport
      const snapshot = yield* git.fetch({ url: `file://${dir}`, ref: main })
      assert.strictEqual(snapshot.files.get("a.txt")?.oid, sh(dir, "rev-parse", `${main}:a.txt`))
    }).pipe(Effect.provide(cliLayer())))

  it.live("a file beyond the limit is never read: the listing's sizes refuse it before any cat-file", () =>
    Effect.gen(function*() {
      const log = join(fresh("argv"), "argv.log")
      mkdirSync(dirname(log), { recursive: true })
      const wrapper = join(dirname(log), "git")
      writeFileSync(wrapper, `#!/bin/sh\nprintf '%s\\n' "$*" >> '${log}'\nexec /usr/bin/git "$@"\n`)
      chmodSync(wrapper, 0o755)
      const { dir } = createBare()
      commitAs(dir, main, { "README.md": "# Hello\n", "big.bin": "b".repeat(3 * 1024 * 1024) })
      const limits = { maxFileBytes: 1024 * 1024, maxTreeBytes: 64 * 1024 * 1024, maxTreeFiles: 100 }
      const error = yield* Effect.flip(
        GitTransport.use((git) => git.fetch({ url: `file://${dir}`, ref: main }, { limits })).pipe(Effect.provide(cliLayer({ git: wrapper, cacheDir: fresh("cache") })))
      )
      assert.strictEqual(error.message, "big.bin is 3145728 bytes, more than the limit of 1048576 bytes per file (QUIRE_GIT_MAX_FILE_BYTES)")
      const commands = readFileSync(log, "utf8").split("\n").map((line) => line.split(" ")[0])
      assert.include(commands, "ls-tree")
      assert.notInclude(commands, "cat-file")
    }))

  it.live("reads a tree larger than one read batch (16 MiB) whole, blob by blob", () =>
    Effect.gen(function*() {
      const { dir } = createBare()
      const size = 7 * 1024 * 1024
      commitAs(dir, main, { "a.bin": "a".repeat(size), "b.bin": "b".repeat(size), "c.bin": "c".repeat(size), "d.md": "# D\n" })
      const git = yield* GitTransport
      const snapshot = yield* git.fetch({ url: `file://${dir}`, ref: main }, { limits: { maxFileBytes: size, maxTreeBytes: 4 * size, maxTreeFiles: 4 } })
      for (const name of ["a", "b", "c"]) {
        const bytes = snapshot.files.get(`${name}.bin`)!.bytes
        assert.deepStrictEqual([bytes.byteLength, bytes[0], bytes[size - 1]], [size, name.charCodeAt(0), name.charCodeAt(0)])
      }
      assert.strictEqual(text(snapshot.files.get("d.md")?.bytes), "# D\n")
    }).pipe(Effect.provide(cliLayer())))

  it.live("changes only the files it was given (git diff --name-only) and keeps author and message", () =>
    Effect.gen(function*() {
      const { dir } = createBare()
      const files: Record<string, string> = {}
      for (let i = 0; i < 20; i++) files[`p/${i}.md`] = `page ${i}\n`
      const parent = commitAs(dir, main, files)
      const git = yield* GitTransport
      const { commit } = yield* git.push({ url: `file://${dir}`, ref: main }, pushOf(parent, { "p/3.md": "three\n", "p/7.md": null, "q.md": "new\n" }))
      assert.deepStrictEqual(sh(dir, "diff", "--name-only", parent, commit).split("\n").toSorted(), ["p/3.md", "p/7.md", "q.md"])
      assert.strictEqual(sh(dir, "log", "-1", "--format=%an <%ae>|%cn|%s|%P", commit), `Ada Writer <ada@example.com>|Ada Writer|Update docs|${parent}`)
    }).pipe(Effect.provide(cliLayer())))

  it.live("pushes on a parent the cache never fetched (another process's commit)", () =>
    Effect.gen(function*() {
      const { dir } = createBare()
      const parent = commitAs(dir, main, { "a.md": "A\n" })
      const git = yield* GitTransport
      const { commit } = yield* git.push({ url: `file://${dir}`, ref: main }, pushOf(parent, { "b.md": "B\n" }))
      assert.strictEqual(headOf(dir, main), commit)
    }).pipe(Effect.provide(cliLayer({ cacheDir: fresh("cache") }))))

  it.live("a push git refuses keeps git's own reason and the local path (a checked-out branch of a working copy)", () =>
    Effect.gen(function*() {
      const work = fresh("checked-out")
      mkdirSync(work)
      sh(work, "init", "--quiet", "--initial-branch=main")
      writeFileSync(join(work, "README.md"), "# Hello\n")
      sh(work, "add", "-A")
      sh(work, "commit", "--quiet", "-m", "first")
      const url = `file://${work}`
      const git = yield* GitTransport
      const before = yield* git.fetch({ url, ref: main })
      const error = yield* Effect.flip(git.push({ url, ref: main }, pushOf(before.commit, { "a.md": "A\n" })))
      assert.instanceOf(error, GitFailed)
      assert.include(error.message, "refusing to update checked out branch")
      assert.include(error.message, work)
      assert.notInclude(error.message, "***")
    }).pipe(Effect.provide(cliLayer())))

  it.live("refuses file:// without the setting, other protocols, and non-public http addresses", () =>
    Effect.gen(function*() {
      const { dir } = createBare()
      const refused = fetchOf
      const file = yield* refused(`file://${dir}`).pipe(Effect.provide(cliLayer({ allowFile: false })))
      assert.instanceOf(file, GitRemoteRefused)
      assert.isTrue(file instanceof GitRemoteRefused && file.reason === "protocol")
      const noAllow = cliLayer({ allow: [] })
      for (const url of ["ext::sh -c touch% /tmp/pwned", "ssh://git@example.com/x.git", "git://example.com/x.git"]) {
        const error = yield* refused(url).pipe(Effect.provide(noAllow))
        assert.instanceOf(error, GitRemoteRefused, url)
      }
      for (const url of ["http://127.0.0.1:1/x.git", "http://localhost/x.git", "http://169.254.169.254/x.git", "http://[::1]/x.git", "http://10.1.2.3/x.git"]) {
        const error = yield* refused(url).pipe(Effect.provide(noAllow))
        assert.isTrue(error instanceof GitRemoteRefused && error.reason === "blocked", url)
      }
      const rebinding = yield* refused("https://docs.example.com/x.git").pipe(
        Effect.provide(cliLayer({ allow: [], resolve: () => Promise.resolve([{ address: "10.0.0.7", family: 4 }]) }))
      )
      assert.isTrue(rebinding instanceof GitRemoteRefused && rebinding.reason === "blocked")
    }))

  it.live("never runs the remote repository's hooks", () =>
    Effect.gen(function*() {
      const { dir } = createBare()
      const parent = commitAs(dir, main, { "a.md": "A\n" })
      const marker = join(fresh("marker"), "ran")
      for (const hook of ["pre-receive", "update", "post-receive", "post-update"]) {
        writeFileSync(join(dir, "hooks", hook), `#!/bin/sh\nmkdir -p '${dirname(marker)}'\ntouch '${marker}'\n`)
        chmodSync(join(dir, "hooks", hook), 0o755)
      }
      const git = yield* GitTransport
      const { commit } = yield* git.push({ url: `file://${dir}`, ref: main }, pushOf(parent, { "b.md": "B\n" }))
      assert.strictEqual(headOf(dir, main), commit)
      assert.isFalse(existsSync(marker))
    }).pipe(Effect.provide(cliLayer())))

  it.live("reads its settings from the environment (file:// only with QUIRE_GIT_ALLOW_FILE)", () =>
    Effect.gen(function*() {
      const { dir } = createBare()
      commitAs(dir, main, { "a.md": "A\n" })
      const fetchWith = (env: Record<string, string>) =>
        GitTransport.use((git) => git.fetch({ url: `file://${dir}`, ref: main })).pipe(
          Effect.provide(GitCli.layerConfig.pipe(Layer.provide(ConfigProvider.layer(ConfigProvider.fromUnknown(env)))))
        )
      const refused = yield* Effect.flip(fetchWith({ QUIRE_GIT_CACHE_DIR: fresh("cache") }))
      assert.instanceOf(refused, GitRemoteRefused)
      const snapshot = yield* fetchWith({ QUIRE_GIT_CACHE_DIR: fresh("cache"), QUIRE_GIT_ALLOW_FILE: "1" })
      assert.deepStrictEqual([...snapshot.files.keys()], ["a.md"])
    }))

  it.live("answers GitUnreachable for a refused connection and an unknown host", () =>
    Effect.gen(function*() {
      const port = yield* Effect.promise(closedPort)
      const git = yield* GitTransport
      const refused = yield* Effect.flip(git.fetch({ url: `http://${credentials.username}:${credentials.password}@127.0.0.1:${port}/x.git`, ref: main }))
      assert.instanceOf(refused, GitUnreachable)
      assert.notInclude(refused.message, credentials.password)
      assert.include(refused.message, "***@127.0.0.1")
      const unknown = yield* Effect.flip(git.fetch({ url: "https://nothing.invalid/x.git", ref: main }))
      assert.instanceOf(unknown, GitUnreachable)
    }).pipe(Effect.provide(cliLayer())))

  it.live("follows no redirect, and gives up on a server that never answers", () =>
    Effect.gen(function*() {
      const hits = { target: 0 }
      const target = yield* listen((_req, res) => {
        hits.target++
        res.end()
      })
      const redirecting = yield* listen((_req, res) => {
        res.writeHead(302, { location: `http://127.0.0.1:${target}/x.git/info/refs?service=git-upload-pack` })
        res.end()
      })
      const silent = yield* listen(() => {})
      const git = yield* GitTransport
      const redirected = yield* Effect.flip(git.fetch({ url: `http://127.0.0.1:${redirecting}/x.git`, ref: main }))
      assert.instanceOf(redirected, GitFailed)
      assert.strictEqual(hits.target, 0)
      const started = Date.now()
      const hung = yield* Effect.flip(git.fetch({ url: `http://127.0.0.1:${silent}/x.git`, ref: main }))
      assert.instanceOf(hung, GitUnreachable)
      assert.include(hung.message, "timed out")
      assert.isBelow(Date.now() - started, 10_000)
    }).pipe(Effect.scoped, Effect.provide(cliLayer({ timeout: "2 seconds", cacheDir: fresh("cache") }))))

  it.live("breaks a cache lock left by a process that died, and waits for one whose owner lives", () =>
    Effect.gen(function*() {
      const { dir } = createBare()
      commitAs(dir, main, { "a.md": "A\n" })
      const url = `file://${dir}`
      const cacheDir = fresh("cache")
      const lock = join(cacheDir, "repos", `${createHash("sha256").update(url).digest("hex").slice(0, 32)}.git.lock`)
      const dead = spawnSync("true").pid
      mkdirSync(lock, { recursive: true })
      writeFileSync(join(lock, "owner"), `${hostname()} ${dead}`)
      const layer = cliLayer({ cacheDir, timeout: "2 seconds" })
      const snapshot = yield* GitTransport.use((git) => git.fetch({ url, ref: main })).pipe(Effect.provide(layer))
      assert.deepStrictEqual([...snapshot.files.keys()], ["a.md"])
      assert.isFalse(existsSync(lock))
      mkdirSync(lock)
      writeFileSync(join(lock, "owner"), `${hostname()} ${process.ppid}`)
      const waited = yield* Effect.flip(GitTransport.use((git) => git.fetch({ url, ref: main })).pipe(Effect.provide(layer)))
      assert.instanceOf(waited, GitFailed)
      assert.include(waited.message, "locked")
    }))

  it.live("lets concurrent jobs on one remote take turns on its cache", () =>
    Effect.gen(function*() {
      const { dir } = createBare()
      const head = commitAs(dir, main, { "a.md": "A\n" })
      const git = yield* GitTransport
      const url = `file://${dir}`
      const results = yield* Effect.all([
        git.fetch({ url, ref: main }),
        git.fetch({ url, ref: main }),
        git.push({ url, ref: "refs/heads/one" }, pushOf(head, { "1.md": "1\n" }, { createBranch: true })),
        git.push({ url, ref: "refs/heads/two" }, pushOf(head, { "2.md": "2\n" }, { createBranch: true }))
      ], { concurrency: "unbounded" })
      assert.strictEqual(results.length, 4)
      assert.isDefined(headOf(dir, "refs/heads/one"))
      assert.isDefined(headOf(dir, "refs/heads/two"))
    }).pipe(Effect.provide(cliLayer())))

  describe("over HTTP with basic authentication (git http-backend)", () => {
    it.live("fetches and pushes with the URL's credentials; refuses wrong or missing ones without showing them", () =>
      Effect.gen(function*() {
        const server = yield* GitHttpServer.start({ root: join(root, "srv"), credentials })
        const { name, dir } = createBare()
        const parent = commitAs(dir, main, { "README.md": "# Hello\n" })
        const git = yield* GitTransport
        const url = server.url(name, credentials)
        const snapshot = yield* git.fetch({ url, ref: main })
        assert.strictEqual(snapshot.commit, parent)
        const { commit } = yield* git.push({ url, ref: main }, pushOf(parent, { "page.md": "Page\n" }))
        assert.strictEqual(headOf(dir, main), commit)

        const wrong = server.url(name, { username: credentials.username, password: "wrong-Passw0rd" })
        for (const attempt of [git.fetch({ url: wrong, ref: main }), git.push({ url: wrong, ref: main }, pushOf(commit, { "x.md": "X\n" }))]) {
          const error = yield* Effect.flip(attempt)
          assert.instanceOf(error, GitAuthFailed)
          assert.notInclude(error.message, "wrong-Passw0rd")
          assert.notInclude(JSON.stringify(error), "wrong-Passw0rd")
          assert.include(error.message, `http://***@127.0.0.1:${server.port}/${name}`)
        }
        const anonymous = yield* Effect.flip(git.fetch({ url: server.url(name), ref: main }))
        assert.instanceOf(anonymous, GitAuthFailed)
        assert.strictEqual(headOf(dir, main), commit)
      }).pipe(Effect.scoped, Effect.provide(cliLayer())))

    it.live("connects to the address that was checked (a host name git cannot resolve itself)", () =>
      Effect.gen(function*() {
        const server = yield* GitHttpServer.start({ root: join(root, "srv"), credentials })
        const { name, dir } = createBare()
        const head = commitAs(dir, main, { "a.md": "A\n" })
        const layer = cliLayer({
          allow: ["git.quire.test"],
          resolve: () => Promise.resolve([{ address: "127.0.0.1", family: 4 }]),
          cacheDir: fresh("cache")
        })
        for (const host of ["git.quire.test", "git.quire.test."]) {
          const url = `http://${credentials.username}:${encodeURIComponent(credentials.password)}@${host}:${server.port}/${name}`
          const snapshot = yield* GitTransport.use((git) => git.fetch({ url, ref: main })).pipe(Effect.provide(layer))
          assert.strictEqual(snapshot.commit, head)
        }
      }).pipe(Effect.scoped))

    it.live("keeps credentials off every command line (git's own trace of every process it runs)", () =>
      Effect.gen(function*() {
        const trace = join(fresh("trace"), "trace.log")
        mkdirSync(dirname(trace), { recursive: true })
        const wrapper = join(dirname(trace), "git")
        writeFileSync(wrapper, `#!/bin/sh\nprintf '%s\\n' "argv: $*" >> '${trace}'\nGIT_TRACE='${trace}' exec /usr/bin/git "$@"\n`)
        chmodSync(wrapper, 0o755)
        const server = yield* GitHttpServer.start({ root: join(root, "srv"), credentials })
        const { name, dir } = createBare()
        const parent = commitAs(dir, main, { "README.md": "# Hello\n" })
        const url = server.url(name, credentials)
        yield* Effect.gen(function*() {
          const git = yield* GitTransport
          yield* git.fetch({ url, ref: main })
          yield* git.push({ url, ref: main }, pushOf(parent, { "page.md": "Page\n" }))
          yield* Effect.flip(git.push({ url, ref: main }, pushOf(parent, { "other.md": "Other\n" })))
        }).pipe(Effect.provide(cliLayer({ git: wrapper, cacheDir: fresh("cache") })))
        assert.isTrue(existsSync(trace))
        const log = readFileSync(trace, "utf8")
        assert.include(log, "argv: fetch")
        assert.include(log, "argv: push")
        assert.include(log, "remote-http")
        assert.notInclude(log, credentials.password)
        assert.notInclude(log, encodeURIComponent(credentials.password))
        assert.notInclude(log, Buffer.from(`${credentials.username}:${credentials.password}`).toString("base64"))
      }).pipe(Effect.scoped))

    // Times of a 1,000-page fetch and push with the real git are measured by `pnpm bench --git`, not here.
    it.live("fetches a 1,000-file repository and pushes a one-file change", () =>
      Effect.gen(function*() {
        const server = yield* GitHttpServer.start({ root: join(root, "srv"), credentials })
        const { name, dir } = createBare()
        const files: Record<string, string> = {}
        for (let i = 0; i < 1000; i++) files[`section-${i % 10}/page-${i}.md`] = `# Page ${i}\n\n${"Some text of the page. ".repeat(40)}\n`
        const parent = commitAs(dir, main, files)
        const git = yield* GitTransport
        const url = server.url(name, credentials)
        const snapshot = yield* git.fetch({ url, ref: main })
        assert.strictEqual(snapshot.files.size, 1000)
        const { commit } = yield* git.push({ url, ref: main }, pushOf(parent, { "section-3/page-3.md": "# Page 3\n\nRewritten.\n" }))
        assert.deepStrictEqual(sh(dir, "diff", "--name-only", parent, commit), "section-3/page-3.md")
        const again = yield* git.fetch({ url, ref: main })
        assert.strictEqual(again.commit, commit)
        const full = new Map<string, string | null>()
        for (let i = 0; i < 1000; i++) full.set(`export/page-${i}.md`, `# Exported ${i}\n`)
        yield* git.push({ url, ref: main }, pushOf(commit, Object.fromEntries(full)))
      }).pipe(Effect.scoped, Effect.provide(cliLayer({ cacheDir: fresh("cache") }))))
  })
})

describe("Redact", () => {
  it("masks a remote's credentials, and the URL holding them, never a URL without them (a local path)", () => {
    assert.deepStrictEqual(SyncJobs.secretsOf("file:///srv/docs"), [])
    assert.deepStrictEqual(SyncJobs.secretsOf("https://github.com/acme/docs.git"), [])
    assert.deepStrictEqual(SyncJobs.secretsOf("https://bot:tok%21en@github.com/acme/docs.git"), ["https://bot:tok%21en@github.com/acme/docs.git", "tok!en", "bot"])
    assert.deepStrictEqual(SyncJobs.secretsOf("not a url"), [])
  })

  it("removes credentials from URLs and messages", () => {
    assert.strictEqual(Redact.url("https://user:tok@github.com/a/b.git"), "https://***@github.com/a/b.git")
    assert.strictEqual(Redact.url("https://github.com/a/b.git"), "https://github.com/a/b.git")
    assert.strictEqual(Redact.withoutCredentials("https://user:tok@github.com/a/b.git"), "https://github.com/a/b.git")
    assert.strictEqual(
      Redact.text("fatal: unable to access 'https://x:y@h/r.git/': token s3cret! and s3cret%21", ["s3cret!"]),
      "fatal: unable to access 'https://***@h/r.git/': token *** and ***"
    )
  })
})
