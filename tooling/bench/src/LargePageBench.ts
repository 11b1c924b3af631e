/**
 * The cost of one large page: a page of 1.5 MB (20,000 paragraphs) and one of 10 MB committed
 * through the use cases on the memory adapters (so the figures are Quire's, not the database's),
 * first as a change request edit, then merged into main (where search indexing parses it), then a
 * second change request that edits its start merged after main edited its end (a three-way merge
 * of the page, indexed again). Wall times, and the CPU time of the main thread and of the whole
 * process (the parse workers included), which a busy machine does not stretch; the event loop's
 * longest hold (the main thread's CPU time between two turns of a 5 ms timer) and
 * `monitorEventLoopDelay`'s wall-clock maximum; the memory resident and the heap still used after
 * a full garbage collection (the memory store keeps the pages themselves).
 */
import { Effect, Layer } from "effect"
import { monitorEventLoopDelay } from "node:perf_hooks"
import { setFlagsFromString } from "node:v8"
import { runInNewContext } from "node:vm"
import { ParsePool, SpaceContent, Spaces } from "@quire/content"
import { Actor } from "@quire/kernel"
import { ChangeRequests, Merges } from "@quire/reviews"
import { Queue, Services } from "@quire/platform"
import * as Seed from "./Seed.ts"

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

/**
 * The longest main-thread CPU time between two turns of a 5 ms timer, from now until `stop`, and
 * the step (`step`) it happened in.
 */
const holdWatch = () => {
  let last = process.threadCpuUsage()
  let held = 0
  let step = ""
  let heldIn = ""
  const tick = () => {
    const now = process.threadCpuUsage()
    const ms = (now.user - last.user + now.system - last.system) / 1000
    if (ms > held) {
      held = ms
      heldIn = step
    }
    last = now
  }
  const timer = setInterval(tick, 5)
  return {
    step: (name: string) => {
      tick()
      step = name
    },
    stop: () => {
      tick()
      clearInterval(timer)
      return `${held.toFixed(0)} ms (${heldIn})`
    }
  }
}

export const run = (progress: (message: string) => Effect.Effect<void>) =>
  Effect.gen(function*() {
    const spaces = yield* Spaces
    const changeRequests = yield* ChangeRequests
    const merges = yield* Merges
    const content = yield* SpaceContent
    const { as, organization: org } = yield* Seed.benchAdmin("large@bench.test", "quire_bench_large_page_token_0123456789", "Large page bench")
    // As the server does when it starts: its workers are warm before a user's first large page.
    yield* (yield* ParsePool).warmUp
    const lines = [
      "Large pages (memory adapters): a change request edit inserting the page, its merge (search indexing),",
      "then a three-way merge of an edit of its start after main edited its end. Each step: wall ms / main-thread CPU ms / process CPU ms",
      "    page  edit                merge               three-way merge     loop held  loop delay  RSS after GC  heap after GC"
    ]
    collectGarbage()
    lines.push(`  before${"".padStart(95)}${megabytes(process.memoryUsage().rss).padStart(12)}  ${megabytes(process.memoryUsage().heapUsed).padStart(13)}`)
    for (const bytes of [1_500_000, 10_000_000]) {
      const markdown = pageOf(bytes)
      const spaceId = (yield* as(spaces.create(org.organization.id, { title: `Large ${megabytes(bytes)}` }))).space.id
      const histogram = monitorEventLoopDelay({ resolution: 10 })
      const watch = holdWatch()
      histogram.enable()
      const timed = <A, E>(self: Effect.Effect<A, E, Actor.Actor>) =>
        Effect.gen(function*() {
          const wall = performance.now()
          const thread = process.threadCpuUsage()
          const cpu = process.cpuUsage()
          const result = yield* as(self)
          const threadUsed = process.threadCpuUsage(thread)
          const cpuUsed = process.cpuUsage(cpu)
          const figures = [performance.now() - wall, (threadUsed.user + threadUsed.system) / 1000, (cpuUsed.user + cpuUsed.system) / 1000]
          return { result, figures: figures.map((ms) => ms.toFixed(0)).join(" / ") }
        })
      watch.step("edit")
      const cr = yield* as(changeRequests.create(spaceId, { subject: "A large page" }))
      const edit = yield* timed(changeRequests.updateContent(spaceId, cr.changeRequest.id, [{ operation: "insert_page", title: "Large", markdown }]))
      watch.step("merge")
      const merge = yield* timed(merges.merge(spaceId, cr.changeRequest.id))
      watch.step("edits of its start and end")
      const pageId = (yield* content.revisionById(merge.result.revision)).pages[0]!.id
      const start = yield* as(changeRequests.create(spaceId, { subject: "Its start" }))
      yield* as(changeRequests.updateContent(spaceId, start.changeRequest.id, [{ operation: "update_page", page: pageId, markdown: markdown.replace("Paragraph 3:", "The third paragraph:") }]))
      const end = yield* as(changeRequests.create(spaceId, { subject: "Its end" }))
      const last = markdown.lastIndexOf("Paragraph ")
      yield* as(changeRequests.updateContent(spaceId, end.changeRequest.id, [{ operation: "update_page", page: pageId, markdown: `${markdown.slice(0, last)}The last paragraph${markdown.slice(last + 9)}` }]))
      yield* as(merges.merge(spaceId, end.changeRequest.id))
      watch.step("three-way merge")
      const threeWay = yield* timed(merges.merge(spaceId, start.changeRequest.id))
      histogram.disable()
      const held = watch.stop()
      if (threeWay.result.result !== "merge") return yield* Effect.die(new Error("the three-way merge of the large page conflicted"))
      collectGarbage()
      const { rss, heapUsed } = process.memoryUsage()
      lines.push(
        `${megabytes(markdown.length).padStart(8)}  ${edit.figures.padEnd(18)}  ${merge.figures.padEnd(18)}  ${threeWay.figures.padEnd(18)}  ${held.padStart(9)}  ${`${(histogram.max / 1e6).toFixed(0)} ms`.padStart(10)}  ${megabytes(rss).padStart(12)}  ${megabytes(heapUsed).padStart(13)}`
      )
      yield* progress(`large page bench: ${megabytes(markdown.length)} done`)
    }
    return lines.join("\n")
  }).pipe(Effect.provide(Services.layerMemory.pipe(Layer.provide(Queue.layerEnqueueOnly))))
