/**
 * The translations screen's words and conversions: a run's state, its stats, language names, and
 * instructions between a text area's paragraphs and GitBook's `JSONDocument`.
 */
import { Translation } from "@quire/api"

/** GitBook's languages, as the API's schema lists them (one literal set). */
export const languages: ReadonlyArray<Translation["language"]> = Translation.fields.language.literals

let names: Intl.DisplayNames | undefined
/** "French (fr)"; the code alone where the browser knows no name. */
export const languageName = (code: string) => {
  try {
    names ??= new Intl.DisplayNames(["en"], { type: "language" })
    const name = names.of(code)
    return name === undefined || name === code ? code : `${name} (${code})`
  } catch {
    return code
  }
}

/** The run's state in words; `running` while the screen should poll. A run that failed is `completed` with its `failure`. */
export const statusOf = (translation: Pick<Translation, "status" | "failure">) => {
  if (translation.failure !== undefined && translation.status === "completed") return { label: "Failed", running: false }
  switch (translation.status) {
    case "pending":
      return { label: "Waiting to run", running: true }
    case "running":
      return { label: "Running", running: true }
    case "completed":
      return { label: "Up to date", running: false }
  }
}

const plural = (n: number, one: string, many: string) => `${n.toLocaleString("en")} ${n === 1 ? one : many}`

const duration = (seconds: number) => seconds < 1 ? "under a second" : seconds < 90 ? plural(Math.round(seconds), "second", "seconds") : plural(Math.round(seconds / 60), "minute", "minutes")

/** The stats as sentences: the runs, the last run's pages and words and time, and in all. */
export const statsOf = (stats: Translation["stats"]): ReadonlyArray<string> => stats.runs === 0
  ? ["No run yet"]
  : [
    `${plural(stats.runs, "run", "runs")}`,
    `last: ${plural(stats.latestPages, "page", "pages")}, ${plural(stats.latestWords, "word", "words")} in ${duration(stats.latestRunDuration)}`,
    `in all: ${plural(stats.totalPages, "page", "pages")}, ${plural(stats.totalWords, "word", "words")} in ${duration(stats.totalDuration)}`
  ]

/** GitBook's instructions document of a text area's text: one paragraph per block of lines. */
export const instructionsDocument = (text: string) => ({
  object: "document" as const,
  data: {},
  nodes: text.split(/\n\s*\n/).map((part) => part.trim()).filter((part) => part !== "").map((part) => ({
    object: "block",
    type: "paragraph",
    data: {},
    nodes: [{ object: "text", leaves: [{ object: "leaf", text: part, marks: [] }] }]
  }))
})

const isObject = (value: unknown): value is Readonly<Record<string, unknown>> => typeof value === "object" && value !== null

/** The text of an instructions document: its blocks' text, a blank line between blocks. */
export const instructionsText = (document: unknown): string => {
  const textOf = (node: unknown): string => {
    if (!isObject(node)) return ""
    if (Array.isArray(node["leaves"])) return node["leaves"].map((leaf) => (isObject(leaf) && typeof leaf["text"] === "string" ? leaf["text"] : "")).join("")
    if (typeof node["text"] === "string") return node["text"]
    return Array.isArray(node["nodes"]) ? node["nodes"].map(textOf).join("") : ""
  }
  return isObject(document) && Array.isArray(document["nodes"]) ? document["nodes"].map(textOf).filter((text) => text !== "").join("\n\n") : ""
}
