/**
 * Load through autocannon's programmatic API, with the server's CPU time over the same window.
 * The machine is small and shared, so targets are measured in alternating rounds and each
 * target's rounds are summed: a burst of outside load then hits every target alike.
 */
import autocannon, { type Result } from "autocannon"
import { Effect } from "effect"
import type { Running } from "./Servers.ts"

export interface LoadOptions {
  readonly connections: number
  /** Seconds of load per target whose results are discarded (JIT, pools, caches). */
  readonly warmup: number
  /** Measured seconds per target and endpoint, split over `rounds`. */
  readonly duration: number
  readonly rounds: number
}

export interface Endpoint {
  readonly name: string
  readonly path: string
  /** Sent with every request, besides the token. */
  readonly headers?: Readonly<Record<string, string>> | undefined
  /** A 304 answers as expected (conditional requests): not counted as a failure. */
  readonly notModified?: boolean | undefined
  /** Sent without the token, as a reader of a published page (or any anonymous client) sends it. */
  readonly anonymous?: boolean | undefined
  /**
   * Requests each connection sends in turn after the GET of `path` (a page's insights beacon), as a
   * browser reading the page sends them; counted and timed with it.
   */
  readonly followedBy?: ReadonlyArray<{ readonly method: "POST"; readonly path: string; readonly body: string; readonly headers: Readonly<Record<string, string>> }> | undefined
}

/** One autocannon run against one target. */
export interface Sample {
  readonly requests: number
  readonly seconds: number
  readonly p50: number
  readonly p99: number
  readonly cpuMicros: number
  /** Non-2xx answers, connection errors and timeouts. */
  readonly failures: number
}

export interface Measurement {
  readonly target: string
  readonly endpoint: string
  readonly requestsPerSecond: number
  /** Latency percentiles in ms, averaged over the rounds weighted by their requests. */
  readonly p50: number
  readonly p99: number
  /** Server CPU (user + system) per answered request, in microseconds. */
  readonly cpuPerRequest: number
  readonly failures: number
  /** Each round's samples, in the order measured: a figure's spread, round by round. */
  readonly rounds: ReadonlyArray<Sample>
}

const fire = (
  url: string,
  token: string | undefined,
  connections: number,
  duration: number,
  headers: Readonly<Record<string, string>> = {},
  followedBy: Endpoint["followedBy"] = undefined
) =>
  Effect.promise((): PromiseLike<Result> => {
    const all = token === undefined ? headers : { ...headers, authorization: `Bearer ${token}` }
    const requests = followedBy === undefined || followedBy.length === 0
      ? undefined
      : [{ method: "GET" as const, path: new URL(url).pathname }, ...followedBy.map((r) => ({ method: r.method, path: r.path, body: r.body, headers: { ...all, ...r.headers } }))]
    // autocannon ends a run at its first sample after `duration`, a sample a second by default: a
    // whole number of samples in `duration` keeps a fraction of a second from running a second.
    const sampleInt = (duration * 1000) / Math.max(1, Math.ceil(duration))
    return autocannon({ url, connections, duration, sampleInt, headers: all, ...(requests === undefined ? {} : { requests }) })
  })

/** Load for `seconds` against `running`; the returned sample is discarded for a warm-up. */
export const sample = (running: Pick<Running, "baseUrl" | "cpuMicros">, endpoint: Endpoint, token: string, connections: number, seconds: number) =>
  Effect.gen(function*() {
    const cpuBefore = yield* running.cpuMicros
    const result = yield* fire(`${running.baseUrl}${endpoint.path}`, endpoint.anonymous === true ? undefined : token, connections, seconds, endpoint.headers, endpoint.followedBy)
    const expected = endpoint.notModified === true ? (result.statusCodeStats["304"]?.count ?? 0) : 0
    const cpuAfter = yield* running.cpuMicros
    return {
      requests: result.requests.total,
      seconds: result.duration,
      p50: result.latency.p50,
      p99: result.latency.p99,
      cpuMicros: cpuAfter - cpuBefore,
      failures: result.non2xx - expected + result.errors + result.timeouts
    } satisfies Sample
  })

