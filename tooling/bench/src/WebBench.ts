/**
 * `pnpm bench --web`: the browser app against issue 21's performance bar, in Debian's Chromium
 * (playwright-core, /usr/bin/chromium, never a downloaded browser) on the server and content of
 * WebSetup.ts, signed in through /auth/sign-in:
 * - first load of the 1,000-page space at `/s/<space>/<page>`, cold (a new context: empty cache):
 *   time to interactive, from navigation start until the page tree (the current page's link) and
 *   the rendered page are painted and the main thread then had no long task (PerformanceObserver
 *   `longtask`) for a quiet window; median and worst of `runs`; goal under 1 s;
 * - the 5,000-paragraph page opened in the editor (`/s/<space>/~/changes/<n>/<path>`) after a
 *   visit of the organization's home (the app's scripts cached, not the editor's chunk: its first
 *   edit): from navigation start until the editor holds all 5,000 blocks, painted, and is idle the
 *   same way; median of `runs`; goal under 1 s;
 * - a keystroke's paint: 100 characters typed one at a time (80 ms apart) into that editor; per key
 *   the Event Timing API's duration (`event` entries over 16 ms; the keys not reported count as
 *   16) and, to compare, keydown to the first task after the next animation frame; p50 and p95;
 *   goal p95 under 50 ms;
 * - initial JavaScript: the brotli bytes (what the server sends for `Accept-Encoding: br`, its
 *   `.br` files) of the scripts the space's first load fetched, and of the chunks the editor's page
 *   fetched beyond them; goal under 300 KB for the first.
 * With `--profile`, one more run of each with Chromium's CPU profiler (CDP), summarized by the
 * sources the build's source maps name (WebProfile.ts).
 */
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core"
import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { setTimeout as sleep } from "node:timers/promises"
import { chromiumArgs, chromiumPath } from "@quire/testkit/Chromium"
import * as WebProfile from "./WebProfile.ts"
import * as WebSetup from "./WebSetup.ts"

/** Debian's Chromium, headless, with the flags the tests launch it with and none of its background traffic. */
export const launch = (): Promise<Browser> => {
  if (!existsSync(chromiumPath)) throw new Error(`${chromiumPath} is missing: install Debian's chromium package; the bench never downloads one`)
  return chromium.launch({ executablePath: chromiumPath, args: [...chromiumArgs, "--no-first-run", "--disable-background-networking", "--disable-component-update"] })
}

export interface WebBenchOptions {
  readonly runs: number
  /** The quiet window of time to interactive, ms. */
  readonly quiet: number
  readonly keys: number
  /** What is seeded: chapters of 50 pages (20) and paragraphs of the long page (5,000). */
  readonly size?: WebSetup.SeedSize | undefined
  /** Where CPU profiles go; none when undefined. */
  readonly profileDir?: string | undefined
}

const goals = { firstLoad: 1000, editorOpen: 1000, keystrokeP95: 50, initialJsKb: 300, docsReadable: 2000 } as const

/**
 * Runs in every document before the app: long tasks, Event Timing entries and keydown-to-paint
 * times collected in `window.__bench`; each marker (a list of selectors) timed when all its
 * elements are visible in a frame's rendering step (`seen`) and at the first task after that
 * frame (`painted`).
 */
