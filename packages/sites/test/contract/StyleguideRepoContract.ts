/** The behaviour every StyleguideRepo adapter must have. */
import { assert, describe, type Vitest } from "@effect/vitest"
import { Effect, Option } from "effect"
import { Transactor } from "@quire/kernel"
import { allIds, assertNone, at, some } from "@quire/testkit"
import type { SiteStyleguide, StyleFinding, StyleguideRun } from "../../src/styleguides/Styleguide.ts"
import { StyleguideRepo } from "../../src/styleguides/StyleguideRepo.ts"

const guide = (siteId: string, overrides: Partial<SiteStyleguide> = {}): SiteStyleguide => ({
  siteId,
  organizationId: "sg-org",
  spaceId: `space-${siteId}`,
  template: "plain-language",
  createdAt: at(1),
  createdBy: "u-ann",
  ...overrides
})

const run = (id: string, siteId: string, overrides: Partial<StyleguideRun> = {}): StyleguideRun => ({
  id,
  organizationId: "sg-org",
  siteId,
  styleguideSpaceId: `space-${siteId}`,
  spaces: ["space-a", "space-b"],
  target: "spaces",
  checks: [{ spaceId: "space-a", changeRequestId: "cr-a", opened: true }, { spaceId: "space-b", changeRequestId: "cr-b", opened: false }],
  status: "running",
  model: false,
  findings: 0,
  error: null,
  createdAt: at(1),
  createdBy: "u-ann",
  finishedAt: null,
  ...overrides
})

const finding = (runId: string, position: number, overrides: Partial<StyleFinding> = {}): StyleFinding => ({
  runId,
  position,
  spaceId: "space-a",
  changeRequestId: "cr-a",
  pageId: "page-1",
  pageTitle: "Getting started",
  ruleId: "no-filler",
  ruleTitle: "No filler",
  message: "Avoid “simply”.",
  quote: "Simply",
  sentence: "Simply open it.",
  fix: "Open it.",
  source: "rule",
  commentId: `c-${position}`,
  ...overrides
})

