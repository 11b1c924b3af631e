/**
 * The cost of merging a change request, on a fresh database of the machine's PostgreSQL: one
 * space of 1,000 pages (10 groups of 100), change requests that edit 1, 10 and 100 pages while main
 * moved meanwhile (another page edited, so every merge is a real three-way merge), each merged
 * through the use case. Median of 5 merges per size: the cost grows with the pages changed.
 */
import { Effect } from "effect"
import { documentHash, type PageNode, SpaceContent, Spaces } from "@quire/content"
import { Database } from "@quire/db"
import { ChangeRequests, Merges } from "@quire/reviews"
import { CollabStoredMarkdown } from "@quire/live"
import { Queue, Services } from "@quire/platform"
import { Layer } from "effect"
import * as Seed from "./Seed.ts"

const perGroup = 100

export interface MergeBenchOptions {
  /** Pages of the space, in groups of 100 (1,000). */
  readonly pages: number
  /** Merges per size (5). */
  readonly rounds: number
}

const markdownOf = (n: number, version: number) =>
  Array.from({ length: 12 }, (_, i) => `Paragraph ${i} of page ${n}: some text about topic ${n % 37}, version ${i === 0 ? version : 0}.`).join("\n\n")

const median = (values: ReadonlyArray<number>) => values.toSorted((a, b) => a - b)[Math.floor(values.length / 2)]!

export const run = (databaseUrl: string, options: MergeBenchOptions, progress: (message: string) => Effect.Effect<void>) =>
  Effect.gen(function*() {
    const groups = Math.max(1, Math.round(options.pages / perGroup))
    const rounds = Math.max(1, options.rounds)
    const spaces = yield* Spaces
    const content = yield* SpaceContent
    const changeRequests = yield* ChangeRequests
    const merges = yield* Merges
    const { as, organization: org } = yield* Seed.benchAdmin("merge@bench.test", "quire_bench_merge_token_0123456789", "Merge bench")
    const space = yield* as(spaces.create(org.organization.id, { title: "A thousand pages" }))
    const spaceId = space.space.id

    const at = new Date().toISOString()
    for (let g = 0; g < groups; g++) {
      const documents = new Map<string, string>()
      const children: Array<PageNode> = []
      for (let i = 0; i < perGroup; i++) {
        const n = g * perGroup + i
        const markdown = markdownOf(n, 0)
        documents.set(documentHash(markdown), markdown)
        children.push({ id: `p${n}`, type: "document", title: `Page ${n}`, slug: `page-${i}`, document: documentHash(markdown), createdAt: at, updatedAt: at, pages: [] })
      }
      const group: PageNode = { id: `g${g}`, type: "group", title: `Group ${g}`, slug: `group-${g}`, createdAt: at, updatedAt: at, pages: children }
      yield* as(content.commit(spaceId, (current) => Effect.succeed({ pages: [...current.pages, group], documents })))
    }
    yield* progress(`merge bench: seeded ${groups * perGroup} pages`)

    const figures: Array<{ changed: number; merge: number; all: ReadonlyArray<number> }> = []
    let round = 0
    for (const changed of [1, 10, 100]) {
      const times: Array<number> = []
      for (let r = 0; r < rounds; r++, round++) {
        const cr = yield* as(changeRequests.create(spaceId, { subject: `Edit ${changed} pages` }))
        const targets = Array.from({ length: changed }, (_, i) => (round * 131 + i * 9) % (groups * perGroup))
        // Edits a later paragraph of each page; main edits the first paragraph of one of them, so the lines merge.
        for (let start = 0; start < targets.length; start += 50) {
          yield* as(changeRequests.updateContent(spaceId, cr.changeRequest.id, targets.slice(start, start + 50).map((n) => ({
            operation: "update_page" as const,
            page: `p${n}`,
            markdown: markdownOf(n, 0).replace(`Paragraph 11 of page ${n}`, `Paragraph 11 (edited in round ${round}) of page ${n}`)
          }))))
        }
        const mainTarget = targets[0]!
        yield* as(content.commit(spaceId, (current) => {
          const markdown = markdownOf(mainTarget, round + 1)
          const hash = documentHash(markdown)
          return Effect.succeed({
            pages: current.pages.map((g) => ({ ...g, pages: g.pages.map((p) => (p.id === `p${mainTarget}` ? { ...p, document: hash } : p)) })),
            documents: new Map([[hash, markdown]])
          })
        }))
        const start = performance.now()
        const outcome = yield* as(merges.merge(spaceId, cr.changeRequest.id))
        times.push(performance.now() - start)
        if (outcome.result !== "merge") return yield* Effect.die(new Error(`merge bench: unexpected ${outcome.result}`))
      }
      figures.push({ changed, merge: median(times), all: times })
    }
    const lines = [
      `Merge on PostgreSQL: a ${groups * perGroup}-page space, main moved since the change request (three-way merge); median of ${rounds} merges`,
      "pages changed  merge ms  (all runs ms)"
    ]
    for (const f of figures) {
      lines.push(`${String(f.changed).padStart(13)}  ${f.merge.toFixed(1).padStart(8)}  (${f.all.map((t) => t.toFixed(0)).join(", ")})`)
    }
    lines.push(`10 pages changed: ${figures.find((f) => f.changed === 10)!.merge.toFixed(1)} ms (target < 200 ms)`)
    return lines.join("\n")
  }).pipe(Effect.provide(Services.layerSql.pipe(Layer.provide([Queue.layerEnqueueOnly, CollabStoredMarkdown.layer]), Layer.provideMerge(Database.layerUrl(databaseUrl)))))
