/**
 * Running git for the CLI transport: each command in an environment built from nothing (the
 * askpass program, the pinned configuration, the remote's credentials), and what a failed one's
 * message means as a GitError.
 */
import { Effect } from "effect"
import { chmodSync, mkdirSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { GitAuthFailed, GitBranchMissing, GitDiverged, type GitError, GitFailed, GitUnreachable } from "../domain/GitErrors.ts"
import type { GitRunnerShape, Run } from "../GitRunner.ts"
import { Redact } from "@quire/kernel"
import type { Prepared } from "./Remotes.ts"

const askpassScript = `#!/bin/sh
# Answers git's credential prompts from the environment, so credentials never reach a command line.
case "$1" in
  Username*) printf '%s\\n' "$QUIRE_GIT_USERNAME" ;;
  *) printf '%s\\n' "$QUIRE_GIT_PASSWORD" ;;
esac
`

/** Environment variables passed through to git: the proxy settings of the machine, nothing else. */
const passedThrough = ["http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY", "no_proxy", "NO_PROXY", "all_proxy", "ALL_PROXY"]

/**
 * Git's message, redacted, on one line and at most 400 characters: the fatal/error lines when there
 * are any, the remote's own (`remote: error: refusing to update checked out branch`) among them;
 * git's closing "failed to push some refs" says nothing the others do not.
 */
export const trimMessage = (stderr: string, secrets: ReadonlyArray<string>): string => {
  const lines = Redact.text(stderr, secrets).split(/\r?\n/).map((line) => line.trim()).filter((line) => line !== "")
  const important = lines.filter((line) => /^(remote:\s*)?(fatal|error):/i.test(line) && !/^error: failed to push some refs/i.test(line))
  const text = (important.length > 0 ? important : lines).join("; ")
  return text.length > 400 ? `${text.slice(0, 397)}...` : text === "" ? "git failed without a message" : text
}

/** What must never show: the password, or the user name when it is the token (no password). */
export const secretsOf = (prepared: Prepared): ReadonlyArray<string> =>
  prepared.password === "" ? [prepared.username] : [prepared.password]

/** What a failed network command's message means. */
export const classify = (prepared: Prepared, run: Run): GitError => {
  const url = prepared.redacted
  const secrets = secretsOf(prepared)
  if (run.timedOut) return new GitUnreachable({ url, reason: "timed out" })
  const stderr = run.stderr
  if (
    /Authentication failed|could not read (Username|Password)|returned error: 40[13]\b|HTTP Basic: Access denied|terminal prompts disabled/i
      .test(stderr)
  ) {
    return new GitAuthFailed({ url })
  }
  if (/couldn't find remote ref|Remote branch .* not found/i.test(stderr)) {
    return new GitBranchMissing({ url, ref: prepared.ref, repositoryEmpty: false })
  }
  if (/non-fast-forward|fetch first|stale info|\[rejected\]/i.test(stderr)) {
    return new GitDiverged({ url, ref: prepared.ref, reason: trimMessage(stderr, secrets) })
  }
  const unreachable = stderr.match(
    /Could not resolve (host|proxy)[^\n]*|Failed to connect[^\n]*|Connection refused|Connection timed out|Operation timed out[^\n]*|Couldn't connect to server|Network is unreachable|No route to host|Connection reset[^\n]*|Empty reply from server|Recv failure[^\n]*/i
  )
  if (unreachable !== null) return new GitUnreachable({ url, reason: Redact.text(unreachable[0], secrets).replace(/\s+/g, " ").trim() })
  return new GitFailed({ url, detail: trimMessage(stderr, secrets) })
}

/** What one command may get besides its arguments: bytes on its stdin, more environment. */
export interface Extra {
  readonly input?: Buffer | string
  readonly env?: Readonly<Record<string, string>>
}

/** Settings of the runner (those of the CLI transport it needs). */
export interface GitProcessOptions {
  readonly cacheDir: string
  readonly allowFile: boolean
  readonly timeoutMs: number
  readonly git: string
}

/** Runs git commands for the transport: every other part of it goes through these. */
export interface GitProcess {
  /** The longest one command may run, in milliseconds. */
  readonly timeoutMs: number
  /** Where the bare cache repositories live. */
  readonly reposDir: string
  /** Where a push builds its index. */
  readonly scratchDir: string
  /** Runs one command, with the credentials of `prepared` when given. */
  readonly run: (cwd: string, args: ReadonlyArray<string>, prepared: Prepared | undefined, extra?: Extra) => Effect.Effect<Run>
  /** A local command that must succeed; a failure is GitFailed with git's message. */
  readonly local: (prepared: Prepared, cwd: string, args: ReadonlyArray<string>, extra?: Extra) => Effect.Effect<Buffer, GitFailed>
}

/** Prepares the cache folder (repositories, scratch space, the askpass program) and answers the runner. */
export const make = (options: GitProcessOptions, runner: GitRunnerShape): GitProcess => {
  const reposDir = join(options.cacheDir, "repos")
  const scratchDir = join(options.cacheDir, "tmp")
  mkdirSync(reposDir, { recursive: true })
  mkdirSync(scratchDir, { recursive: true })
  const askpass = join(options.cacheDir, "askpass.sh")
  writeFileSync(askpass, askpassScript, { mode: 0o700 })
  chmodSync(askpass, 0o700)
  const protocols = options.allowFile ? "http:https:file" : "http:https"

  const baseConfig: ReadonlyArray<readonly [string, string]> = [
    ["protocol.allow", "never"],
    ["protocol.http.allow", "always"],
    ["protocol.https.allow", "always"],
    ["protocol.file.allow", options.allowFile ? "always" : "never"],
    ["core.hooksPath", "/dev/null"],
    ["core.fsmonitor", "false"],
    ["core.askPass", askpass],
    ["credential.helper", ""],
    ["http.followRedirects", "false"],
    ["http.lowSpeedLimit", "1"],
    ["http.lowSpeedTime", String(Math.max(10, Math.ceil(options.timeoutMs / 1000)))],
    ["fetch.recurseSubmodules", "false"],
    ["submodule.recurse", "false"],
    ["gc.autoDetach", "false"],
    ["maintenance.autoDetach", "false"]
  ]

  /** The environment of one git command: built from nothing, so no GIT_* variable of the server leaks in. */
  const environment = (prepared: Prepared | undefined, extra: Readonly<Record<string, string>> = {}) => {
    const env: Record<string, string> = {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: options.cacheDir,
      LC_ALL: "C",
      LANG: "C",
      GIT_TERMINAL_PROMPT: "0",
      GIT_CONFIG_NOSYSTEM: "1",
      GIT_CONFIG_GLOBAL: "/dev/null",
      GIT_ALLOW_PROTOCOL: protocols,
      GIT_ASKPASS: askpass,
      GIT_PROTOCOL_FROM_USER: "0",
      QUIRE_GIT_USERNAME: prepared?.username ?? "",
      QUIRE_GIT_PASSWORD: prepared?.password ?? ""
    }
    for (const name of passedThrough) {
      const value = process.env[name]
      if (value !== undefined) env[name] = value
    }
    const config = [...baseConfig, ...(prepared?.config ?? [])]
    env.GIT_CONFIG_COUNT = String(config.length)
    config.forEach(([key, value], index) => {
      env[`GIT_CONFIG_KEY_${index}`] = key
      env[`GIT_CONFIG_VALUE_${index}`] = value
    })
    return { ...env, ...extra }
  }

  const run = (cwd: string, args: ReadonlyArray<string>, prepared: Prepared | undefined, extra: Extra = {}) =>
    runner.run(options.git, args, {
      cwd,
      env: environment(prepared, extra.env),
      timeoutMs: options.timeoutMs,
      ...(extra.input === undefined ? {} : { input: extra.input })
    })

  const local = (prepared: Prepared, cwd: string, args: ReadonlyArray<string>, extra: Extra = {}) =>
    Effect.flatMap(run(cwd, args, prepared, extra), (result) =>
      result.code === 0
        ? Effect.succeed(result.stdout)
        : Effect.fail(new GitFailed({ url: prepared.redacted, detail: `git ${args[0]}: ${trimMessage(result.stderr, secretsOf(prepared))}` })))

  return { timeoutMs: options.timeoutMs, reposDir, scratchDir, run, local }
}
