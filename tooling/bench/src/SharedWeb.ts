/**
 * What the smoke's browser flags (--web, --web --web-against, --live) share: one Chromium and one
 * built server serving this tree's app, its administrator set up, each started when a flag first
 * asks for it and stopped when the smoke ends. A flag still seeds its own organization on that
 * server and opens its own browser contexts; run on its own, each flag starts and stops its own.
 */
import { Effect } from "effect"
import { resolve } from "node:path"
import * as WebBench from "./WebBench.ts"
import * as WebSetup from "./WebSetup.ts"

/** A server or a browser is started once, by its first caller; later callers wait for that start. */
const once = <A>(start: () => Promise<A>) => {
  let started: Promise<A> | undefined
  return {
    get: () => (started ??= start()),
    started: () => started
  }
}

/** The shared server and browser, stopped when the scope closes (those that were started). */
export const make = Effect.acquireRelease(
  Effect.sync(() => {
    const servers = new Map<string, ReturnType<typeof once<WebSetup.Server>>>()
    const browser = once(WebBench.launch)
    const server = (webDir: string) => {
      const key = resolve(webDir)
      const entry = servers.get(key) ?? once(async () => {
        const started = await WebSetup.startServer(key)
        await WebSetup.setupAdmin(started.url)
        return started
      })
      servers.set(key, entry)
      return entry.get()
    }
    const close = async () => {
      await browser.started()?.then((b) => b.close(), () => undefined)
      for (const entry of servers.values()) await entry.started()?.then((s) => s.stop(), () => undefined)
    }
    return { shared: { server, browser: browser.get } satisfies WebSetup.Shared, close }
  }),
  ({ close }) => Effect.promise(close)
).pipe(Effect.map(({ shared }) => shared))
