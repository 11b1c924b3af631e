/**
 * `pnpm bench --web --web-against <dir>`: the browser figures of this tree's app (dist/web) and of
 * another build of it (`<dir>`: what `vite build --outDir <dir>` wrote from a variant of
 * apps/web), each served by its own built server with the same seed, measured in alternating rounds
 * (this, other; other, this; ...) so that both see the same load. Per round and side: a cold first
 * load of the 1,000-page space, an opening of the 5,000-paragraph page with keystrokes typed into
 * it. Prints each side's medians, the ratio (this over the other) and in how many rounds this side
 * was the faster: on a shared machine one figure says little, the paired rounds say more.
 */
import type { Browser } from "playwright-core"
import { existsSync } from "node:fs"
import { join } from "node:path"
import { editorOpen, firstLoad, launch } from "./WebBench.ts"
import * as WebSetup from "./WebSetup.ts"

export interface WebCompareOptions {
  /** The other build's web directory (index.html and assets/). */
  readonly against: string
  readonly rounds: number
  readonly quiet: number
  readonly keys: number
  readonly size: WebSetup.SeedSize
}

interface Side {
  readonly name: string
  readonly server: WebSetup.Server
  readonly seeded: WebSetup.Seeded
  readonly first: Array<number>
  readonly open: Array<number>
  readonly keysP95: Array<number>
}

const quantile = (values: ReadonlyArray<number>, q: number) => {
  const sorted = values.toSorted((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN
}

/** One round of a side: a first load and an opening with keystrokes. */
const measure = async (browser: Browser, side: Side, options: WebCompareOptions) => {
  const { server, seeded } = side
  const first = await firstLoad(browser, server.url, `/s/${seeded.spaceId}/${seeded.pagePath}`, options.quiet)
  const open = await editorOpen(browser, server.url, `/o/${seeded.organizationId}`, `/s/${seeded.longSpaceId}/~/changes/${seeded.changeRequest}/${seeded.longPagePath}`,
    { paragraphs: options.size.paragraphs, quiet: options.quiet, keys: options.keys })
  side.first.push(first.interactive)
  side.open.push(open.interactive)
  side.keysP95.push(quantile(open.keys?.eventTiming ?? [], 0.95))
}

/**
 * Runs the comparison; with `shared` (the smoke's), each side on the shared server for its
 * directory and both in the shared browser, each side still seeded apart.
 */
export const run = async (options: WebCompareOptions, progress: (message: string) => void, shared?: WebSetup.Shared): Promise<string> => {
  if (!existsSync(join(options.against, "index.html"))) throw new Error(`${options.against} holds no built app (index.html): build the variant with \`vite build --outDir ${options.against}\` in apps/web`)
  const started = performance.now()
  const here = await WebSetup.build(progress)
  const servers: Array<WebSetup.Server> = []
  const sides: Array<Side> = []
  let browser: Browser | undefined
  try {
    for (const [name, dir] of [["this tree", here], ["the other", options.against]] as const) {
      progress(`starting a built server for ${name} (${dir}) and seeding it`)
      const server = shared === undefined ? await WebSetup.startServer(dir) : await shared.server(dir)
      if (shared === undefined) {
        servers.push(server)
        await WebSetup.setupAdmin(server.url)
      }
      const seeded = await WebSetup.seed(server.url, options.size)
      await WebSetup.settle(server)
      sides.push({ name, server, seeded, first: [], open: [], keysP95: [] })
    }
    browser = shared === undefined ? await launch() : await shared.browser()
    for (let round = 0; round < options.rounds; round++) {
      progress(`round ${round + 1}/${options.rounds}`)
      for (const side of round % 2 === 0 ? sides : sides.toReversed()) await measure(browser, side, options)
    }
  } finally {
    if (shared === undefined) await browser?.close()
    for (const server of servers) await server.stop()
  }
  const [mine, other] = sides as [Side, Side]
  const row = (label: string, pick: (side: Side) => ReadonlyArray<number>) => {
    const a = quantile(pick(mine), 0.5), b = quantile(pick(other), 0.5)
    const wins = pick(mine).filter((value, round) => value < pick(other)[round]!).length
    return `${label.padEnd(44)} ${a.toFixed(0).padStart(7)} ${b.toFixed(0).padStart(7)} ${(a / b).toFixed(2).padStart(6)}  ${wins} of ${pick(mine).length}`
  }
  return [
    `This tree's app (${here}) against ${options.against}, each on its own built server with the same seed, ${options.rounds} alternating rounds; total ${((performance.now() - started) / 1000).toFixed(0)} s`,
    "",
    `${"figure (medians, ms)".padEnd(44)} ${"this".padStart(7)} ${"other".padStart(7)} ${"ratio".padStart(6)}  rounds this was faster`,
    row(`first load of the space (${(options.size.chapters * 50).toLocaleString("en")} pages), interactive`, (s) => s.first),
    row(`${options.size.paragraphs.toLocaleString("en")}-paragraph page opened, idle`, (s) => s.open),
    row(`keystroke paint p95 (${options.keys} keys a round)`, (s) => s.keysP95),
    "",
    ...sides.map((s) => `${s.name}: first loads ${s.first.map((v) => v.toFixed(0)).join(", ")}; openings ${s.open.map((v) => v.toFixed(0)).join(", ")}; keystroke p95 ${s.keysP95.join(", ")}`)
  ].join("\n")
}
