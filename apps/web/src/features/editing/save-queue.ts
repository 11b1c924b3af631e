/**
 * Autosave of one page of a change request, without React: each edit is kept in localStorage
 * (keyed by change request and page) until the server acknowledges it, and sent debounced (one
 * request at a time, the latest markdown only). A dropped connection retries with a growing delay
 * (and at once when the browser says it is online again); a 409 (the page changed elsewhere) stops
 * the queue until the person reloads, so it never overwrites; another refusal shows its reason.
 * Markdown equal to what the server holds sends nothing.
 */

export type SaveState =
  | { readonly kind: "saved" }
  | { readonly kind: "saving" }
  | { readonly kind: "offline" }
  | { readonly kind: "failed"; readonly reason: string }
  | { readonly kind: "conflict"; readonly reason: string }

/** What one send of the markdown came to. */
export type SendOutcome =
  | { readonly kind: "ok" }
  | { readonly kind: "offline" }
  | { readonly kind: "conflict"; readonly reason: string }
  | { readonly kind: "failed"; readonly reason: string }

export interface DraftStorage {
  getItem(key: string): string | null
  setItem(key: string, value: string): void
  removeItem(key: string): void
}

export interface Timers {
  readonly set: (run: () => void, ms: number) => unknown
  readonly clear: (handle: unknown) => void
}

export interface SaveQueueOptions {
  /** The localStorage key of this page's unsaved markdown (`draftKey`). */
  readonly key: string
  /** The page's markdown as the server holds it. */
  readonly acknowledged: string
  readonly send: (markdown: string) => Promise<SendOutcome>
  readonly onState?: (state: SaveState) => void
  readonly storage?: DraftStorage | undefined
  readonly timers?: Timers | undefined
  /** The debounce (ms); 1 s. */
  readonly delay?: number
  /** Retry delays while offline (ms), the last repeating. */
  readonly retryDelays?: ReadonlyArray<number>
}

export const draftKey = (changeRequestId: string, pageId: string) => `quire:draft:${changeRequestId}:${pageId}`

const defaultTimers: Timers = {
  set: (run, ms) => globalThis.setTimeout(run, ms),
  clear: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof setTimeout>)
}

const safely = (run: () => void) => {
  try {
    run()
  } catch {
    // A full or refused storage loses only the crash copy; the server copy is still sent.
  }
}

export class SaveQueue {
  private acknowledged: string
  private latest: string
  private timer: unknown = undefined
  private inFlight = false
  private retries = 0
  private stopped = false
  private current: SaveState = { kind: "saved" }
  private readonly timers: Timers
  private readonly storage: DraftStorage | undefined

  constructor(private readonly options: SaveQueueOptions) {
    this.acknowledged = options.acknowledged
    this.latest = options.acknowledged
    this.timers = options.timers ?? defaultTimers
    this.storage = options.storage
  }

  get state(): SaveState {
    return this.current
  }

  /** Unsaved markdown kept from an earlier visit, when it differs from the server's. */
  draft(): string | undefined {
    const kept = this.storage?.getItem(this.options.key) ?? null
    return kept === null || kept === this.acknowledged ? undefined : kept
  }

  /** Forgets the kept draft (the person chose the server's version). */
  discardDraft(): void {
    safely(() => this.storage?.removeItem(this.options.key))
  }

  /** An edit is on its way (the editor reports the markdown once typing pauses): no longer "saved". */
  typing(): void {
    if (this.current.kind === "saved") this.set({ kind: "saving" })
  }

  /** The page's markdown now; sent after the debounce. */
  edit(markdown: string): void {
    this.latest = markdown
    if (this.stopped) {
      safely(() => this.storage?.setItem(this.options.key, markdown))
      return
    }
    if (markdown === this.acknowledged && !this.inFlight) {
      this.cancel()
      this.discardDraft()
      this.set({ kind: "saved" })
      return
    }
    safely(() => this.storage?.setItem(this.options.key, markdown))
    this.retries = 0
    this.schedule(this.options.delay ?? 1000)
    if (this.current.kind !== "offline") this.set({ kind: "saving" })
  }

  /** Sends now what is pending (a retry after a failure, the browser back online, leaving the page). */
  flush(): Promise<void> {
    this.cancel()
    return this.run()
  }

  dispose(): void {
    this.cancel()
    this.stopped = true
  }

  private set(state: SaveState) {
    this.current = state
    this.options.onState?.(state)
  }

  private cancel() {
    if (this.timer !== undefined) this.timers.clear(this.timer)
    this.timer = undefined
  }

  private schedule(ms: number) {
    this.cancel()
    this.timer = this.timers.set(() => {
      this.timer = undefined
      void this.run()
    }, ms)
  }

  private async run(): Promise<void> {
    if (this.inFlight || this.stopped) return
    const markdown = this.latest
    if (markdown === this.acknowledged) {
      this.discardDraft()
      this.set({ kind: "saved" })
      return
    }
    this.inFlight = true
    if (this.current.kind !== "offline") this.set({ kind: "saving" })
    let outcome: SendOutcome
    try {
      outcome = await this.options.send(markdown)
    } catch (error) {
      outcome = { kind: "failed", reason: error instanceof Error ? error.message : String(error) }
    }
    this.inFlight = false
    if (this.stopped) return
    switch (outcome.kind) {
      case "ok": {
        this.acknowledged = markdown
        this.retries = 0
        if (this.latest === markdown) {
          this.discardDraft()
          this.set({ kind: "saved" })
        } else this.schedule(0)
        return
      }
      case "offline": {
        const delays = this.options.retryDelays ?? [2000, 5000, 10000, 30000]
        const wait = delays[Math.min(this.retries, delays.length - 1)] ?? 30000
        this.retries++
        this.set({ kind: "offline" })
        this.schedule(wait)
        return
      }
      case "conflict": {
        this.stopped = true
        this.set({ kind: "conflict", reason: outcome.reason })
        return
      }
      case "failed": {
        this.set({ kind: "failed", reason: outcome.reason })
        return
      }
    }
  }
}
