/**
 * Processing runs of OpenAPI specs (the `specs.process` job): a run records its outcome on the spec
 * (a new version when the content changed); runs the queue gave up are recorded as failed; URL
 * specs due again, and runs that were lost, are polled (the `specs.poll` job).
 */
import { Clock, Config, Effect, Option, Result } from "effect"
import { Ids } from "@quire/kernel"
import { OutboundFetch } from "@quire/outbound"
import { PermanentJobFailure } from "@quire/queue"
import type { Spec, SpecSource, SpecVersion } from "./domain/Spec.ts"
import * as Processing from "./Processing.ts"
import * as SourceCredentials from "./SourceCredentials.ts"
import { SpecsRepo } from "./SpecsRepo.ts"

/** How long a run may stay pending or in progress before the poller runs it again. */
const lostRunMillis = 15 * 60 * 1000

/** Built by the Specs layer; the polling interval is `QUIRE_SPECS_POLL_SECONDS`, the fetch time limit `QUIRE_SPECS_FETCH_TIMEOUT_MS`. */
export const make = Effect.gen(function*() {
  const repo = yield* SpecsRepo
  const ids = yield* Ids.Ids
  const fetcher = yield* OutboundFetch
  const secrets = yield* SourceCredentials.SpecSecrets
  const pollSeconds = yield* Config.Number("QUIRE_SPECS_POLL_SECONDS").pipe(Config.withDefault(3600), Effect.orDie)
  const fetchTimeout = yield* Config.Number("QUIRE_SPECS_FETCH_TIMEOUT_MS").pipe(Config.withDefault(20_000), Effect.orDie)
  const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))

  /** A spec stored before credentials were sealed: sealed now, so no row keeps them in clear past its next run. */
  const sealStored = (spec: Spec): Effect.Effect<Spec> => {
    if (!("url" in spec.source) || spec.source.sealedUrl !== undefined) return Effect.succeed(spec)
    const source = SourceCredentials.seal(secrets, spec.source)
    if (!("sealedUrl" in source)) return Effect.succeed(spec)
    return Effect.map(repo.update(spec.id, { source }), Option.getOrElse(() => spec))
  }

  /** A run of `source`: a URL is fetched with its credentials, which no error it records shows. */
  const runOn = (source: SpecSource): Effect.Effect<Processing.Processed, Processing.ProcessFailure, OutboundFetch> => {
    if (!("url" in source)) return Processing.run(source, fetchTimeout)
    const url = SourceCredentials.fetchUrl(secrets, source)
    if (Option.isNone(url)) {
      return Effect.fail({
        code: "FETCH_ERROR",
        errors: [{ message: "The source URL's credentials cannot be opened with this instance's key (QUIRE_SECRET changed?): give the URL again", code: "SEALED" }]
      })
    }
    return Processing.run({ url: url.value }, fetchTimeout).pipe(
      Effect.mapError((failure) => ({
        code: failure.code,
        errors: failure.errors.map((error) => ({ ...error, message: SourceCredentials.redact(error.message, url.value) }))
      }))
    )
  }

  /** Records what the run of `spec` gave, unless its source was replaced or it was deleted meanwhile. */
  const record = Effect.fnUntraced(function*(spec: Spec, outcome: Result.Result<Processing.Processed, Processing.ProcessFailure>) {
    const specId = spec.id
    const at = yield* now
    // The source may have been replaced or the spec deleted while this ran: the newest run wins.
    const current = yield* repo.find(specId)
    if (Option.isNone(current) || JSON.stringify(current.value.source) !== JSON.stringify(spec.source)) return
    if (Result.isFailure(outcome)) {
      // A failed run is GitBook's `complete` with `lastProcessErrorCode`, never left in `progress`.
      yield* repo.update(specId, {
        processingState: "complete",
        lastProcessErrorCode: outcome.failure.code,
        lastProcessedErrors: outcome.failure.errors,
        lastProcessedAt: at,
        updatedAt: at
      })
      // The same document fails the same way again: the job ends here rather than being retried.
      if (Processing.isDeterministic(outcome.failure)) {
        return yield* new PermanentJobFailure({ reason: `OpenAPI spec ${specId}: ${outcome.failure.errors[0]?.message ?? outcome.failure.code}` })
      }
      return
    }
    let lastVersionId = current.value.lastVersionId
    const latest = lastVersionId === null ? Option.none() : yield* repo.findVersion(specId, lastVersionId)
    if (Option.isNone(latest) || latest.value.hash !== outcome.success.hash) {
      const version: SpecVersion = {
        id: yield* ids.make,
        specId,
        createdAt: at,
        filesystem: outcome.success.filesystem,
        hash: outcome.success.hash,
        url: "url" in spec.source ? spec.source.url : null
      }
      yield* repo.insertVersion(version)
      lastVersionId = version.id
    }
    yield* repo.update(specId, {
      processingState: "complete",
      lastProcessErrorCode: null,
      lastProcessedErrors: [],
      lastProcessedAt: at,
      lastVersionId,
      updatedAt: at
    })
  })

  const process = (specId: string): Effect.Effect<void, PermanentJobFailure> =>
    Effect.gen(function*() {
      const found = yield* repo.find(specId)
      if (Option.isNone(found)) return
      const spec = yield* sealStored(found.value)
      yield* repo.update(specId, { processingState: "progress" })
      const outcome = yield* runOn(spec.source).pipe(
        Effect.provideService(OutboundFetch, fetcher),
        // A defect of the parser or the validator on this document would be the same on every attempt.
        Effect.catchDefect((defect) => Effect.fail<Processing.ProcessFailure>({
          code: "PARSE_ERROR",
          errors: [{ message: `Processing failed: ${String(defect instanceof Error ? defect.message : defect).slice(0, 500)}`, code: "PROCESSING_ERROR" }]
        })),
        Effect.result
      )
      yield* record(spec, outcome)
    }).pipe(Effect.withSpan("Specs.process"))

  const giveUp = (specId: string, reason: string): Effect.Effect<void> =>
    Effect.gen(function*() {
      const found = yield* repo.find(specId)
      if (Option.isNone(found) || found.value.processingState === "complete") return
      const at = yield* now
      yield* repo.update(specId, {
        processingState: "complete",
        lastProcessErrorCode: "PARSE_ERROR",
        lastProcessedErrors: [{ message: `Processing stopped: ${reason}. Save the spec again to process it again.`, code: "PROCESSING_STOPPED" }],
        lastProcessedAt: at,
        updatedAt: at
      })
    })

  const pollDue: Effect.Effect<number> = Effect.gen(function*() {
    const at = (yield* now).getTime()
    const due = (yield* repo.withUrl).filter((s) =>
      s.processingState === "complete"
        ? s.lastProcessedAt === null || at - s.lastProcessedAt.getTime() >= pollSeconds * 1000
        // A run that has not finished long after it was asked for was lost (a crashed worker past its retries).
        : at - s.updatedAt.getTime() >= Math.max(pollSeconds * 1000, lostRunMillis))
    yield* Effect.forEach(due, (s) => Effect.ignore(process(s.id)), { concurrency: 2, discard: true })
    return due.length
  })

  return { process, giveUp, pollDue }
})
