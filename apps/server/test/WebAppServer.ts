/**
 * A Quire server for the browser app's tests (apps/web/test/e2e), as a process of its own: the
 * real router and use cases in memory, jobs run in-process (search indexes as in the embedded
 * server), on PORT at 127.0.0.1 with that as its public URL (so the sign-in routes' same-origin
 * check sees the browser's origin), the built app from QUIRE_WEB_DIR, files under QUIRE_DATA_DIR,
 * the administrator bootstrapped with QUIRE_ADMIN_TOKEN (the setup code), and mail sent through
 * QUIRE_SMTP_URL when set, and a page's markdown written QUIRE_COLLAB_WRITE_DEBOUNCE_MS after typing
 * pauses when set (the tests that wait for typed words in the markdown wait that long each time). Prints
 * `listening <url>` once it answers. The browser tests run it bundled (apps/web/test/e2e/servers.ts); tsx runs it
 * too. It stops on SIGTERM, and with QUIRE_STOP_WITH_STDIN=1
 * when its stdin ends.
 */
import { NodeRuntime } from "@effect/platform-node"
import { Config, Effect, Layer } from "effect"
import { AccountMail, Users } from "@quire/identity"
import { CollabStoredMarkdown } from "@quire/live"
import { Queue, Services, Storage } from "@quire/platform"
import * as CollabCodec from "@quire/live/CollabCodec"
import * as CollabServer from "../src/collab/CollabServer.ts"
import * as Http from "../src/Http.ts"
import * as NodeServer from "../src/NodeServer.ts"
import { PublicUrl } from "../src/PublicUrl.ts"

const main = Effect.gen(function*() {
  const port = yield* Config.Port("PORT")
  const adminToken = yield* Config.String("QUIRE_ADMIN_TOKEN")
  const writeDebounceMs = yield* Config.Int("QUIRE_COLLAB_WRITE_DEBOUNCE_MS").pipe(Config.withDefault(CollabServer.defaults.writeDebounceMs))
  const url = `http://127.0.0.1:${port}`
  const bootstrap = Layer.effectDiscard(Effect.gen(function*() {
    yield* (yield* Users).bootstrapAdmin("admin@quire.test", adminToken)
    yield* Effect.sync(() => console.log(`listening ${url}`))
  }))
  // Live editing on /collab, as main.ts mounts it: the app edits every page's text there.
  const collab = CollabServer.layer({ writeDebounceMs }).pipe(Layer.provide(CollabCodec.CollabCodec.layer))
  const server = bootstrap.pipe(
    Layer.provideMerge(Layer.merge(Http.serve, collab)),
    // Mail through QUIRE_SMTP_URL when the test sets it (the email flows' own SMTP server), for the use cases
    // and for the jobs (the notifications' email): merged, so the job runner has it too, as main.ts's has.
    Layer.provideMerge(Queue.layerInProcessWith(Services.layerMemory.pipe(Layer.provideMerge(AccountMail.layerConfig(url)), Layer.provide(CollabStoredMarkdown.layer)))),
    Layer.provide([PublicUrl.layer(url), Storage.layer("memory")]),
    Layer.provideMerge(NodeServer.layer({ port, host: "127.0.0.1" }))
  )
  return yield* Layer.launch(server)
})

// Started by the browser tests with QUIRE_STOP_WITH_STDIN: their process's death closes the pipe.
if (process.env["QUIRE_STOP_WITH_STDIN"] === "1") {
  process.stdin.once("end", () => process.exit(0))
  process.stdin.resume()
}

NodeRuntime.runMain(Effect.orDie(main))
