/** The part of autocannon's programmatic API the benchmark uses (the package ships no types). */
declare module "autocannon" {
  export interface Histogram {
    readonly average: number
    readonly mean: number
    readonly stddev: number
    readonly min: number
    readonly max: number
    readonly total: number
    readonly p50: number
    readonly p90: number
    readonly p99: number
  }

  export interface Result {
    readonly requests: Histogram
    readonly latency: Histogram
    readonly duration: number
    readonly errors: number
    readonly timeouts: number
    readonly non2xx: number
    readonly statusCodeStats: Readonly<Record<string, { readonly count: number }>>
  }

  export interface Options {
    readonly url: string
    readonly connections?: number
    readonly duration?: number
    readonly headers?: Readonly<Record<string, string>>
    readonly timeout?: number
    /** Milliseconds between samples (1000); the run ends at the first sample after `duration`. */
    readonly sampleInt?: number
    /** The requests each connection sends in turn (then again from the first). */
    readonly requests?: ReadonlyArray<{ readonly method: string; readonly path: string; readonly body?: string; readonly headers?: Readonly<Record<string, string>> }>
  }

  export interface Instance extends PromiseLike<Result> {
    stop(): void
  }

  function autocannon(options: Options): Instance
  export default autocannon
}