export const styleguideRepoContract = (it: Vitest.MethodsNonLive<StyleguideRepo | Transactor.Transactor>) =>
  describe("StyleguideRepo", () => {
    it.effect("keeps one guide a site, replaced whole, and lists an organization's guides oldest first", () =>
      Effect.gen(function*() {
        const repo = yield* StyleguideRepo
        assertNone(yield* repo.guideOf("sgg-a"))
        yield* repo.putGuide(guide("sgg-b", { createdAt: at(3), organizationId: "sgg-org" }))
        yield* repo.putGuide(guide("sgg-a", { createdAt: at(2), organizationId: "sgg-org", template: null }))
        yield* repo.putGuide(guide("sgg-x", { organizationId: "sgg-other" }))
        assert.deepStrictEqual(some(yield* repo.guideOf("sgg-a")), guide("sgg-a", { createdAt: at(2), organizationId: "sgg-org", template: null }))
        assert.deepStrictEqual((yield* repo.guidesOf("sgg-org")).map((g) => g.siteId), ["sgg-a", "sgg-b"])
        yield* repo.putGuide(guide("sgg-a", { createdAt: at(2), organizationId: "sgg-org", spaceId: "space-new" }))
        assert.strictEqual(some(yield* repo.guideOf("sgg-a")).spaceId, "space-new")
      }))

    it.effect("keeps a site's runs newest first, page by page, and replaces a run's outcome", () =>
      Effect.gen(function*() {
        const repo = yield* StyleguideRepo
        yield* repo.insertRun(run("sgr-1", "sgr-site", { createdAt: at(1) }))
        yield* repo.insertRun(run("sgr-3", "sgr-site", { createdAt: at(3), target: "change-request", spaces: ["space-a"] }))
        yield* repo.insertRun(run("sgr-2", "sgr-site", { createdAt: at(2) }))
        yield* repo.insertRun(run("sgr-x", "sgr-other"))
        assert.deepStrictEqual(yield* allIds((after) => repo.listRuns("sgr-site", after, 2)), ["sgr-3", "sgr-2", "sgr-1"])
        assert.deepStrictEqual(yield* allIds((after) => repo.listRuns("sgr-site", after, 1)), ["sgr-3", "sgr-2", "sgr-1"])
        const done = run("sgr-2", "sgr-site", { createdAt: at(2), status: "done", model: true, findings: 4, finishedAt: at(5) })
        yield* repo.updateRun(done)
        assert.deepStrictEqual(some(yield* repo.findRun("sgr-2")), done)
        const failed = run("sgr-1", "sgr-site", { status: "failed", error: "The model did not answer", finishedAt: at(4) })
        yield* repo.updateRun(failed)
        assert.deepStrictEqual(some(yield* repo.findRun("sgr-1")), failed)
        yield* repo.updateRun(run("sgr-gone", "sgr-site"))
        assertNone(yield* repo.findRun("sgr-gone"))
      }))

    it.effect("keeps a run's findings in order, page by page", () =>
      Effect.gen(function*() {
        const repo = yield* StyleguideRepo
        yield* repo.insertFindings([finding("sgf-run", 0), finding("sgf-run", 2, { fix: null, source: "model", commentId: null }), finding("sgf-run", 1)])
        yield* repo.insertFindings([finding("sgf-other", 0)])
        yield* repo.insertFindings([])
        const page = yield* repo.findings("sgf-run", undefined, 2)
        assert.deepStrictEqual(page.items, [finding("sgf-run", 0), finding("sgf-run", 1)])
        const rest = yield* repo.findings("sgf-run", [1], 2)
        assert.deepStrictEqual(rest.items, [finding("sgf-run", 2, { fix: null, source: "model", commentId: null })])
      }))

    it.effect("records the change request a check ran in, the latest first for a space", () =>
      Effect.gen(function*() {
        const repo = yield* StyleguideRepo
        yield* repo.putCheck({ changeRequestId: "sgc-cr1", siteId: "sgc-site", spaceId: "sgc-space", runId: "r1", checkedAt: null })
        yield* repo.putCheck({ changeRequestId: "sgc-cr2", siteId: "sgc-site", spaceId: "sgc-space", runId: "r2", checkedAt: at(3) })
        assert.deepStrictEqual((yield* repo.checksOfSpace("sgc-site", "sgc-space")).map((c) => c.changeRequestId), ["sgc-cr2", "sgc-cr1"])
        // Taken over by a later run: it is the latest again.
        yield* repo.putCheck({ changeRequestId: "sgc-cr1", siteId: "sgc-site", spaceId: "sgc-space", runId: "r3", checkedAt: at(4) })
        assert.deepStrictEqual((yield* repo.checksOfSpace("sgc-site", "sgc-space")).map((c) => [c.changeRequestId, c.runId]), [["sgc-cr1", "r3"], ["sgc-cr2", "r2"]])
        assert.deepStrictEqual(some(yield* repo.checkOf("sgc-cr1")), { changeRequestId: "sgc-cr1", siteId: "sgc-site", spaceId: "sgc-space", runId: "r3", checkedAt: at(4) })
        assert.deepStrictEqual(yield* repo.checksOfSpace("sgc-other", "sgc-space"), [])
      }))

    it.effect("forgets a deleted site's guide, runs, findings and checks, and nothing of another site's", () =>
      Effect.gen(function*() {
        const repo = yield* StyleguideRepo
        yield* repo.putGuide(guide("sgd-site"))
        yield* repo.putGuide(guide("sgd-keep"))
        yield* repo.insertRun(run("sgd-run", "sgd-site"))
        yield* repo.insertRun(run("sgd-kept", "sgd-keep"))
        yield* repo.insertFindings([finding("sgd-run", 0), finding("sgd-kept", 0)])
        yield* repo.putCheck({ changeRequestId: "sgd-cr", siteId: "sgd-site", spaceId: "s", runId: "sgd-run", checkedAt: null })
        yield* repo.removeSite("sgd-site")
        assertNone(yield* repo.guideOf("sgd-site"))
        assertNone(yield* repo.findRun("sgd-run"))
        assert.deepStrictEqual((yield* repo.findings("sgd-run", undefined, 5)).items, [])
        assertNone(yield* repo.checkOf("sgd-cr"))
        assert.isTrue(Option.isSome(yield* repo.guideOf("sgd-keep")))
        assert.strictEqual((yield* repo.findings("sgd-kept", undefined, 5)).items.length, 1)
      }))

    it.effect("keeps nothing written in a transaction that rolled back", () =>
      Effect.gen(function*() {
        const repo = yield* StyleguideRepo
        const transactor = yield* Transactor.Transactor
        yield* transactor.transaction(Effect.gen(function*() {
          yield* repo.putGuide(guide("sgb-site"))
          yield* repo.insertRun(run("sgb-run", "sgb-site"))
          yield* repo.insertFindings([finding("sgb-run", 0)])
          return yield* Effect.fail("undo" as const)
        })).pipe(Effect.ignore)
        assertNone(yield* repo.guideOf("sgb-site"))
        assertNone(yield* repo.findRun("sgb-run"))
        assert.deepStrictEqual((yield* repo.findings("sgb-run", undefined, 5)).items, [])
      }))
  })
