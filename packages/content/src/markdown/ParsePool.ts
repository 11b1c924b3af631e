/**
 * Large pages are parsed off the main thread: their pieces go to a few worker threads
 * (`ParseWorker.ts`), in parallel, and come back as digests (`ParseDigests.ts`). Small pages, and
 * every page when no worker can start, are parsed here, giving the event loop back between pieces.
 * The pool is a service of the server's layers: each server has its own workers, stopped when its
 * layers' scope closes.
 */
import { Config, Context, Effect, Layer } from "effect"
import { availableParallelism } from "node:os"
import { Worker } from "node:worker_threads"
import { breather } from "./Breather.ts"
import { appendixOf, blockChunks, chunkLength, definitionCount, eachBlockChunk, eachLinkPiece, type LineMap, linesFrom, type LinkPiece } from "@quire/markdown"
import { type DigestKind, type Digests, type DigestTask, digestChunk } from "./ParseDigests.ts"

/** Pages of at least this many characters are parsed by the workers. */
export const workerThreshold = 64 * 1024

/**
 * Pages with more link reference definitions than this are parsed by the workers whatever their
 * size: each definition costs micromark far more than a line of prose, and each piece of a page is
 * parsed again with the definitions its brackets name, so a small page of many definitions would
 * hold the event loop (docs/content.md has the figures).
 */
export const workerDefinitions = 64

/** Whether `markdown` is parsed by the workers (when the pool has some): a large page, or one of many definitions. */
export const forWorkers = (markdown: string): boolean => markdown.length >= workerThreshold || definitionCount(markdown) > workerDefinitions

/** Characters of markdown sent to a worker at once. */
const taskLength = 32 * 1024

/** Workers left idle this long stop, and most of their memory goes with them. */
const idleMillis = 30_000

/** Workers that failed before answering anything; past a few, pages are parsed on the main thread. */
const maxFailures = 3

/** How long a worker may take to load its code before it counts as failing to start. */
const startMillis = 60_000

/**
 * The longest a worker may spend on one task (32 KB of markdown, far more than an ordinary page
 * needs) before it is terminated and the task's page is digested as plain text.
 */
export const defaultTaskMillis = 10_000

/** The heap a parse worker may grow to; past it the worker dies and its page is digested as plain text. */
export const workerHeapMb = 512

/**
 * A parse that passed a worker's budget (its time per task, or its heap): its page is digested as
 * plain text on the main thread, never parsed there.
 */
export class ParseBudgetError extends Error {
  override readonly name = "ParseBudgetError"
}

const overBudget = (error: unknown): boolean =>
  error instanceof ParseBudgetError || (typeof error === "object" && error !== null && "code" in error && error.code === "ERR_WORKER_OUT_OF_MEMORY")

/** The workers running and those that failed before answering. */
export interface PoolState {
  readonly workers: number
  readonly failures: number
}

/** Parses pages' pieces, a large page's in the pool's worker threads. */
export interface ParsePoolShape {
  /**
   * The digests of `markdown`'s pieces (see `pieces`), in order: computed by the parse workers for
   * a large page or one of many definitions (see `forWorkers`; in parallel, the main thread free
   * meanwhile), else here a piece at a time, with
   * `breathe` between pieces (share one `breather` across the documents of a loop).
   */
  readonly digestPieces: <K extends DigestKind>(markdown: string, kind: K, breathe?: Effect.Effect<void>, options?: DigestOptions) => Effect.Effect<ReadonlyArray<Digests[K]>>
  /**
   * Starts the parse workers and has each parse a page of every kind, so that the first large page
   * meets compiled code rather than a cold worker's interpreter. From
   * then on a worker stopped when idle is replaced by a warm one. Run when the server starts;
   * done when the workers it started are warm.
   */
  readonly warmUp: Effect.Effect<void>
  /** The workers running and those that failed before answering (tests check that pages really go to workers). */
  readonly state: Effect.Effect<PoolState>
}

/** What a caller of `digestPieces` knows of the page. */
export interface DigestOptions {
  /** It found the page within the markdown limits (`markdownLimitBreach`), so the links' reading does not scan it again. */
  readonly withinLimits?: boolean | undefined
}

/** Settings of {@link ParsePool.layerWith}. */
export interface ParsePoolOptions {
  /** Worker threads at most; 0 parses every page on the main thread. */
  readonly workers: number
  /** The time budget of one task in a worker (default `defaultTaskMillis`). */
  readonly taskMillis?: number
  /** The workers' entry point (default: ParseWorker, or the build's parse-worker.mjs); a test's own. */
  readonly workerUrl?: URL
}

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
  /** It parsed a page, not only the warm-up: its heap grew, and it stops when idle. */
  worked: boolean
  /** Fires when the task the worker is on (its oldest pending) passes the time budget. */
  watchdog: ReturnType<typeof setTimeout> | undefined
  /** When the worker began the task it is on (`performance.now()`). */
  taskStart: number
  /** It loaded its code and said so: until then its tasks wait, and their budget has not begun. */
  ready: boolean
  /** Fires when a worker takes longer than `startMillis` to load its code. */
  startTimer: ReturnType<typeof setTimeout> | undefined
}