const initScript = (markers: Record<string, ReadonlyArray<string>>) => `(() => {
  const s = { longTasks: [], events: [], keys: [], seen: {}, painted: {} }
  Object.defineProperty(window, "__bench", { value: s })
  const markers = ${JSON.stringify(markers)}
  const afterPaint = (f) => requestAnimationFrame(() => setTimeout(f, 0))
  try {
    new PerformanceObserver((list) => { for (const e of list.getEntries()) s.longTasks.push([e.startTime, e.startTime + e.duration]) })
      .observe({ type: "longtask", buffered: true })
  } catch {}
  try {
    new PerformanceObserver((list) => { for (const e of list.getEntries()) s.events.push({ name: e.name, start: e.startTime, duration: e.duration, id: e.interactionId || 0 }) })
      .observe({ type: "event", durationThreshold: 16, buffered: true })
  } catch {}
  addEventListener("keydown", (event) => { const t = event.timeStamp; afterPaint(() => s.keys.push(performance.now() - t)) }, true)
  const visible = (selector) => { const e = document.querySelector(selector); return e !== null && e.checkVisibility() }
  const names = Object.keys(markers)
  // Checked once per frame after a DOM change, in the frame's own rendering step (a check per
  // mutation would force a layout each time and slow down what it measures).
  let scheduled = false
  const check = () => {
    scheduled = false
    for (const name of names) {
      if (s.seen[name] !== undefined || !markers[name].every(visible)) continue
      s.seen[name] = performance.now()
      afterPaint(() => { s.painted[name] = performance.now() })
    }
    if (names.every((name) => s.seen[name] !== undefined)) observer.disconnect()
  }
  const observer = new MutationObserver(() => {
    if (scheduled) return
    scheduled = true
    requestAnimationFrame(check)
  })
  observer.observe(document, { childList: true, subtree: true })
})()`

interface BenchState {
  readonly now: number
  readonly seen: Record<string, number>
  readonly painted: Record<string, number>
  readonly longTasks: ReadonlyArray<readonly [number, number]>
}

const readState = (page: Page) =>
  page.evaluate("(() => { const s = window.__bench; return { now: performance.now(), seen: s.seen, painted: s.painted, longTasks: s.longTasks } })()") as Promise<BenchState>

/** The first time from `from` on followed by `quiet` ms without a long task (tasks as [start, end]). */
export const interactiveAt = (from: number, tasks: ReadonlyArray<readonly [number, number]>, quiet: number): number => {
  let t = from
  for (const [start, end] of tasks.toSorted((a, b) => a[0] - b[0])) {
    if (start >= t + quiet) break
    if (end > t) t = end
  }
  return t
}

export interface Timing {
  /** Navigation start to the last marker painted, ms. */
  readonly visible: number
  /** Navigation start to interactive (visible, then a quiet window without long tasks), ms. */
  readonly interactive: number
  readonly longTasks: number
  /** The longest long task, ms. */
  readonly longest: number
}

/** Waits until every marker is painted and the quiet window passed without a long task; 60 s at most. */
const waitInteractive = async (page: Page, markers: ReadonlyArray<string>, quiet: number): Promise<Timing> => {
  const until = Date.now() + 60_000
  for (;;) {
    const state = await readState(page)
    if (markers.every((name) => state.painted[name] !== undefined)) {
      const visible = Math.max(...markers.map((name) => state.painted[name]!))
      const interactive = interactiveAt(visible, state.longTasks, quiet)
      if (state.now >= interactive + quiet) {
        const durations = state.longTasks.filter(([start]) => start < interactive).map(([start, end]) => end - start)
        return { visible, interactive, longTasks: durations.length, longest: Math.max(0, ...durations) }
      }
    }
    if (Date.now() > until) throw new Error(`${page.url()}: markers ${JSON.stringify(state.painted)} of ${markers.join(", ")} after 60 s`)
    await sleep(50)
  }
}

/** A new browser context signed in as the administrator, the timing script of `markers` in each of its documents. */
export const newContext = async (browser: Browser, url: string, markers: Record<string, ReadonlyArray<string>>): Promise<BrowserContext> => {
  const context = await browser.newContext({ baseURL: url, viewport: { width: 1280, height: 800 } })
  context.setDefaultTimeout(60_000)
  await context.addInitScript({ content: initScript(markers) })
  const response = await context.request.post(`${url}/auth/sign-in`, {
    data: { email: WebSetup.admin.email, password: WebSetup.admin.password },
    headers: { origin: url }
  })
  if (response.status() !== 200) throw new Error(`sign-in answered ${response.status()}: ${await response.text()}`)
  return context
}

