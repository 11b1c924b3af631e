/**
 * What the browser tests share, started once per run (two cores: each takes seconds): the servers,
 * `fresh`, never set up, for the first-run setup flow, and `ready`, set up with the administrator's
 * password, which the other flows share, each in an organization of its own; and one Chromium,
 * which every file connects to with contexts of its own instead of launching its own.
 */
import type { TestProject } from "vitest/node"
import { launchServer } from "./browser.ts"
import { setupAdmin, startServer } from "./servers.ts"

declare module "vitest" {
  export interface ProvidedContext {
    readonly freshServer: string
    readonly readyServer: string
    readonly browserEndpoint: string | undefined
  }
}

export default async function setup(project: TestProject) {
  const [fresh, ready, browser] = await Promise.all([startServer(), startServer(), launchServer()])
  await setupAdmin(ready.url)
  project.provide("freshServer", fresh.url)
  project.provide("readyServer", ready.url)
  project.provide("browserEndpoint", browser.wsEndpoint())
  return async () => {
    await Promise.all([fresh.stop(), ready.stop(), browser.close()])
  }
}