type Answer =
  | { readonly ready: true }
  | { readonly id: number; readonly digests: ReadonlyArray<unknown> }
  | { readonly id: number; readonly error: string }

/** Sends a task to a worker and answers with the digests of its chunks. */
type RunTask = (task: DigestTask) => Promise<ReadonlyArray<unknown>>

/**
 * The worker threads of one pool, at most `size`: started on first use, stopped when idle, all
 * terminated by `close`. `runTask` is undefined when pages are parsed on the main thread (no
 * workers configured, too many failed to start, or the pool is closed).
 */
const makeWorkers = (size: number, taskMillis: number, entry: URL) => {
  let slots: Array<Slot> = []
  let nextId = 0
  let failures = 0
  let closed = false
  let idleTimer: ReturnType<typeof setTimeout> | undefined
  /** `warmUp` was called: workers that stop when idle are replaced by warm ones. */
  let keepWarm = false

  const usable = () => !closed && size > 0 && failures < maxFailures

  const stopIdle = () => {
    idleTimer = undefined
    const worked = slots.filter((slot) => slot.worked)
    for (const slot of worked) {
      slot.stopping = true
      void slot.worker.terminate()
    }
    slots = slots.filter((slot) => !slot.worked)
    if (keepWarm) void warmUp()
  }

  const settled = (slot: Slot) => {
    if (slot.pending.size > 0) return
    // An idle worker does not keep the process alive.
    slot.worker.unref()
    if (!closed && slots.every((s) => s.pending.size === 0) && slots.some((s) => s.worked)) {
      clearTimeout(idleTimer)
      idleTimer = setTimeout(stopIdle, idleMillis)
      idleTimer.unref()
    }
  }

  /** `slot`'s task `id` passed the budget: it fails with a ParseBudgetError, and the worker is terminated. */
  const overrun = (slot: Slot, id: number, pending: Pending) => {
    slot.pending.delete(id)
    pending.reject(new ParseBudgetError(`A parse worker took over ${taskMillis} ms on one task`))
    // Not a failure to start: the pool keeps its workers.
    slot.stopping = true
    clearTimeout(slot.watchdog)
    slots = slots.filter((s) => s !== slot)
    void slot.worker.terminate()
  }

  /** (Re)arms `slot`'s watchdog for the task it is on (its oldest pending: a worker answers in order), if any. */
  const watch = (slot: Slot) => {
    clearTimeout(slot.watchdog)
    slot.watchdog = undefined
    slot.taskStart = performance.now()
    if (slot.pending.size === 0 || slot.stopping || !slot.ready) return
    slot.watchdog = setTimeout(() => {
      const [id, pending] = slot.pending.entries().next().value ?? []
      if (id !== undefined && pending !== undefined) overrun(slot, id, pending)
    }, taskMillis)
    slot.watchdog.unref()
  }

  const startWorker = (): Slot => {
    const worker = new Worker(entry, { resourceLimits: { maxOldGenerationSizeMb: workerHeapMb } })
    const slot: Slot = { worker, pending: new Map(), stopping: false, answered: false, worked: false, watchdog: undefined, taskStart: 0, ready: false, startTimer: undefined }
    const fail = (error: Error) => {
      clearTimeout(slot.watchdog)
      clearTimeout(slot.startTimer)
      slots = slots.filter((s) => s !== slot)
      if (!slot.stopping && !slot.answered) failures++
      slot.stopping = true
      for (const pending of slot.pending.values()) pending.reject(error)
      slot.pending.clear()
    }
    // Loading its code (seconds on a busy machine, more under tsx) is not part of any task's budget.
    slot.startTimer = setTimeout(() => {
      void worker.terminate()
      fail(new Error(`A parse worker did not start within ${startMillis} ms`))
    }, startMillis)
    slot.startTimer.unref()
    worker.on("message", (answer: Answer) => {
      if ("ready" in answer) {
        clearTimeout(slot.startTimer)
        slot.ready = true
        return watch(slot)
      }
      const pending = slot.pending.get(answer.id)
      if (pending === undefined) return
      // An answer that came after the budget (the watchdog had no turn of the event loop) is over it too.
      if (performance.now() - slot.taskStart > taskMillis) return overrun(slot, answer.id, pending)
      slot.pending.delete(answer.id)
      slot.answered = true
      if ("error" in answer) pending.reject(new Error(answer.error))
      else pending.resolve(answer.digests)
      watch(slot)
      settled(slot)
    })
    worker.on("error", fail)
    worker.on("exit", (code) => fail(new Error(`A parse worker exited with code ${code}`)))
    slots.push(slot)
    return slot
  }

  const send = (slot: Slot, task: DigestTask): Promise<ReadonlyArray<unknown>> =>
    new Promise((resolve, reject) => {
      const id = nextId++
      slot.pending.set(id, { resolve, reject })
      if (slot.pending.size === 1) watch(slot)
      slot.worker.ref()
      // oxlint-disable-next-line unicorn/require-post-message-target-origin -- a worker's port, not a window
      slot.worker.postMessage({ id, task })
    })

  /** The digests of `task`'s chunks, computed by the least busy worker (started when fewer than `size` run). */
  const runTask: RunTask = (task) => {
    clearTimeout(idleTimer)
    const idle = slots.find((slot) => slot.pending.size === 0)
    const slot = idle ?? (slots.length < size ? startWorker() : slots.reduce((a, b) => a.pending.size <= b.pending.size ? a : b))
    slot.worked = true
    return send(slot, task)
  }

  const warmUp = (): Promise<void> => {
    if (!usable()) return Promise.resolve()
    keepWarm = true
    const started: Array<Slot> = []
    while (slots.length < size) started.push(startWorker())
    const tasks = warmUpTasks()
    // An answer settles the slot (an error is a worker's failure, counted where it exits).
    const answers = started.flatMap((slot) => tasks.map((task) => send(slot, task).catch(() => undefined)))
    return Promise.all(answers).then(() => undefined)
  }

  /** Terminates every worker; the tasks they still had fail, and their pages are parsed on the main thread. */
  const close = (): Promise<void> => {
    closed = true
    keepWarm = false
    clearTimeout(idleTimer)
    const all = slots
    slots = []
    for (const slot of all) {
      slot.stopping = true
      clearTimeout(slot.watchdog)
    }
    return Promise.all(all.map((slot) => slot.worker.terminate())).then(() => undefined)
  }

  return {
    runTask: (): RunTask | undefined => usable() ? runTask : undefined,
    warmUp,
    state: (): PoolState => ({ workers: slots.length, failures }),
    close
  }
}