interface Script {
  readonly url: string
  readonly encoding: string
  /** Bytes of the body on the wire. */
  readonly transferred: number
}

/**
 * The scripts the page fetches from now on (their sizes once each has finished). A script still
 * loading when the page closes (one fetched after the figures were taken) is left out: its sizes
 * are never known, and asking for them then rejects.
 */
const watchScripts = (page: Page) => {
  const pending: Array<Promise<Script | undefined>> = []
  page.on("response", (response) => {
    if (response.request().resourceType() !== "script") return
    pending.push(response.request().sizes().then(
      (sizes) => ({ url: response.url(), encoding: response.headers()["content-encoding"] ?? "identity", transferred: sizes.responseBodySize }),
      () => undefined
    ))
  })
  return () => Promise.all(pending).then((scripts) => scripts.filter((script) => script !== undefined))
}

export const problemsOf = (page: Page) => {
  const problems: Array<string> = []
  page.on("console", (message) => {
    if (message.type() === "error") problems.push(message.text())
  })
  page.on("pageerror", (error) => problems.push(`uncaught ${error.message}`))
  return problems
}

export interface FirstLoad extends Timing {
  readonly scripts: ReadonlyArray<Script>
  readonly problems: ReadonlyArray<string>
}

const spaceMarkers = { tree: ["nav[aria-label=\"Pages\"] .page-tree a[aria-current=\"page\"]"], page: ["article .markdown"] }

/** One cold first load of the space's page. */
export const firstLoad = async (browser: Browser, url: string, path: string, quiet: number, profile?: string): Promise<FirstLoad> => {
  const context = await newContext(browser, url, spaceMarkers)
  try {
    const page = await context.newPage()
    const problems = problemsOf(page)
    const scripts = watchScripts(page)
    const profiler = profile === undefined ? undefined : await WebProfile.start(page, url)
    await page.goto(path, { waitUntil: "commit" })
    const timing = await waitInteractive(page, Object.keys(spaceMarkers), quiet)
    if (profiler !== undefined && profile !== undefined) {
      await profiler.stop(profile)
      writeFileSync(profile.replace(/\.cpuprofile$/, ".requests.txt"), await WebProfile.waterfall(page))
    }
    return { ...timing, scripts: await scripts(), problems }
  } finally {
    await context.close()
  }
}

/** The editor holds the long page's last paragraph (its `paragraphs`-th block). */
const editorMarkers = (paragraphs: number) => ({ content: [`[aria-label="Page content"] > :nth-child(${paragraphs})`] })

export interface EditorOpen extends Timing {
  readonly scripts: ReadonlyArray<Script>
  readonly problems: ReadonlyArray<string>
  /** Keystrokes, when typed: Event Timing durations (one per key, 16 for keys under it) and keydown to paint, ms. */
  readonly keys?: { readonly eventTiming: ReadonlyArray<number>; readonly reported: number; readonly toPaint: ReadonlyArray<number> }
}

/** Types `count` characters at the end of the first paragraph, 80 ms apart; per key its Event Timing duration and keydown-to-paint time. */
const typeKeys = async (page: Page, count: number) => {
  const first = page.locator("[aria-label=\"Page content\"] > :first-child")
  await first.click()
  await page.keyboard.press("End")
  await sleep(1_000)
  await page.evaluate("(() => { window.__bench.keys.length = 0; window.__bench.events.length = 0 })()")
  const text = "the quick brown fox jumps over the lazy dog "
  for (let i = 0; i < count; i++) {
    await page.keyboard.type(text[i % text.length]!)
    await sleep(80)
  }
  await sleep(1_000)
  const { events, keys } = await page.evaluate("(() => ({ events: window.__bench.events, keys: window.__bench.keys }))()") as {
    events: ReadonlyArray<{ name: string; duration: number; id: number }>
    keys: ReadonlyArray<number>
  }
  const byInteraction = new Map<number, number>()
  for (const e of events) if (e.id > 0 && e.name.startsWith("key")) byInteraction.set(e.id, Math.max(byInteraction.get(e.id) ?? 0, e.duration))
  const reported = [...byInteraction.values()].slice(0, count)
  return { eventTiming: [...reported, ...Array.from({ length: count - reported.length }, () => 16)], reported: reported.length, toPaint: keys }
}

