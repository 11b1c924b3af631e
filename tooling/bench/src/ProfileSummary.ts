/**
 * Reads a V8 `.cpuprofile` and says where the server's CPU went: self time per area of the
 * stack (Effect runtime, schemas, HTTP, SQL client, Node, GC, …), inclusive time of the areas
 * that call into others, and the hottest functions.
 */
import { readFile } from "node:fs/promises"
import { fileURLToPath } from "node:url"
import * as WebProfile from "./WebProfile.ts"

interface ProfileNode {
  readonly id: number
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number; readonly columnNumber: number }
  readonly children?: ReadonlyArray<number>
}

interface CpuProfile {
  readonly nodes: ReadonlyArray<ProfileNode>
  readonly samples: ReadonlyArray<number>
  readonly timeDeltas: ReadonlyArray<number>
}

/** First match wins: more specific areas before the general ones (effect's dist/ under tsx, its src/ through the build's source maps). */
const areas: ReadonlyArray<readonly [string, (url: string, fn: string) => boolean]> = [
  ["idle", (_, fn) => fn === "(idle)"],
  ["garbage collector", (_, fn) => fn === "(garbage collector)"],
  ["V8/native (program)", (_, fn) => fn === "(program)"],
  ["JSON", (url, fn) => url === "" && /^(stringify|parse)$/.test(fn)],
  ["effect schema", (url) => /effect\/(dist|src)\/(Schema[A-Za-z]*|internal\/schema[A-Za-z]*)\.[jt]s/.test(url)],
  ["effect http-api", (url) => /effect\/(dist|src)\/http-api\//.test(url)],
  ["effect http (router, server)", (url) => /effect\/(dist|src)\/http\//.test(url)],
  ["effect sql + @effect/sql-pg", (url) => /effect\/(dist|src)\/sql\//.test(url) || url.includes("@effect/sql-pg")],
  ["effect tracer/logger", (url) => /effect\/(dist|src)\/(Tracer|Logger|internal\/tracer)\.[jt]s/.test(url)],
  ["effect runtime (fibers, Effect, Context, Layer…)", (url) => /effect\/(dist|src)\//.test(url)],
  ["@effect/platform-node", (url) => url.includes("@effect/platform-node")],
  ["pg (node-postgres)", (url) => /node_modules\/(pg|pg-protocol|pg-types|pg-pool)\//.test(url)],
  ["PGlite", (url) => url.includes("@electric-sql")],
  ["Quire code", (url) => /\/(packages|apps|tooling)\/[^/]+\/src\//.test(url) && !url.includes("node_modules")],
  ["node:http / net / streams", (url) => /^node:(_http|http|net|internal\/(streams|http|net|stream_base|js_stream))/.test(url)],
  ["node:crypto", (url) => url.startsWith("node:") && url.includes("crypto")],
  ["node (other internals)", (url) => url.startsWith("node:")],
  ["native / builtins", (url) => url === ""]
]

const areaOf = (node: ProfileNode) => {
  const { url, functionName } = node.callFrame
  for (const [name, test] of areas) if (test(url, functionName)) return name
  return "other"
}

/** Areas whose inclusive time is worth showing: what they cost with everything they call. */
const inclusiveAreas = new Set([
  "effect schema",
  "effect http-api",
  "effect http (router, server)",
  "effect sql + @effect/sql-pg",
  "effect tracer/logger",
  "Quire code",
  "node:crypto",
  "JSON"
])

const shortUrl = (url: string) => {
  const nm = url.lastIndexOf("node_modules/")
  if (nm >= 0) return url.slice(nm + "node_modules/".length).replace(/\/dist\//, "/")
  const src = url.search(/\/(packages|apps|tooling)\//)
  return src >= 0 ? url.slice(src + 1) : url
}

const pct = (part: number, whole: number) => `${(100 * part / whole).toFixed(1).padStart(5)}%`

/**
 * The sources of the built server's frames (dist/*.mjs), through the build's source maps, so that
 * its profile names the same areas as the sources' did; one mapper reads each map once.
 */
export const builtSources = () =>
  WebProfile.sourceMapper((url) => url.startsWith("file://") && url.endsWith(".mjs") ? `${fileURLToPath(url)}.map` : undefined)

/** `node` as its source says it: the original file, line and name when `sources` maps it. */
const mapped = (node: ProfileNode, sources: ReturnType<typeof builtSources>): ProfileNode => {
  const original = sources(node.callFrame)
  return original === undefined ? node : {
    ...node,
    callFrame: { ...node.callFrame, functionName: original.name ?? node.callFrame.functionName, url: original.source, lineNumber: original.line - 1 }
  }
}

/**
 * A text report of `file`. `cpuPerRequest` (µs) turns shares into per-request costs: the share
 * of busy samples times the server's measured CPU per request.
 */
export const summarize = async (file: string, cpuPerRequest: number, sources = builtSources()): Promise<string> => {
  const read = JSON.parse(await readFile(file, "utf8")) as CpuProfile
  const profile = { ...read, nodes: read.nodes.map((node) => mapped(node, sources)) }
  const byId = new Map(profile.nodes.map((node) => [node.id, node]))
  const parent = new Map<number, number>()
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id)
  const areaById = new Map(profile.nodes.map((node) => [node.id, areaOf(node)]))

  const self = new Map<string, number>()
  const inclusive = new Map<string, number>()
  const hot = new Map<string, number>()
  let busy = 0
  profile.samples.forEach((id, i) => {
    const delta = profile.timeDeltas[i] ?? 0
    const area = areaById.get(id) ?? "other"
    self.set(area, (self.get(area) ?? 0) + delta)
    if (area === "idle") return
    busy += delta
    const node = byId.get(id)!
    const key = `${node.callFrame.functionName || "(anonymous)"}  ${shortUrl(node.callFrame.url)}:${node.callFrame.lineNumber + 1}`
    hot.set(key, (hot.get(key) ?? 0) + delta)
    const seen = new Set<string>()
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const a = areaById.get(at)!
      if (inclusiveAreas.has(a)) seen.add(a)
    }
    for (const a of seen) inclusive.set(a, (inclusive.get(a) ?? 0) + delta)
  })

  const perRequest = (t: number) => `${(cpuPerRequest * t / busy).toFixed(0).padStart(5)} µs/req`
  const lines: Array<string> = []
  lines.push(`  busy samples: ${(busy / 1000).toFixed(0)} ms; shares below are of busy time (${cpuPerRequest.toFixed(0)} µs CPU/req)`)
  lines.push("  self time by area:")
  for (const [area, t] of [...self].filter(([a]) => a !== "idle").toSorted((a, b) => b[1] - a[1])) {
    lines.push(`    ${area.padEnd(50)} ${pct(t, busy)} ${perRequest(t)}`)
  }
  lines.push("  inclusive time (the area and all it calls):")
  for (const [area, t] of [...inclusive].toSorted((a, b) => b[1] - a[1])) {
    lines.push(`    ${area.padEnd(50)} ${pct(t, busy)} ${perRequest(t)}`)
  }
  lines.push("  hottest functions (self):")
  for (const [key, t] of [...hot].toSorted((a, b) => b[1] - a[1]).slice(0, 15)) {
    lines.push(`    ${pct(t, busy)}  ${key}`)
  }
  return lines.join("\n")
}
