import { Effect } from "effect"
import * as Servers from "./src/Servers.ts"
const token = "quire_bench_x_0123456789abcdef0123456789"
for (const server of ["static", "baseline", "quire"] as const) {
  await Effect.runPromise(Effect.scoped(Effect.gen(function*() {
    const t = performance.now()
    const r = yield* Servers.start(server, { server, backend: { kind: "memory" }, adminToken: token, adminEmail: "a@b.test", staticResponse: "/tmp/static.json" })
    console.log(server, ((performance.now() - t) / 1000).toFixed(1), "s wall", (yield* r.cpuMicros) / 1e6, "s CPU")
  })))
}
