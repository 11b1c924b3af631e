/**
 * The `quire` command lines of the READMEs' shell blocks run with Node alone (`./quire`, or
 * `start.sh quire` after the build; never a bare `pnpm`), and name commands and flags that exist:
 * each subcommand and flag is looked up in `quire ... --help`, so the READMEs cannot drift from
 * the CLI.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { quire } from "./Quire.ts"

const readmes = ["../../../README.md", "../README.md"].map((path) => {
  const file = fileURLToPath(new URL(path, import.meta.url))
  return { file, text: readFileSync(file, "utf8") }
})

/** The lines of a markdown text's ```sh blocks. */
const shellLines = (markdown: string): ReadonlyArray<string> => {
  const found: Array<string> = []
  let inShell = false
  for (const line of markdown.split("\n")) {
    if (line.startsWith("```")) {
      inShell = !inShell && /^```(?:sh|bash|shell)\s*$/.test(line)
      continue
    }
    if (inShell) found.push(line)
  }
  return found
}

/** A shell line's words up to a comment, a redirection, a pipe or a second command; quotes removed. */
export const words = (line: string): ReadonlyArray<string> => {
  const result: Array<string> = []
  let current: string | undefined
  let quote: string | undefined
  for (const char of line) {
    if (quote !== undefined) {
      if (char === quote) quote = undefined
      else current = (current ?? "") + char
      continue
    }
    if (char === "\"" || char === "'") {
      quote = char
      current ??= ""
      continue
    }
    if (/\s/.test(char)) {
      if (current !== undefined) result.push(current)
      current = undefined
      continue
    }
    if (current === undefined && (char === "#" || char === ">" || char === "|" || char === ";" || char === "&")) break
    current = (current ?? "") + char
  }
  if (current !== undefined) result.push(current)
  return result
}

/** How a README runs the CLI, and what follows it. */
const invocation = (line: string): { readonly launcher: string; readonly args: ReadonlyArray<string> } | undefined => {
  const all = words(line)
  const start = all.findIndex((word) => !/^[A-Z_]+=/.test(word))
  const first = all[start]
  if (first === undefined) return undefined
  // `./quire ...`, `quire ...`, `[sh] tooling/build/start.sh quire ...`, or `pnpm|npx [exec] quire ...` (which the next test refuses).
  const runner = first === "./quire" || first === "quire"
    ? start
    : first.endsWith("start.sh") || first === "sh" || first === "pnpm" || first === "npx"
    ? all.findIndex((word, index) => index > start && index <= start + 3 && word === "quire")
    : -1
  if (runner === -1) return undefined
  return { launcher: all.slice(start, runner + 1).join(" "), args: all.slice(runner + 1) }
}

/** The names (and aliases) under SUBCOMMANDS in a help text. */
const subcommandsOf = (help: string): ReadonlySet<string> => {
  const lines = help.split("\n")
  const start = lines.indexOf("SUBCOMMANDS")
  const section = start === -1 ? [] : lines.slice(start + 1, lines.indexOf("", start) === -1 ? undefined : lines.indexOf("", start))
  return new Set(section.flatMap((line) => (/^ {2}([a-z0-9-]+(?:, [a-z0-9-]+)*)/.exec(line)?.[1] ?? "").split(", ")).filter((name) => name !== ""))
}

const helpCache = new Map<string, string>()
const help = Effect.fnUntraced(function*(path: ReadonlyArray<string>) {
  const key = path.join(" ")
  const cached = helpCache.get(key)
  if (cached !== undefined) return cached
  const run = yield* quire([...path, "--help"])
  assert.strictEqual(run.status, 0, `quire ${key} --help: ${run.stderr}`)
  helpCache.set(key, run.stdout)
  return run.stdout
})

const commandLines = readmes.flatMap(({ file, text }) =>
  shellLines(text).flatMap((line) => {
    const found = invocation(line)
    return found === undefined ? [] : [{ file, line, ...found }]
  })
)

describe("the READMEs' quire commands", () => {
  it("there are some, in both READMEs, and the writer's day is among them", () => {
    for (const { file } of readmes) assert.isTrue(commandLines.some((command) => command.file === file), `no quire command in ${file}`)
    for (const group of ["pages", "files", "comments", "links", "cr"]) {
      assert.isTrue(commandLines.some((command) => command.args[0] === group), `no quire ${group} command`)
    }
  })

  it("run with Node alone: ./quire or start.sh quire, never pnpm", () => {
    for (const { launcher, line } of commandLines) {
      assert.match(launcher, /^(?:\.\/quire|(?:sh )?tooling\/build\/start\.sh quire)$/, line)
    }
    for (const { file, text } of readmes) {
      for (const line of shellLines(text)) assert.notMatch(line, /\bpnpm (?:exec )?quire\b/, `${file}: ${line}`)
    }
  })

  it.effect("name subcommands and flags that exist", () =>
    Effect.gen(function*() {
      const globals = yield* help([])
      for (const { args, line } of commandLines) {
        const path: Array<string> = []
        for (const word of args) {
          if (word.startsWith("-")) break
          if (!subcommandsOf(yield* help(path)).has(word)) break
          path.push(word)
        }
        const leaf = yield* help(path)
        // A command line names a command, not a group of them (unless it asks for its help).
        const asksHelp = args[path.length] === "--help" || args[path.length] === "--version"
        if (!asksHelp) assert.strictEqual(subcommandsOf(leaf).size, 0, `${line}: "quire ${path.join(" ")}" has no subcommand ${JSON.stringify(args[path.length])}`)
        for (const flag of args.filter((word) => /^--[a-z]/.test(word)).map((word) => word.split("=")[0]!)) {
          assert.isTrue(leaf.includes(flag) || globals.includes(flag), `${line}: quire ${path.join(" ")} has no flag ${flag}`)
        }
      }
    }), 60_000)

  it("the tokenizer keeps quoted words and stops at comments and redirections", () => {
    assert.deepStrictEqual(words(`./quire comments post S "Is it true?" --cr 3   # a comment`), ["./quire", "comments", "post", "S", "Is it true?", "--cr", "3"])
    assert.deepStrictEqual(words("./quire pages get S guides/install > install.md"), ["./quire", "pages", "get", "S", "guides/install"])
    assert.deepStrictEqual(invocation("QUIRE_TOKEN=x ./quire orgs list")?.args, ["orgs", "list"])
  })
})