/** One opening of the long page in the editor (the app's scripts cached by a visit of the organization first); keystrokes when `keys` > 0. */
export const editorOpen = async (
  browser: Browser,
  url: string,
  organizationPath: string,
  path: string,
  options: { paragraphs: number; quiet: number; keys: number; profile?: string | undefined }
): Promise<EditorOpen> => {
  const markers = editorMarkers(options.paragraphs)
  const context = await newContext(browser, url, markers)
  try {
    const page = await context.newPage()
    await page.goto(organizationPath, { waitUntil: "networkidle" })
    const problems = problemsOf(page)
    const scripts = watchScripts(page)
    const profiler = options.profile === undefined ? undefined : await WebProfile.start(page, url)
    const openingTrace = options.profile?.replace(/\.cpuprofile$/, ".open.trace.json")
    if (openingTrace !== undefined) await browser.startTracing(page, { path: openingTrace, categories: ["toplevel", "devtools.timeline", "disabled-by-default-devtools.timeline", "blink.user_timing", "loading"] })
    await page.goto(path, { waitUntil: "commit" })
    const timing = await waitInteractive(page, Object.keys(markers), options.quiet)
    if (openingTrace !== undefined) await browser.stopTracing()
    const trace = options.profile === undefined || options.keys === 0 ? undefined : options.profile.replace(/\.cpuprofile$/, ".keys.trace.json")
    if (trace !== undefined) await browser.startTracing(page, { path: trace, categories: ["devtools.timeline", "disabled-by-default-devtools.timeline"] })
    const keys = options.keys > 0 ? await typeKeys(page, options.keys) : undefined
    if (trace !== undefined) await browser.stopTracing()
    if (profiler !== undefined && options.profile !== undefined) {
      await profiler.stop(options.profile)
      writeFileSync(options.profile.replace(/\.cpuprofile$/, ".requests.txt"), await WebProfile.waterfall(page))
    }
    return { ...timing, scripts: await scripts(), problems, ...(keys === undefined ? {} : { keys }) }
  } finally {
    await context.close()
  }
}

/** Scalar's sidebar and the reference's first section. */
const docsMarkers = { sidebar: [".scalar-api-reference aside li"], section: [".scalar-api-reference h2"] }

export interface DocsLoad extends Timing {
  readonly problems: ReadonlyArray<string>
}

/** One cold load of the API reference at /docs (issue 22: under 2 s), signed out. */
export const docsLoad = async (browser: Browser, url: string, quiet: number, profile?: string): Promise<DocsLoad> => {
  const context = await browser.newContext({ baseURL: url, viewport: { width: 1280, height: 800 } })
  context.setDefaultTimeout(60_000)
  await context.addInitScript({ content: initScript(docsMarkers) })
  try {
    const page = await context.newPage()
    const problems = problemsOf(page)
    const profiler = profile === undefined ? undefined : await WebProfile.start(page, url)
    await page.goto("/docs", { waitUntil: "commit" })
    const timing = await waitInteractive(page, Object.keys(docsMarkers), quiet)
    if (profiler !== undefined && profile !== undefined) await profiler.stop(profile)
    return { ...timing, problems }
  } finally {
    await context.close()
  }
}

// ---------------------------------------------------------------------------------------------
// Report

