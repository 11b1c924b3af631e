/**
 * Chromium's CPU profile of one page (CDP `Profiler`) for `pnpm bench --web --profile`, and its
 * summary: self time by original source (the build's source maps: an app file, or the package a
 * dependency's code is from), by browser activity (GC, layout and painting show as `(program)`),
 * and the hottest functions with their original file and line.
 */
import type { Page } from "playwright-core"
import { existsSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"

/** Starts sampling the page's main thread; it first goes to `/health` of `origin`, so the renderer process stays when the measured navigation starts. */
export const start = async (page: Page, origin: string) => {
  if (!page.url().startsWith(origin)) await page.goto(`${origin}/health`)
  const cdp = await page.context().newCDPSession(page)
  await cdp.send("Profiler.enable")
  await cdp.send("Profiler.setSamplingInterval", { interval: 200 })
  await cdp.send("Profiler.start")
  return {
    stop: async (file: string) => {
      const { profile } = await cdp.send("Profiler.stop")
      writeFileSync(file, JSON.stringify(profile))
      await cdp.detach()
    }
  }
}

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

interface SourceMap {
  readonly sources: ReadonlyArray<string>
  readonly names: ReadonlyArray<string>
  readonly mappings: string
}

/** Per generated line, its segments as [column, source, original line, name] sorted by column. */
type Decoded = ReadonlyArray<ReadonlyArray<readonly [number, number, number, number]>>

const base64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"

/** The source map's `mappings` (base64 VLQ, fields relative to the previous segment). */
const decode = (mappings: string): Decoded => {
  const lines: Array<Array<readonly [number, number, number, number]>> = []
  let source = 0, line = 0, name = 0
  for (const text of mappings.split(";")) {
    const segments: Array<readonly [number, number, number, number]> = []
    let column = 0
    for (const segment of text.split(",")) {
      if (segment === "") continue
      const fields: Array<number> = []
      let value = 0, shift = 0
      for (const char of segment) {
        const digit = base64.indexOf(char)
        value += (digit & 31) << shift
        if (digit & 32) shift += 5
        else {
          fields.push(value & 1 ? -(value >>> 1) : value >>> 1)
          value = 0
          shift = 0
        }
      }
      column += fields[0] ?? 0
      if (fields.length >= 4) {
        source += fields[1]!
        line += fields[2]!
        if (fields.length >= 5) name += fields[4]!
        segments.push([column, source, line, fields.length >= 5 ? name : -1])
      }
    }
    lines.push(segments)
  }
  return lines
}

/** Where a generated position comes from: the original source and line, and the name there. */
const originalOf = (map: SourceMap, decoded: Decoded, line: number, column: number) => {
  const segments = decoded[line] ?? []
  let found: readonly [number, number, number, number] | undefined
  for (const segment of segments) {
    if (segment[0] > column) break
    found = segment
  }
  if (found === undefined) return undefined
  return { source: map.sources[found[1]] ?? "?", line: found[2] + 1, name: found[3] >= 0 ? map.names[found[3]] : undefined }
}

/** A dependency's package (`react-dom`, `@tiptap/core`), or the app's file below apps/web. */
const areaOf = (source: string) => {
  const nm = source.lastIndexOf("node_modules/")
  if (nm >= 0) {
    const parts = source.slice(nm + "node_modules/".length).split("/")
    return parts[0]!.startsWith("@") ? `${parts[0]}/${parts[1]}` : parts[0]!
  }
  const src = source.search(/(apps|packages)\//)
  return src >= 0 ? source.slice(src) : source.replace(/^(\.\.\/)+/, "")
}

const pct = (part: number, whole: number) => `${(100 * part / whole).toFixed(1).padStart(5)}%`

type CallFrame = ProfileNode["callFrame"]

/**
 * Where a call frame's code comes from, through the source map that `mapPathOf` names for its
 * script's URL (none: undefined); each map is read and decoded once per mapper.
 */
export const sourceMapper = (mapPathOf: (url: string) => string | undefined) => {
  const maps = new Map<string, { map: SourceMap; decoded: Decoded } | undefined>()
  const mapOf = (url: string) => {
    if (!maps.has(url)) {
      const path = mapPathOf(url)
      const map = path !== undefined && existsSync(path) ? JSON.parse(readFileSync(path, "utf8")) as SourceMap : undefined
      maps.set(url, map === undefined ? undefined : { map, decoded: decode(map.mappings) })
    }
    return maps.get(url)
  }
  return (frame: CallFrame) => {
    const mapped = mapOf(frame.url)
    return mapped === undefined ? undefined : originalOf(mapped.map, mapped.decoded, frame.lineNumber, frame.columnNumber)
  }
}

/** Names call frames through the build's source maps in `outDir`: `name  source:line`, and the area (package or app file) of each. */
export const namer = (outDir: string) => {
  const originalOfFrame = sourceMapper((url) =>
    url.includes("/app/assets/") ? join(outDir, "assets", `${new URL(url).pathname.split("/").pop()}.map`) : undefined)
  const area = (frame: CallFrame): string => {
    const original = originalOfFrame(frame)
    return original !== undefined ? areaOf(original.source)
      : frame.url === "" ? (frame.functionName.startsWith("(") ? frame.functionName : "(native)") : frame.url.replace(/^https?:\/\/[^/]+/, "")
  }
  const name = (frame: CallFrame): string => {
    const original = originalOfFrame(frame)
    return original !== undefined
      ? `${original.name ?? frame.functionName ?? "(anonymous)"}  ${areaOf(original.source) === original.source ? original.source : original.source.slice(original.source.lastIndexOf("node_modules/") + 13)}:${original.line}`
      : `${frame.functionName || "(anonymous)"}  ${area(frame)}`
  }
  return Object.assign(name, { area })
}

/** The report of the profile in `file`, with the source maps of the build in `outDir`. */
export const summarize = (file: string, outDir: string): string => {
  const profile = JSON.parse(readFileSync(file, "utf8")) as CpuProfile
  const name = namer(outDir)
  const byId = new Map(profile.nodes.map((node) => [node.id, node]))
  const parentOf = new Map<number, number>()
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id)
  const keys = new Map<number, string>()
  const keyOfNode = (id: number): string => {
    let key = keys.get(id)
    if (key === undefined) {
      key = name(byId.get(id)!.callFrame)
      keys.set(id, key)
    }
    return key
  }
  /** Time with the function on the stack (once per sample however deep it recurs). */
  const inclusive = new Map<string, number>()
  const self = new Map<string, number>()
  const hot = new Map<string, number>()
  let total = 0, busy = 0
  profile.samples.forEach((id, i) => {
    const delta = (profile.timeDeltas[i] ?? 0) / 1000
    total += delta
    const frame = byId.get(id)!.callFrame
    if (frame.functionName === "(idle)") return
    busy += delta
    const area = name.area(frame)
    self.set(area, (self.get(area) ?? 0) + delta)
    const own = keyOfNode(id)
    hot.set(own, (hot.get(own) ?? 0) + delta)
    const onStack = new Set<string>([own])
    for (let node: number | undefined = parentOf.get(id); node !== undefined && byId.get(node)!.callFrame.functionName !== "(root)"; node = parentOf.get(node)) onStack.add(keyOfNode(node))
    for (const key of onStack) inclusive.set(key, (inclusive.get(key) ?? 0) + delta)
  })
  const lines = [`  ${busy.toFixed(0)} ms busy of ${total.toFixed(0)} ms sampled; self time by source (program: the browser's own work, layout and paint among it):`]
  for (const [area, t] of [...self].toSorted((a, b) => b[1] - a[1]).slice(0, 14)) lines.push(`    ${area.padEnd(56)} ${pct(t, busy)} ${t.toFixed(0).padStart(6)} ms`)
  lines.push("  hottest functions (self):")
  for (const [key, t] of [...hot].toSorted((a, b) => b[1] - a[1]).slice(0, 18)) lines.push(`    ${pct(t, busy)} ${t.toFixed(0).padStart(6)} ms  ${key}`)
  lines.push("  on the stack longest (inclusive, the app's and its libraries' own functions):")
  const named = [...inclusive].filter(([key]) => !key.startsWith("(") && !/^\S+ {2}\/app\//.test(key) && !key.startsWith("(anonymous)"))
  for (const [key, t] of named.toSorted((a, b) => b[1] - a[1]).slice(0, Number(process.env["QUIRE_PROFILE_ROWS"] ?? 30))) lines.push(`    ${pct(t, busy)} ${t.toFixed(0).padStart(6)} ms  ${key}`)
  return lines.join("\n")
}

interface TraceEvent {
  readonly name: string
  readonly ph: string
  readonly dur?: number
  readonly ts?: number
  readonly tid: number
  readonly pid: number
  readonly cat: string
}

/** The browser's own work in a timeline trace (`devtools.timeline`): total ms of style, layout, paint and the rest on the renderer's main thread, each name's share. */
export const summarizeTrace = (file: string, keys: number): string => {
  const events = (JSON.parse(readFileSync(file, "utf8")) as { traceEvents: ReadonlyArray<TraceEvent> }).traceEvents
  const main = events.find((e) => e.name === "thread_name" && (e as unknown as { args: { name: string } }).args.name === "CrRendererMain")
  const onMain = events.filter((e) => e.ph === "X" && e.dur !== undefined && (main === undefined || (e.pid === main.pid && e.tid === main.tid)))
  const names = ["UpdateLayoutTree", "Layout", "PrePaint", "Paint", "Layerize", "Commit", "HitTest", "EventDispatch", "FunctionCall", "ParseHTML", "UpdateLayer", "RunTask"]
  const total = new Map<string, { ms: number; count: number }>()
  for (const e of onMain) {
    if (!names.includes(e.name)) continue
    const t = total.get(e.name) ?? { ms: 0, count: 0 }
    total.set(e.name, { ms: t.ms + e.dur! / 1_000, count: t.count + 1 })
  }
  return [...total.entries()].sort((a, b) => b[1].ms - a[1].ms)
    .map(([name, t]) => `    ${name.padEnd(20)} ${t.ms.toFixed(0).padStart(7)} ms  ${(t.ms / keys).toFixed(1).padStart(6)} ms a key  (${t.count} events)`).join("\n")
}

/**
 * The renderer main thread's tasks of 20 ms or more in a timeline trace of a page's opening, in
 * order: when each started (ms from the navigation), how long it took and what filled it (script,
 * style, layout, paint), so what an opening waits on reads as a sequence.
 */
export const summarizeTasks = (file: string): string => {
  const events = (JSON.parse(readFileSync(file, "utf8")) as { traceEvents: ReadonlyArray<TraceEvent> }).traceEvents
  const main = events.find((e) => e.name === "thread_name" && (e as unknown as { args: { name: string } }).args.name === "CrRendererMain")
  const onMain = events.filter((e) => e.ph === "X" && e.dur !== undefined && e.ts !== undefined && (main === undefined || (e.pid === main.pid && e.tid === main.tid)))
  // The last navigation: the page's own (the trace may begin with the tab's blank one).
  const origin = events.filter((e) => e.name === "navigationStart").at(-1)?.ts ?? Math.min(...onMain.map((e) => e.ts!))
  const inner = ["FunctionCall", "EvaluateScript", "UpdateLayoutTree", "Layout", "PrePaint", "Paint", "Layerize", "ParseHTML", "GCEvent", "MajorGC", "MinorGC"]
  const tasks = onMain.filter((e) => e.name === "RunTask" && e.dur! >= 20_000).sort((a, b) => a.ts! - b.ts!)
  return tasks.map((task) => {
    const within = onMain.filter((e) => inner.includes(e.name) && e.ts! >= task.ts! && e.ts! + e.dur! <= task.ts! + task.dur!)
    const byName = new Map<string, number>()
    // Top-level spans only: a span inside another of the list is counted once, in the outer one.
    for (const e of within) {
      if (within.some((o) => o !== e && o.ts! <= e.ts! && o.ts! + o.dur! >= e.ts! + e.dur! && o.dur! > e.dur!)) continue
      byName.set(e.name, (byName.get(e.name) ?? 0) + e.dur! / 1_000)
    }
    const parts = [...byName.entries()].filter(([, ms]) => ms >= 1).sort((a, b) => b[1] - a[1]).map(([name, ms]) => `${name} ${ms.toFixed(0)}`).join(", ")
    return `    ${((task.ts! - origin) / 1_000).toFixed(0).padStart(6)} ms  ${(task.dur! / 1_000).toFixed(0).padStart(5)} ms  ${parts}`
  }).join("\n")
}

/** The page's requests so far as a waterfall (Resource Timing): when each started and ended, ms from navigation start, with its path. */
export const waterfall = async (page: Page): Promise<string> => {
  const entries = await page.evaluate(`(() => {
    const nav = performance.getEntriesByType("navigation")[0]
    return [
      ...(nav === undefined ? [] : [{ name: nav.name, start: 0, end: nav.responseEnd, kind: "document" }]),
      ...performance.getEntriesByType("resource").map((e) => ({ name: e.name, start: e.startTime, end: e.responseEnd, kind: e.initiatorType }))
    ]
  })()`) as ReadonlyArray<{ name: string; start: number; end: number; kind: string }>
  return entries.map((e) => {
    const url = new URL(e.name)
    const path = `${url.pathname}${url.search}`
    return `    ${e.start.toFixed(0).padStart(6)} ${e.end.toFixed(0).padStart(6)} ms  ${e.kind.padEnd(14)} ${path.length > 90 ? `${path.slice(0, 87)}...` : path}`
  }).join("\n")
}
