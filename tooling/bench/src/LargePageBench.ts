/**
 * The cost of one large page: a page of 1.5 MB (20,000 paragraphs) and one of 10 MB committed
 * through the use cases on the memory adapters (so the figures are Quire's, not the database's),
 * first as a change request edit, then merged into main (where search indexing parses it), with
 * the event loop's longest stall over both (`monitorEventLoopDelay`), the memory resident after, and
 * the heap still used after a full garbage collection (the memory store keeps the pages themselves).
 */
import { Effect } from "effect"
import { monitorEventLoopDelay } from "node:perf_hooks"
import { setFlagsFromString } from "node:v8"
import { runInNewContext } from "node:vm"
import { Spaces } from "@quire/content"
import { Organizations, Users } from "@quire/identity"
import { Actor } from "@quire/kernel"
import { ChangeRequests, Merges } from "@quire/reviews"
import { Services } from "@quire/platform"

/** Markdown of about `bytes` characters: paragraphs, a heading and a link every 50 of them. */
const pageOf = (bytes: number) => {
  const parts: Array<string> = []
  let length = 0
  for (let i = 0; length < bytes; i++) {
    const part = i % 50 === 0
      ? `## Section ${i}\n\nParagraph ${i} with [a link](https://example.com/${i}) and **bold** text about topic ${i % 37}.`
      : `Paragraph ${i}: ordinary words about the topic ${i % 37}, and a little more text as a real page has.`
    parts.push(part)
    length += part.length + 2
  }
  return parts.join("\n\n")
}

const megabytes = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`

/** Runs a full garbage collection (exposing `gc` for this purpose), so the heap left is what is still held. */
const collectGarbage = () => {
  setFlagsFromString("--expose-gc")
  ;(runInNewContext("gc") as () => void)()
}

export const run = (progress: (message: string) => Effect.Effect<void>) =>
  Effect.gen(function*() {
    const users = yield* Users
    const organizations = yield* Organizations
    const spaces = yield* Spaces
    const changeRequests = yield* ChangeRequests
    const merges = yield* Merges
    const { user } = yield* users.bootstrapAdmin("large@bench.test", "quire_bench_large_page_token_0123456789")
    const actor = Actor.Actor.of({ userId: user.id, instanceAdmin: true })
    const as = <A, E>(self: Effect.Effect<A, E, Actor.Actor>) => Effect.provideService(self, Actor.Actor, actor)
    const org = yield* as(organizations.create({ title: "Large page bench" }))
    const lines = [
      "Large pages (memory adapters): a change request edit inserting the page, then its merge (search indexing)",
      "    page  edit ms  merge ms  event loop max ms  RSS after  heap after GC"
    ]
    for (const bytes of [1_500_000, 10_000_000]) {
      const markdown = pageOf(bytes)
      const space = yield* as(spaces.create(org.organization.id, { title: `Large ${megabytes(bytes)}` }))
      const cr = yield* as(changeRequests.create(space.space.id, { subject: "A large page" }))
      const histogram = monitorEventLoopDelay({ resolution: 10 })
      histogram.enable()
      let start = performance.now()
      yield* as(changeRequests.updateContent(space.space.id, cr.changeRequest.id, [{ operation: "insert_page", title: "Large", markdown }]))
      const edit = performance.now() - start
      start = performance.now()
      yield* as(merges.merge(space.space.id, cr.changeRequest.id))
      const merge = performance.now() - start
      histogram.disable()
      const rss = process.memoryUsage().rss
      collectGarbage()
      const heap = process.memoryUsage().heapUsed
      lines.push(
        `${megabytes(markdown.length).padStart(8)}  ${edit.toFixed(0).padStart(7)}  ${merge.toFixed(0).padStart(8)}  ${(histogram.max / 1e6).toFixed(0).padStart(17)}  ${megabytes(rss).padStart(9)}  ${megabytes(heap).padStart(13)}`
      )
      yield* progress(`large page bench: ${megabytes(markdown.length)} done`)
    }
    return lines.join("\n")
  }).pipe(Effect.provide(Services.layerMemory))