/** The tasks that warm a worker: a page like those the workers parse, a share of it for each kind of digest. */
const warmUpTasks = (): ReadonlyArray<DigestTask> => {
  const page = warmUpPage(Math.ceil(warmUpLength / 80))
  return warmUpShares.map(([kind, share]) => ({ kind, appendix: "", chunks: blockChunks(page.slice(0, page.lastIndexOf("\n\n", page.length * share))) }))
}

/** Paragraphs of a page like those the workers parse (headings, links, emphasis, lists, code, a table). */
const warmUpPage = (paragraphs: number): string =>
  Array.from({ length: paragraphs }, (_, i) =>
    i % 20 === 0
      ? `## Part ${i}\n\nParagraph ${i} links to [the guide](https://example.com/guide/${i}) with **some** _emphasis_ and \`code\`.`
      : i % 20 === 10
      ? `- An item with ![an image](https://example.com/${i}.png)\n- [x] A task ~~struck~~\n\n| a | b |\n| - | - |\n| ${i} | www.example.com |\n\n\`\`\`ts\nconst x = ${i}\n\`\`\``
      : `Paragraph ${i}: ordinary words about topic ${i % 37}, as a real page has them.`
  ).join("\n\n")

/** Characters of the warm-up page: enough for V8 to optimize the parser's hot code. */
const warmUpLength = 128 * 1024

/** How much of the warm-up page each kind of digest parses (search sections are the most common). */
const warmUpShares = [["sections", 1], ["links", 0.5], ["blocks", 0.5]] as const

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
 * A document's pieces for `kind`, with where their lines lie: for `links` only those that may hold
 * a link and that `simpleLinks` does not read (its reads go to `read`, already digested).
 */
function* piecesFor(markdown: string, kind: DigestKind, read: Array<Digests["links"]>, options: DigestOptions): Generator<LinkPiece> {
  if (kind === "links") {
    yield* eachLinkPiece(markdown, chunkLength, { read: (found) => read.push({ found, definitions: [], used: [] }), withinLimits: options.withinLimits })
    return
  }
  // A document's blocks are read whole: GitBook's containers (hints, tabs, expandables) span blank lines a cut may fall on.
  if (kind === "blocks") {
    yield { text: markdown, lines: noLines }
    return
  }
  for (const text of eachBlockChunk(markdown)) yield { text, lines: noLines }
}

// Sections and blocks do not number lines.
const noLines = linesFrom(0)

