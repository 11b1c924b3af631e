/**
 * The entry point of the CLI's bundle (dist/quire.mjs): turns on Node's compile cache before the
 * rest of the CLI is loaded, so that a call after the first one skips compiling it (most of a
 * call's start-up), then runs `main.ts`.
 */
import { enableCompileCache } from "node:module"

enableCompileCache()
await import("./main.ts")
