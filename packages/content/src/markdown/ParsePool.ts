/**
 * Large pages are parsed off the main thread: their pieces go to a few worker threads
 * (`ParseWorker.ts`), in parallel, and come back as digests (`ParseDigests.ts`). Small pages, and
 * every page when no worker can start, are parsed here, giving the event loop back between pieces.
 */
import { Effect } from "effect"
import { availableParallelism } from "node:os"
import { Worker } from "node:worker_threads"
import { breather } from "./Breather.ts"
import { lineCount, piecePlan } from "./Markdown.ts"
import { type DigestKind, type Digests, type DigestTask, digestChunk } from "./ParseDigests.ts"

/** Pages of at least this many characters are parsed by the workers. */
export const workerThreshold = 64 * 1024

/** Characters of markdown sent to a worker at once. */
const taskLength = 32 * 1024

/** Workers left idle this long stop, and their memory goes with them. */
const idleMillis = 30_000

/** Workers that failed before answering anything; past a few, pages are parsed on the main thread. */
const maxFailures = 3


// Under tsx or vitest this module is TypeScript beside the worker's entry; in the production build
// it is part of dist/server.mjs (or worker.mjs, quire.mjs), beside dist/parse-worker.mjs.
const workerUrl = (): URL =>
  import.meta.url.endsWith(".ts") ? new URL("./ParseWorker.ts", import.meta.url) : new URL("./parse-worker.mjs", import.meta.url)

interface Pending {
  readonly resolve: (digests: ReadonlyArray<unknown>) => void
  readonly reject: (error: Error) => void
}

interface Slot {
  readonly worker: Worker
  readonly pending: Map<number, Pending>
  stopping: boolean
  answered: boolean
}

type Answer = { readonly id: number; readonly digests: ReadonlyArray<unknown> } | { readonly id: number; readonly error: string }

/**
 * `QUIRE_PARSE_WORKERS` (0: parse on the main thread), else one per core beside the main thread's,
 * at least one and at most two: each holds about 100 MB once it has parsed a large page.
 */
const size = (() => {
  const configured = Number.parseInt(process.env["QUIRE_PARSE_WORKERS"] ?? "", 10)
  return Number.isInteger(configured) && configured >= 0 ? configured : Math.max(1, Math.min(2, availableParallelism() - 1))
})()
let slots: Array<Slot> = []
let nextId = 0
let failures = 0
let idleTimer: ReturnType<typeof setTimeout> | undefined

const stopIdle = () => {
  idleTimer = undefined
  for (const slot of slots) {
    slot.stopping = true
    void slot.worker.terminate()
  }
  slots = []
}

const settled = (slot: Slot) => {
  if (slot.pending.size > 0) return
  // An idle worker does not keep the process alive.
  slot.worker.unref()
  if (slots.every((s) => s.pending.size === 0)) {
    clearTimeout(idleTimer)
    idleTimer = setTimeout(stopIdle, idleMillis)
    idleTimer.unref()
  }
}

const startWorker = (): Slot => {
  const worker = new Worker(workerUrl())
  const slot: Slot = { worker, pending: new Map(), stopping: false, answered: false }
  const fail = (error: Error) => {
    slots = slots.filter((s) => s !== slot)
    if (!slot.stopping && !slot.answered) failures++
    slot.stopping = true
    for (const pending of slot.pending.values()) pending.reject(error)
    slot.pending.clear()
  }
  worker.on("message", (answer: Answer) => {
    const pending = slot.pending.get(answer.id)
    if (pending === undefined) return
    slot.pending.delete(answer.id)
    slot.answered = true
    if ("error" in answer) pending.reject(new Error(answer.error))
    else pending.resolve(answer.digests)
    settled(slot)
  })
  worker.on("error", fail)
  worker.on("exit", (code) => fail(new Error(`A parse worker exited with code ${code}`)))
  slots.push(slot)
  return slot
}

/** The digests of `task`'s chunks, computed by the least busy worker (started when fewer than `size` run). */
const runTask = (task: DigestTask): Promise<ReadonlyArray<unknown>> =>
  new Promise((resolve, reject) => {
    clearTimeout(idleTimer)
    const idle = slots.find((slot) => slot.pending.size === 0)
    const slot = idle ?? (slots.length < size ? startWorker() : slots.reduce((a, b) => a.pending.size <= b.pending.size ? a : b))
    const id = nextId++
    slot.pending.set(id, { resolve, reject })
    slot.worker.ref()
    // oxlint-disable-next-line unicorn/require-post-message-target-origin -- a worker's port, not a window
    slot.worker.postMessage({ id, task })
  })

const inline = <K extends DigestKind>(task: DigestTask & { readonly kind: K }, breathe: Effect.Effect<void>): Effect.Effect<ReadonlyArray<Digests[K]>> =>
  Effect.gen(function*() {
    const digests: Array<Digests[K]> = []
    for (let index = 0; index < task.chunks.length; index++) {
      digests.push(digestChunk(task, index))
      yield* breathe
    }
    return digests
  })

/**
 * The digests of `markdown`'s pieces (see `pieces`), in order: computed by the parse workers for a
 * large page (in parallel, the main thread free meanwhile), else here a piece at a time, with
 * `breathe` between pieces (share one `breather` across the documents of a loop).
 */
export const digestPieces = <K extends DigestKind>(markdown: string, kind: K, breathe = breather()): Effect.Effect<ReadonlyArray<Digests[K]>> =>
  Effect.suspend(() => {
    const { chunks, appendix } = piecePlan(markdown)
    const lineOffsets: Array<number> = []
    let line = 0
    for (const chunk of chunks) {
      lineOffsets.push(line)
      if (kind === "links") line += lineCount(chunk)
    }
    const whole: DigestTask & { readonly kind: K } = { kind, appendix, chunks, lineOffsets }
    if (markdown.length < workerThreshold || size === 0 || failures >= maxFailures) return inline(whole, breathe)
    const tasks: Array<DigestTask> = []
    for (let start = 0; start < chunks.length;) {
      let end = start + 1
      let length = chunks[start]!.length
      while (end < chunks.length && length + chunks[end]!.length <= taskLength) length += chunks[end++]!.length
      tasks.push({ kind, appendix, chunks: chunks.slice(start, end), lineOffsets: lineOffsets.slice(start, end) })
      start = end
    }
    return Effect.tryPromise(() => Promise.all(tasks.map(runTask))).pipe(
      Effect.map((answers) => answers.flat() as ReadonlyArray<Digests[K]>),
      // A worker that cannot start or dies leaves the page to the main thread.
      Effect.catch(() => inline(whole, breathe))
    )
  })

/** The workers running and those that failed before answering (tests check that pages really go to workers). */
export const poolState = (): { readonly workers: number; readonly failures: number } => ({ workers: slots.length, failures })
