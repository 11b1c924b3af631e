import { assert, describe, it } from "@effect/vitest"
import { spawn } from "node:child_process"
import { once } from "node:events"
import { Processes } from "../src/index.ts"

describe("Processes.alive", () => {
  it("tells a running process, one under another user included, from one that has exited", async () => {
    assert.isTrue(Processes.alive(process.pid))
    // pid 1 runs under root: for anyone else, signalling it is refused (EPERM), and it still runs.
    assert.isTrue(Processes.alive(1))
    const child = spawn(process.execPath, ["-e", ""], { stdio: "ignore" })
    await once(child, "exit")
    assert.isFalse(Processes.alive(child.pid!))
  })
})
