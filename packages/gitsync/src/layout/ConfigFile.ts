/**
 * `.gitbook.yaml`: read (with where it puts the documentation root, readme and summary, which must
 * stay inside the project) and written back, changing only the settings that changed.
 */
import { Result } from "effect"
import { Document, isMap, parseDocument } from "yaml"
import { LayoutProblem } from "./LayoutProblem.ts"
import type { RepositoryConfig, RepositoryFiles } from "./LayoutTypes.ts"
import { insideOf, joinPath } from "./Paths.ts"

export const defaultConfig: RepositoryConfig = { root: "./", readme: "README.md", summary: "SUMMARY.md", redirects: {} }

const decoder = new TextDecoder()

/** The settings of `configPath` (the defaults without one); what it holds that is ignored goes to `warnings`. */
export const readConfig = (
  files: RepositoryFiles,
  configPath: string,
  warnings: Array<string>
): Result.Result<{ config: RepositoryConfig; yaml: string | undefined }, LayoutProblem> => {
  const file = files.get(configPath)
  if (file === undefined) return Result.succeed({ config: defaultConfig, yaml: undefined })
  const yaml = decoder.decode(file.bytes)
  const doc = parseDocument(yaml)
  if (doc.errors.length > 0) {
    const error = doc.errors[0]!
    const line = error.linePos?.[0].line
    return Result.fail(new LayoutProblem({ path: configPath, reason: `not valid YAML${line === undefined ? "" : ` (line ${line})`}: ${error.message.split("\n")[0]}` }))
  }
  let data: unknown
  try {
    data = doc.toJS()
  } catch (error) {
    return Result.fail(new LayoutProblem({ path: configPath, reason: `cannot be read: ${error instanceof Error ? error.message : String(error)}` }))
  }
  if (data === null || data === undefined) return Result.succeed({ config: defaultConfig, yaml })
  if (typeof data !== "object" || Array.isArray(data)) {
    return Result.fail(new LayoutProblem({ path: configPath, reason: "not a mapping of options" }))
  }
  const record = data as Record<string, unknown>
  const text = (value: unknown, name: string, fallback: string): string | LayoutProblem =>
    value === undefined || value === null
      ? fallback
      : typeof value === "string" && value.trim() !== ""
      ? value
      : new LayoutProblem({ path: configPath, reason: `${name} must be a path` })
  const root = text(record["root"], "root", defaultConfig.root)
  if (typeof root !== "string") return Result.fail(root)
  const structure = record["structure"]
  if (structure !== undefined && structure !== null && (typeof structure !== "object" || Array.isArray(structure))) {
    return Result.fail(new LayoutProblem({ path: configPath, reason: "structure must be a mapping (readme, summary)" }))
  }
  const readme = text((structure as Record<string, unknown> | null | undefined)?.["readme"], "structure.readme", defaultConfig.readme)
  if (typeof readme !== "string") return Result.fail(readme)
  const summary = text((structure as Record<string, unknown> | null | undefined)?.["summary"], "structure.summary", defaultConfig.summary)
  if (typeof summary !== "string") return Result.fail(summary)
  const redirects: Record<string, string> = {}
  const source = record["redirects"]
  if (typeof source === "object" && source !== null && !Array.isArray(source)) {
    for (const [from, to] of Object.entries(source)) {
      if (typeof to === "string") redirects[from] = to
      else warnings.push(`${configPath}: redirect ${JSON.stringify(from)} has no target path; ignored`)
    }
  } else if (source !== undefined && source !== null) {
    warnings.push(`${configPath}: redirects is not a mapping; ignored`)
  }
  return Result.succeed({ config: { root, readme, summary, redirects }, yaml })
}

/** Whether `path`, read from a folder, is absolute or climbs above that folder (`../`, `a/../../b`). */
const leavesFolder = (path: string): boolean => {
  if (/^([\\/]|[a-zA-Z]:)/.test(path)) return true
  let depth = 0
  for (const segment of path.split(/[\\/]/)) {
    if (segment === "..") depth--
    else if (segment !== "" && segment !== ".") depth++
    if (depth < 0) return true
  }
  return false
}

/** The documentation root, readme and summary of `config`, which must stay inside the project. */
export const layoutPaths = (
  project: string,
  configPath: string,
  config: RepositoryConfig
): Result.Result<{ docsRoot: string; readmePath: string; summaryPath: string }, LayoutProblem> => {
  // Checked as written: joining clamps `..` at the repository's root, which would read another folder.
  if (leavesFolder(config.root)) {
    const reason = project === "" ? "root leads outside the repository" : "root leads outside the project directory"
    return Result.fail(new LayoutProblem({ path: configPath, reason }))
  }
  const docsRoot = joinPath(project, config.root)
  const readmePath = joinPath(docsRoot, config.readme)
  const summaryPath = joinPath(docsRoot, config.summary)
  if (docsRoot !== project && insideOf(project, docsRoot) === undefined) {
    return Result.fail(new LayoutProblem({ path: configPath, reason: "root leads outside the project directory" }))
  }
  for (const [name, path] of [["structure.readme", readmePath], ["structure.summary", summaryPath]] as const) {
    if (path === docsRoot || insideOf(docsRoot, path) === undefined) {
      return Result.fail(new LayoutProblem({ path: configPath, reason: `${name} leads outside the documentation root` }))
    }
  }
  return Result.succeed({ docsRoot, readmePath, summaryPath })
}

const sortedEntries = (record: Readonly<Record<string, string>>) => Object.entries(record).toSorted(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))

export const sameConfig = (a: RepositoryConfig, b: RepositoryConfig): boolean =>
  a.root === b.root && a.readme === b.readme && a.summary === b.summary &&
  JSON.stringify(sortedEntries(a.redirects)) === JSON.stringify(sortedEntries(b.redirects))

/**
 * The text of `.gitbook.yaml` holding `config`, edited from the previous text (`yaml`, which held
 * `before`) so that its comments and other keys stay; undefined when the settings did not change.
 */
export const writeConfig = (config: RepositoryConfig, before: RepositoryConfig, yaml: string | undefined): string | undefined => {
  if (sameConfig(config, before)) return undefined
  const doc = yaml !== undefined ? parseDocument(yaml) : new Document({})
  if (!isMap(doc.contents)) doc.contents = doc.createNode({}) as typeof doc.contents
  if (config.root !== before.root || yaml === undefined) doc.set("root", config.root)
  if (config.readme !== before.readme || yaml === undefined) doc.setIn(["structure", "readme"], config.readme)
  if (config.summary !== before.summary || yaml === undefined) doc.setIn(["structure", "summary"], config.summary)
  for (const key of Object.keys(before.redirects)) if (!(key in config.redirects)) doc.deleteIn(["redirects", key])
  for (const [key, value] of Object.entries(config.redirects)) if (before.redirects[key] !== value) doc.setIn(["redirects", key], value)
  const redirects = doc.get("redirects")
  if (isMap(redirects) && redirects.items.length === 0) doc.delete("redirects")
  return doc.toString({ lineWidth: 0 })
}