/** Sums one target's rounds. */
export const combine = (target: string, endpoint: string, samples: ReadonlyArray<Sample>): Measurement => {
  const requests = samples.reduce((n, s) => n + s.requests, 0)
  const weighted = (f: (s: Sample) => number) => samples.reduce((n, s) => n + f(s) * s.requests, 0) / Math.max(1, requests)
  return {
    target,
    endpoint,
    requestsPerSecond: requests / samples.reduce((n, s) => n + s.seconds, 0),
    p50: weighted((s) => s.p50),
    p99: weighted((s) => s.p99),
    cpuPerRequest: samples.reduce((n, s) => n + s.cpuMicros, 0) / Math.max(1, requests),
    failures: samples.reduce((n, s) => n + s.failures, 0),
    rounds: samples
  }
}

/**
 * The lowest and highest of `measured`'s ratio to `base` round by round (`of` a round's sample):
 * the two were measured back to back in each round, so the spread shows what the machine's noise
 * does to the ratio.
 */
export const roundRatios = (measured: Measurement, base: Measurement, of: (sample: Sample) => number): readonly [number, number] | undefined => {
  const ratios = ratiosByRound(base.rounds.map(of), measured.rounds.map(of))
  return ratios.length === 0 ? undefined : [Math.min(...ratios), Math.max(...ratios)]
}

/** Each round's `measured` value over `base`'s of the same round (a round without a base, or a base of 0, left out). */
export const ratiosByRound = (base: ReadonlyArray<number>, measured: ReadonlyArray<number>): ReadonlyArray<number> =>
  measured.flatMap((value, round) => {
    const paired = base[round]
    return paired === undefined || paired === 0 ? [] : [value / paired]
  })

/** A round's requests a second, and its server CPU per request in microseconds. */
export const roundRate = (sample: Sample) => sample.requests / Math.max(sample.seconds, 1e-9)
export const roundCpu = (sample: Sample) => sample.cpuMicros / Math.max(sample.requests, 1)

/**
 * Every target warms up on `endpoint`, then all are measured in `rounds` rounds, the order
 * reversed every other round.
 */
export const compare = (
  targets: ReadonlyArray<Running>,
  endpoint: Endpoint,
  token: string,
  options: LoadOptions,
  progress: (message: string) => Effect.Effect<void>
): Effect.Effect<ReadonlyArray<Measurement>> =>
  Effect.gen(function*() {
    const seconds = options.duration / options.rounds
    if (options.warmup > 0) {
      yield* progress(`${endpoint.name}: warming up ${targets.length} targets, ${options.warmup} s each`)
      for (const target of targets) yield* sample(target, endpoint, token, options.connections, options.warmup)
    }
    const samples = new Map<Running, Array<Sample>>(targets.map((t) => [t, []]))
    for (let round = 0; round < options.rounds; round++) {
      yield* progress(`${endpoint.name}: round ${round + 1}/${options.rounds}, ${seconds} s per target`)
      const order = round % 2 === 0 ? targets : targets.toReversed()
      for (const target of order) samples.get(target)!.push(yield* sample(target, endpoint, token, options.connections, seconds))
    }
    return targets.map((t) => combine(t.name, endpoint.name, samples.get(t)!))
  })

/**
 * `report` when no request failed; otherwise fails with it and the failed counts: figures over
 * errors are not the figures they claim to be (a baseline answering 500s looked fast).
 */
export const unlessFailed = (report: string, failed: ReadonlyArray<{ readonly what: string; readonly failures: number }>) => {
  const bad = failed.filter((f) => f.failures > 0)
  return bad.length === 0
    ? Effect.succeed(report)
    : Effect.fail(new Error(`${report}\n\nRequests failed: ${bad.map((f) => `${f.what} ${f.failures}`).join("; ")}`))
}