/** `ParsePoolShape.digestPieces` with the pool's workers (`runTask`), or on the main thread without them. */
const digestPieces = <K extends DigestKind>(
  runTask: RunTask | undefined,
  markdown: string,
  kind: K,
  breathe: Effect.Effect<void>,
  options: DigestOptions
): Effect.Effect<ReadonlyArray<Digests[K]>> => {
  // Links read without a parse: they are positioned, so the collector takes them in any order.
  const read: Array<Digests["links"]> = []
  const withRead = (digests: ReadonlyArray<Digests[K]>) => read.length === 0 ? digests : [...digests, ...(read as ReadonlyArray<unknown> as ReadonlyArray<Digests[K]>)]
  if (runTask === undefined || !forWorkers(markdown)) {
    const all = Array.from(piecesFor(markdown, kind, read, options))
    const appendix = all.length > 1 ? appendixOf(markdown) : ""
    return Effect.map(inline({ kind, appendix, chunks: all.map((piece) => piece.text), lines: all.map((piece) => piece.lines) }, breathe), withRead)
  }
  return Effect.gen(function*() {
    // A long page is cut a task at a time, each sent as soon as it is cut; the page's definitions
    // are gathered once a piece needs parsing (a page whose links are all read needs none).
    let appendix: string | undefined
    const appendixNow = () => appendix ??= appendixOf(markdown)
    const answers: Array<Promise<ReadonlyArray<unknown>>> = []
    const all: Array<LinkPiece> = []
    let chunks: Array<string> = []
    let lines: Array<LineMap> = []
    let length = 0
    const send = () => {
      if (chunks.length > 0) {
        const answer = runTask({ kind, appendix: appendixNow(), chunks, lines })
        // Handled by the `Promise.all` below, which a task that fails while later ones are cut has not reached yet.
        answer.catch(() => undefined)
        answers.push(answer)
      }
      ;[chunks, lines, length] = [[], [], 0]
    }
    for (const piece of piecesFor(markdown, kind, read, options)) {
      if (length > 0 && length + piece.text.length > taskLength) {
        send()
        yield* breathe
      }
      all.push(piece)
      chunks.push(piece.text)
      lines.push(piece.lines)
      length += piece.text.length
    }
    send()
    return yield* Effect.tryPromise({ try: () => Promise.all(answers), catch: (error) => error }).pipe(
      Effect.map((digests) => digests.flat() as ReadonlyArray<Digests[K]>),
      // A worker that cannot start or dies leaves the page to the main thread; one over its budget
      // leaves the page's plain text (parsing it here would hold the event loop instead), without
      // the links read without a parse either.
      Effect.map(withRead),
      Effect.catch((error) =>
        overBudget(error)
          ? inline({ kind, appendix: appendixNow(), chunks: all.map((piece) => piece.text), lines: all.map((piece) => piece.lines), plain: true }, breathe)
          : Effect.map(inline({ kind, appendix: appendixNow(), chunks: all.map((piece) => piece.text), lines: all.map((piece) => piece.lines) }, breathe), withRead)
      )
    )
  })
}

/**
 * `QUIRE_PARSE_WORKERS` (0: parse on the main thread), else one per core, at most two: the main
 * thread mostly waits while they parse, and each keeps the heap it grew to, which for a large page
 * is many times the page's size.
 */
const configuredWorkers = Effect.map(Config.String("QUIRE_PARSE_WORKERS").pipe(Config.withDefault("")), (value) => {
  const configured = Number.parseInt(value, 10)
  return Number.isInteger(configured) && configured >= 0 ? configured : Math.max(1, Math.min(2, availableParallelism()))
})

/** The parse workers of one server (its layers): started on first use, terminated when the layers' scope closes. */
export class ParsePool extends Context.Service<ParsePool, ParsePoolShape>()("@quire/content/ParsePool") {
  /** A pool of at most `options.workers` worker threads. */
  static readonly layerWith = (options: ParsePoolOptions): Layer.Layer<ParsePool> =>
    Layer.effect(
      ParsePool,
      Effect.map(Effect.acquireRelease(Effect.sync(() => makeWorkers(options.workers, options.taskMillis ?? defaultTaskMillis, options.workerUrl ?? workerUrl())), (workers) => Effect.promise(workers.close)), (workers) =>
        ParsePool.of({
          digestPieces: (markdown, kind, breathe = breather(), options = {}) => Effect.suspend(() => digestPieces(workers.runTask(), markdown, kind, breathe, options)),
          warmUp: Effect.promise(workers.warmUp),
          state: Effect.sync(workers.state)
        }))
    )

  /** The pool sized by `QUIRE_PARSE_WORKERS` (the server's). */
  static readonly layer: Layer.Layer<ParsePool> = Layer.unwrap(Effect.map(configuredWorkers, (workers) => ParsePool.layerWith({ workers }))).pipe(Layer.orDie)

  /** Every page parsed on the main thread, a piece at a time (suites whose subject is not the pool). */
  static readonly layerMainThread: Layer.Layer<ParsePool> = ParsePool.layerWith({ workers: 0 })
}
