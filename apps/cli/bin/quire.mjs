#!/usr/bin/env node
// Launcher for `npx quire` / `pnpm exec quire`: registers tsx in this process and runs the
// TypeScript entry point, so there is no build step and no second process.
import { register } from "tsx/esm/api"

register()
await import("../src/main.ts")