export const percentile = (values: ReadonlyArray<number>, p: number) => {
  const sorted = values.toSorted((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN
}
const median = (values: ReadonlyArray<number>) => percentile(values, 50)
export const verdict = (pass: boolean) => (pass ? "PASS" : "MISS")
const ms = (n: number) => n.toFixed(0)
const kb = (bytes: number) => (bytes / 1024).toFixed(1)

/** Rows of figure, value, goal and verdict, aligned. */
export const table = (rows: ReadonlyArray<ReadonlyArray<string>>): string => {
  const header = ["figure", "value", "goal", ""]
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)))
  const line = (cells: ReadonlyArray<string>) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join("  ")
  return [line(header), widths.map((w) => "-".repeat(w)).join("  "), ...rows.map(line)].join("\n")
}

/** The `.br` size of a built asset, by its URL. */
const brotliSize = (outDir: string, url: string) => {
  const file = join(outDir, new URL(url).pathname.replace(/^\/app\//, ""))
  return existsSync(`${file}.br`) ? statSync(`${file}.br`).size : readFileSync(file).length
}

const scriptRows = (outDir: string, loads: ReadonlyArray<FirstLoad>, opens: ReadonlyArray<EditorOpen>): Array<Array<string>> => {
  const initial = [...new Set(loads.flatMap((load) => load.scripts.map((s) => s.url)))]
  const initialBytes = initial.reduce((sum, url) => sum + brotliSize(outDir, url), 0)
  const wire = loads[0]?.scripts ?? []
  const editor = [...new Set(opens.flatMap((open) => open.scripts.map((s) => s.url)))].filter((url) => !initial.includes(url))
  const editorBytes = editor.reduce((sum, url) => sum + brotliSize(outDir, url), 0)
  const name = (url: string) => new URL(url).pathname.split("/").pop()
  return [
    [`initial JS of the space's first load, brotli KB (${initial.length} scripts: ${initial.map(name).join(", ")})`, kb(initialBytes), `< ${goals.initialJsKb}`, verdict(initialBytes / 1024 < goals.initialJsKb)],
    [`  as Chromium fetched it over http://127.0.0.1, KB on the wire (${[...new Set(wire.map((s) => s.encoding))].join(", ")})`, kb(wire.reduce((sum, s) => sum + s.transferred, 0)), "", ""],
    [`editor chunks, fetched on first edit, brotli KB (${editor.map(name).join(", ") || "none"})`, kb(editorBytes), "", ""]
  ]
}

export interface WebFigures {
  readonly seeded: WebSetup.Seeded
  readonly loads: ReadonlyArray<FirstLoad>
  readonly docs: ReadonlyArray<DocsLoad>
  readonly opens: ReadonlyArray<EditorOpen>
  readonly serverKind: string
  readonly seconds: number
  readonly profiles: ReadonlyArray<string>
}

export const report = (outDir: string, options: WebBenchOptions, f: WebFigures): string => {
  const loadTimes = f.loads.map((l) => l.interactive)
  const openTimes = f.opens.map((o) => o.interactive)
  const keys = f.opens.find((o) => o.keys !== undefined)?.keys
  const rows: Array<Array<string>> = [
    [`first load of the space (${f.seeded.pages.toLocaleString("en")} pages), cold: interactive, median ms of ${f.loads.length} (worst ${ms(Math.max(...loadTimes))}; painted ${ms(median(f.loads.map((l) => l.visible)))}; long tasks ${median(f.loads.map((l) => l.longTasks))}, longest ${ms(median(f.loads.map((l) => l.longest)))})`,
      ms(median(loadTimes)), `< ${goals.firstLoad}`, verdict(median(loadTimes) < goals.firstLoad)],
    [`  worst of ${f.loads.length}`, ms(Math.max(...loadTimes)), `< ${goals.firstLoad}`, verdict(Math.max(...loadTimes) < goals.firstLoad)],
    [`${(options.size?.paragraphs ?? 5000).toLocaleString("en")}-paragraph page opened in the editor: idle, median ms of ${f.opens.length} (worst ${ms(Math.max(...openTimes))}; content painted ${ms(median(f.opens.map((o) => o.visible)))}; longest task ${ms(median(f.opens.map((o) => o.longest)))})`,
      ms(median(openTimes)), `< ${goals.editorOpen}`, verdict(median(openTimes) < goals.editorOpen)]
  ]
  if (keys !== undefined) {
    const p95 = percentile(keys.eventTiming, 95)
    rows.push([`keystroke paint, Event Timing p95 ms (${keys.eventTiming.length} keys, ${keys.reported} over 16 ms; p50 ${ms(percentile(keys.eventTiming, 50))}, max ${ms(Math.max(...keys.eventTiming))})`,
      ms(p95), `< ${goals.keystrokeP95}`, verdict(p95 < goals.keystrokeP95)])
    rows.push([`  keydown to next frame p95 ms (p50 ${ms(percentile(keys.toPaint, 50))}, max ${ms(Math.max(...keys.toPaint))}, ${keys.toPaint.length} keys)`,
      ms(percentile(keys.toPaint, 95)), "", ""])
  }
  rows.push(...scriptRows(outDir, f.loads, f.opens))
  const docsReadable = median(f.docs.map((d) => d.visible))
  rows.push([`API reference /docs, cold: sidebar and first section painted, median ms of ${f.docs.length} (worst ${ms(Math.max(...f.docs.map((d) => d.visible)))}; long tasks ${median(f.docs.map((d) => d.longTasks))}, longest ${ms(median(f.docs.map((d) => d.longest)))})`,
    ms(docsReadable), `< ${goals.docsReadable}`, verdict(docsReadable < goals.docsReadable)])
  rows.push([`  then idle (Scalar draws the other sections), median ms`, ms(median(f.docs.map((d) => d.interactive))), "", ""])
  const problems = [...new Set([...f.loads, ...f.opens, ...f.docs].flatMap((r) => r.problems))]
  return [
    `Browser app in ${chromiumPath} (headless, 1280x800), ${f.serverKind}; quiet window ${options.quiet} ms; ` +
    `a 2-core machine shared with other work: times vary run to run; total ${f.seconds.toFixed(0)} s`,
    "",
    table(rows),
    "",
    `Seeding: ${f.seeded.pages} pages (chapters of 7 sections of 6 pages) and a page of ${options.size?.paragraphs ?? 5000} paragraphs (${kb(f.seeded.longPageBytes)} KB of markdown) in ${f.seeded.requests} API requests, ${f.seeded.seconds.toFixed(1)} s`,
    `First load: /s/<space>/${f.seeded.pagePath}; editor: /s/<space>/~/changes/${f.seeded.changeRequest}/${f.seeded.longPagePath}`,
    `Each first load: ${f.loads.map((l) => `${ms(l.interactive)}`).join(", ")} ms; each editor opening: ${f.opens.map((o) => ms(o.interactive)).join(", ")} ms`,
    ...(problems.length === 0 ? [] : ["", `Console errors: ${problems.slice(0, 10).join(" | ")}`]),
    ...f.profiles.flatMap((p) => ["", p])
  ].join("\n")
}

/** Runs the bench; on `shared`'s server and browser when given (the smoke's), else on its own. */
export const run = async (options: WebBenchOptions, progress: (message: string) => void, shared?: WebSetup.Shared): Promise<string> => {
  const started = performance.now()
  if (!existsSync(chromiumPath)) throw new Error(`${chromiumPath} is missing: install Debian's chromium package; the bench never downloads one`)
  progress("pnpm build (the app into dist/web, the server into dist/server.mjs)")
  const outDir = await WebSetup.build(progress)
  progress("starting the built server (tooling/build/start.sh server, embedded database)")
  const server = shared === undefined ? await WebSetup.startServer(outDir) : await shared.server(outDir)
  let browser: Browser | undefined
  try {
    if (shared === undefined) await WebSetup.setupAdmin(server.url)
    const size = options.size ?? { chapters: 20, paragraphs: 5000 }
    progress(`seeding ${size.chapters * 50} pages and a page of ${size.paragraphs} paragraphs through /v1`)
    const seeded = await WebSetup.seed(server.url, size)
    await WebSetup.settle(server)
    browser = shared === undefined ? await launch() : await shared.browser()
    const spacePath = `/s/${seeded.spaceId}/${seeded.pagePath}`
    const editorPath = `/s/${seeded.longSpaceId}/~/changes/${seeded.changeRequest}/${seeded.longPagePath}`
    const loads: Array<FirstLoad> = []
    for (let i = 0; i < options.runs; i++) {
      progress(`first load ${i + 1}/${options.runs}`)
      loads.push(await firstLoad(browser, server.url, spacePath, options.quiet))
    }
    const opens: Array<EditorOpen> = []
    for (let i = 0; i < options.runs; i++) {
      progress(`editor ${i + 1}/${options.runs}${i === options.runs - 1 ? `, then ${options.keys} keystrokes` : ""}`)
      opens.push(await editorOpen(browser, server.url, `/o/${seeded.organizationId}`, editorPath, { paragraphs: size.paragraphs, quiet: options.quiet, keys: i === options.runs - 1 ? options.keys : 0 }))
    }
    const docs: Array<DocsLoad> = []
    for (let i = 0; i < options.runs; i++) {
      progress(`API reference ${i + 1}/${options.runs}`)
      docs.push(await docsLoad(browser, server.url, options.quiet))
    }
    const profiles: Array<string> = []
    if (options.profileDir !== undefined) {
      const dir = options.profileDir
      progress(`profiling a first load, an editor opening with keystrokes and /docs into ${dir}`)
      await firstLoad(browser, server.url, spacePath, options.quiet, join(dir, "web-first-load.cpuprofile"))
      profiles.push(`First load of the space, CPU profile (${join(dir, "web-first-load.cpuprofile")}):\n${WebProfile.summarize(join(dir, "web-first-load.cpuprofile"), outDir)}`)
      profiles.push(`First load of the space, its requests (start, end):\n${readFileSync(join(dir, "web-first-load.requests.txt"), "utf8")}`)
      await editorOpen(browser, server.url, `/o/${seeded.organizationId}`, editorPath, { paragraphs: size.paragraphs, quiet: options.quiet, keys: options.keys, profile: join(dir, "web-editor.cpuprofile") })
      profiles.push(`Editor opening and ${options.keys} keystrokes, CPU profile (${join(dir, "web-editor.cpuprofile")}):\n${WebProfile.summarize(join(dir, "web-editor.cpuprofile"), outDir)}`)
      profiles.push(`Editor opening, its requests (start, end):\n${readFileSync(join(dir, "web-editor.requests.txt"), "utf8")}`)
      profiles.push(`Editor opening, the renderer main thread's tasks of 20 ms or more (start, length, what filled them; ${join(dir, "web-editor.open.trace.json")}):\n${WebProfile.summarizeTasks(join(dir, "web-editor.open.trace.json"))}`)
      profiles.push(`${options.keys} keystrokes, the renderer's main thread in a timeline trace (${join(dir, "web-editor.keys.trace.json")}):\n${WebProfile.summarizeTrace(join(dir, "web-editor.keys.trace.json"), options.keys)}`)
      await docsLoad(browser, server.url, options.quiet, join(dir, "web-docs.cpuprofile"))
      profiles.push(`API reference /docs, cold, CPU profile (${join(dir, "web-docs.cpuprofile")}):\n${WebProfile.summarize(join(dir, "web-docs.cpuprofile"), outDir)}`)
    }
    return report(outDir, options, {
      seeded, loads, opens, docs, profiles,
      serverKind: "the built server (`pnpm build`, then tooling/build/start.sh server: dist/server.mjs on the embedded database, jobs in process)",
      seconds: (performance.now() - started) / 1000
    })
  } finally {
    if (shared === undefined) {
      await browser?.close()
      await server.stop()
    }
  }
}
