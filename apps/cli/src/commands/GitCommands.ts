/** `quire git`: a space's Git repository, imports and exports, and where they stand. */
import { Effect, Option } from "effect"
import { Argument, Command, Flag } from "effect/cli"
import { ApiErrors, type GitSyncRun, type GitSyncState } from "@quire/api"
import * as Fields from "../Fields.ts"
import * as Output from "../Output.ts"
import { QuireClient } from "../QuireClient.ts"
import * as Wait from "../Wait.ts"

const spaceId = Argument.String("space-id").pipe(Argument.withDescription("The space's id"))

/** A branch as Git sync names it: `main` becomes `refs/heads/main`; a full `refs/heads/...` is kept. */
export const refOf = (branch: string): string => (branch.startsWith("refs/heads/") ? branch : `refs/heads/${branch}`)

const branchFlag = (description: string) => Flag.String("branch").pipe(Flag.withDescription(description))

/** A run for people: `succeeded abc1234 2026-01-31 12:00`, and why it failed on the next line. */
const showRun = (run: GitSyncRun | null): string | undefined => {
  if (run === null) return "never"
  const line = [run.status, run.commit === null ? "" : run.commit.slice(0, 12), Output.when(run.at)].filter((s) => s !== "").join("  ")
  return run.error === null ? line : `${line}\n  error: ${run.error}`
}

/** The sync state for people; `url` never carries credentials (the server does not show them). */
export const showState = (state: GitSyncState): string =>
  Output.details([
    ["repository", state.url],
    ["name", state.repoName],
    ["provider", state.integration],
    ["branch", state.branch],
    ["directory", state.projectDirectory],
    ["automatic sync", Output.yesNo(state.connected)],
    ["credentials", state.credentials ? "stored (never shown)" : "none"],
    ["last import", showRun(state.lastImport)],
    ["last export", showRun(state.lastExport)],
    ["updated", Output.when(state.updatedAt)]
  ])

const connect = Command.make(
  "connect",
  {
    spaceId,
    url: Argument.String("url").pipe(
      Argument.withDescription("The repository's URL; https://user:token@host/... for a private one (stored encrypted, never shown)")
    ),
    branch: branchFlag("The branch to sync with").pipe(Flag.withDefault("main")),
    directory: Flag.String("directory").pipe(
      Flag.withDescription("The docs' root directory inside the repository (default: its root)"),
      Flag.optional
    )
  },
  Effect.fn("quire.git.connect")(function*({ branch, directory, spaceId, url }) {
    const client = yield* QuireClient
    const state = yield* client.git.connectSpaceGitRepository({
      params: { spaceId },
      payload: { url, ref: refOf(branch), ...Fields.optional("repoProjectDirectory", directory) }
    })
    yield* Output.print(state, showState)
  })
).pipe(
  Command.provide(QuireClient.layer),
  Command.withDescription(
    "Connect a space to a Git repository: merges and edits are exported to the branch, pushes (webhook) imported"
  ),
  Command.withExamples([{ command: "quire git connect SPACE_ID https://github.com/acme/docs.git --branch main --directory docs" }])
)

/** The repository of a request: `--url`/`--branch` when given, else the connected repository's. */
const target = Effect.fnUntraced(function*(spaceId: string, url: Option.Option<string>, branch: Option.Option<string>) {
  const client = yield* QuireClient
  if (Option.isSome(url) && Option.isSome(branch)) return { url: url.value, ref: refOf(branch.value) }
  const state = yield* client.git.getSpaceGitInfo({ params: { spaceId } })
  return {
    url: Option.getOrElse(url, () => state.url),
    ref: Option.match(branch, { onNone: () => state.ref, onSome: refOf }),
    ...(state.projectDirectory === "" ? {} : { repoProjectDirectory: state.projectDirectory })
  }
})

const urlFlag = Flag.String("url").pipe(
  Flag.withDescription(
    "The repository's URL (default: the connected repository's, as shown without credentials: give a private one's again)"
  ),
  Flag.optional
)
const force = Flag.Boolean("force").pipe(
  Flag.withDescription("Import: replace content that moved since; export: push over a diverged branch"),
  Flag.withDefault(false)
)

type Direction = "import" | "export"
const runOf = (state: GitSyncState, direction: Direction) => (direction === "import" ? state.lastImport : state.lastExport)

/** The space's last run of `direction` before a new one is queued (null without a state or a run). */
const lastRun = (spaceId: string, direction: Direction) =>
  Effect.gen(function*() {
    const client = yield* QuireClient
    const state = yield* client.git.getSpaceGitInfo({ params: { spaceId } })
    return runOf(state, direction)
  }).pipe(Effect.catchIf((error) => error instanceof ApiErrors.NotFound, () => Effect.succeed(null)))

/**
 * Waits for the run queued after `before` to end: a run that is not `before` and has finished.
 * Prints the state as `git status` does; fails with the run's error.
 */
