/**
 * The browser tests' servers, started once per run (two cores: each takes seconds): `fresh`, never
 * set up, for the first-run setup flow; `ready`, set up with the administrator's password, which
 * the other flows share, each in an organization of its own.
 */
import type { TestProject } from "vitest/node"
import { setupAdmin, startServer } from "./servers.ts"

declare module "vitest" {
  export interface ProvidedContext {
    readonly freshServer: string
    readonly readyServer: string
  }
}

export default async function setup(project: TestProject) {
  const [fresh, ready] = await Promise.all([startServer(), startServer()])
  await setupAdmin(ready.url)
  project.provide("freshServer", fresh.url)
  project.provide("readyServer", ready.url)
  return async () => {
    await Promise.all([fresh.stop(), ready.stop()])
  }
}