const waitForRun = Effect.fnUntraced(function*(spaceId: string, direction: Direction, before: GitSyncRun | null, timeout: number) {
  const client = yield* QuireClient
  const state = yield* Wait.until(
    client.git.getSpaceGitInfo({ params: { spaceId } }),
    (state) => {
      const run = runOf(state, direction)
      const fresh = run !== null && (before === null || run.at !== before.at || run.status !== before.status)
      if (run === null || !fresh || run.status === "pending" || run.status === "running") return Wait.running(run?.status ?? "pending")
      return run.status === "failed" ? Wait.failed(run.error ?? "no reason given") : Wait.succeeded
    },
    { what: `The ${direction} of space ${spaceId}`, timeout }
  )
  yield* Output.print(state, showState)
})

const importCommand = Command.make(
  "import",
  {
    spaceId,
    url: urlFlag,
    branch: branchFlag("The branch to import (default: the connected one)").pipe(Flag.optional),
    standalone: Flag.Boolean("standalone").pipe(
      Flag.withDescription("Make a revision without changing the space's content"),
      Flag.withDefault(false)
    ),
    force,
    ...Wait.flags
  },
  Effect.fn("quire.git.import")(function*({ branch, force, spaceId, standalone, timeout, url, wait }) {
    const client = yield* QuireClient
    const repository = yield* target(spaceId, url, branch)
    const before = wait ? yield* lastRun(spaceId, "import") : null
    yield* client.git.importGitRepository({
      params: { spaceId },
      payload: { ...repository, ...(standalone ? { standalone } : {}), ...(force ? { force } : {}) }
    })
    if (wait) return yield* waitForRun(spaceId, "import", before, timeout)
    yield* Output.done(`Import of ${repository.ref} into space ${spaceId} queued; \`quire git status ${spaceId}\` shows how it went.`)
  })
).pipe(
  Command.provide(QuireClient.layer),
  Command.withDescription("Import the repository's branch into the space (runs in the background; --wait waits for it)"),
  Command.withExamples([
    { command: "quire git import SPACE_ID" },
    { command: "quire git import SPACE_ID --wait --timeout 120", description: "Wait for the import; exit 1 with its error if it failed" }
  ])
)

const exportCommand = Command.make(
  "export",
  {
    spaceId,
    message: Flag.String("message").pipe(
      Flag.withAlias("m"),
      Flag.withDescription("The commit message"),
      Flag.withDefault("Update from Quire")
    ),
    url: urlFlag,
    branch: branchFlag("The branch to push to (default: the connected one)").pipe(Flag.optional),
    force,
    ...Wait.flags
  },
  Effect.fn("quire.git.export")(function*({ branch, force, message, spaceId, timeout, url, wait }) {
    const client = yield* QuireClient
    const repository = yield* target(spaceId, url, branch)
    const before = wait ? yield* lastRun(spaceId, "export") : null
    yield* client.git.exportToGitRepository({
      params: { spaceId },
      payload: { ...repository, commitMessage: message, ...(force ? { force } : {}) }
    })
    if (wait) return yield* waitForRun(spaceId, "export", before, timeout)
    yield* Output.done(`Export of space ${spaceId} to ${repository.ref} queued; \`quire git status ${spaceId}\` shows how it went.`)
  })
).pipe(
  Command.provide(QuireClient.layer),
  Command.withDescription("Export the space's content to the branch as one commit (runs in the background; --wait waits for it)"),
  Command.withExamples([
    { command: "quire git export SPACE_ID --message \"Docs from Quire\"" },
    { command: "quire git export SPACE_ID --wait", description: "Wait for the push; exit 1 with its error if it failed" }
  ])
)

const status = Command.make(
  "status",
  { spaceId },
  Effect.fn("quire.git.status")(function*({ spaceId }) {
    const client = yield* QuireClient
    yield* Output.print(yield* client.git.getSpaceGitInfo({ params: { spaceId } }), showState)
  })
).pipe(
  Command.provide(QuireClient.layer),
  Command.withDescription("Show the space's repository, branch and the last import and export")
)

const disconnect = Command.make(
  "disconnect",
  { spaceId },
  Effect.fn("quire.git.disconnect")(function*({ spaceId }) {
    const client = yield* QuireClient
    yield* client.git.disconnectSpaceGitRepository({ params: { spaceId } })
    yield* Output.done(`Space ${spaceId} is no longer synced with Git.`)
  })
).pipe(
  Command.provide(QuireClient.layer),
  Command.withDescription("Forget the space's repository and its sync history")
)

const webhook = Command.make(
  "webhook",
  { spaceId },
  Effect.fn("quire.git.webhook")(function*({ spaceId }) {
    const client = yield* QuireClient
    const found = yield* client.git.getSpaceGitWebhook({ params: { spaceId } })
    yield* Output.print(found, (w) => Output.details([["url", w.url], ["secret", w.secret]]))
  })
).pipe(
  Command.provide(QuireClient.layer),
  Command.withDescription("The push webhook's URL and secret, for the repository host's settings (admins)")
)

/** `quire git ...` */
export const git = Command.make("git").pipe(
  Command.withDescription("Sync a space with a Git repository in GitBook's layout"),
  Command.withSubcommands([connect, importCommand, exportCommand, status, disconnect, webhook])
)
