/** The behaviour every SiteContextRepo adapter must have. */
import { assert, describe, type Vitest } from "@effect/vitest"
import { Effect, Option } from "effect"
import { Transactor } from "@quire/kernel"
import type { StoredConnection, StoredFinding, StoredRecord, StoredScan, StoredTopic } from "../../src/domain/Findings.ts"
import { SiteContextRepo } from "../../src/findings/SiteContextRepo.ts"

const iso = (ms: number) => new Date(ms).toISOString()

const record = (id: string, siteId: string, ms: number, overrides: Partial<StoredRecord> = {}): StoredRecord => ({
  id,
  organizationId: "org-c",
  siteId,
  connectionId: "api",
  connector: "builtin:api",
  externalId: `ext-${id}`,
  origin: "api",
  type: "ticket",
  title: `Ticket ${id}`,
  body: "How do I rotate the secret?",
  url: null,
  metadata: { priority: "high", votes: 3 },
  questionId: null,
  topics: [],
  createdAt: iso(ms),
  updatedAt: iso(ms),
  processedAt: null,
  ...overrides
})

const topic = (id: string, siteId: string, ms: number): StoredTopic => ({
  id,
  organizationId: "org-c",
  siteId,
  keywords: ["webhook", "secret"],
  label: "Webhook, secret",
  summary: "Two records.",
  changeRequests: true,
  pages: [{ spaceId: "sp", pageId: "pg", title: "Webhooks", path: "webhooks" }],
  records: ["r-1"],
  createdAt: iso(ms),
  updatedAt: iso(ms)
})

const scan = (id: string, siteId: string, ms: number, overrides: Partial<StoredScan> = {}): StoredScan => ({
  id,
  organizationId: "org-c",
  siteId,
  topic: null,
  status: "pending",
  createdAt: iso(ms),
  startedAt: null,
  finishedAt: null,
  findings: { low: 0, medium: 0, high: 0 },
  failureMessage: null,
  ...overrides
})

const finding = (id: string, siteId: string, topicId: string | null, ms: number): StoredFinding => ({
  id,
  organizationId: "org-c",
  siteId,
  scanId: "s-1",
  topicId,
  title: "Missing from the docs: webhooks",
  description: "- How do I rotate the secret?",
  status: "open",
  type: "content-gap",
  severity: "medium",
  records: ["r-1"],
  questions: ["q-1"],
  connectors: ["builtin:api"],
  connections: ["api"],
  pages: [],
  changeRequests: [{ spaceId: "sp", changeRequestId: "cr", drafted: false }],
  createdAt: iso(ms),
  updatedAt: iso(ms)
})

const connection = (id: string, siteId: string, ms: number): StoredConnection => ({
  id,
  organizationId: "org-c",
  siteId,
  setup: { connector: "builtin:github-issues", repository: "acme/docs", sealedToken: "sealed", apiUrl: null },
  label: null,
  filter: "bug",
  usage: { changeRequests: true, search: false, searchBoost: "x1.0" },
  status: "pending",
  failureMessage: null,
  failureReason: null,
  syncedAt: null,
  createdAt: iso(ms)
})

export const siteContextRepoContract = (it: Vitest.MethodsNonLive<SiteContextRepo | Transactor.Transactor>) =>
  describe("SiteContextRepo", () => {
    it.effect("keeps records per site, oldest first, replaces one by id and keeps every field", () =>
      Effect.gen(function*() {
        const repo = yield* SiteContextRepo
        yield* repo.putRecords([record("r-2", "ctx-site", 20), record("r-1", "ctx-site", 10, { url: "https://help.example.com/1", questionId: "q-1", origin: "question" }), record("r-3", "ctx-other", 5)])
        assert.deepStrictEqual((yield* repo.records("ctx-site")).map((r) => r.id), ["r-1", "r-2"])
        const replaced = record("r-2", "ctx-site", 20, { title: "Changed", topics: ["t-1"], processedAt: iso(30) })
        yield* repo.putRecords([replaced])
        assert.deepStrictEqual(yield* repo.record("ctx-site", "r-2"), Option.some(replaced))
        assert.deepStrictEqual(yield* repo.record("ctx-site", "r-1"), Option.some(record("r-1", "ctx-site", 10, { url: "https://help.example.com/1", questionId: "q-1", origin: "question" })))
        // Another site's record is not this site's.
        assert.isTrue(Option.isNone(yield* repo.record("ctx-site", "r-3")))
      }))

    it.effect("saves a scan with its topics, findings and records in one transaction, rolled back whole", () =>
      Effect.gen(function*() {
        const repo = yield* SiteContextRepo
        const transactor = yield* Transactor.Transactor
        const done = scan("s-1", "scan-site", 10, { status: "done", findings: { low: 0, medium: 1, high: 0 }, finishedAt: iso(20) })
        yield* repo.saveScan(done, [topic("t-1", "scan-site", 10)], [finding("f-1", "scan-site", "t-1", 10)], [record("sr-1", "scan-site", 1, { topics: ["t-1"] })])
        assert.deepStrictEqual(yield* repo.scan("scan-site", "s-1"), Option.some(done))
        assert.deepStrictEqual(yield* repo.topics("scan-site"), [topic("t-1", "scan-site", 10)])
        assert.deepStrictEqual(yield* repo.findings("scan-site"), [finding("f-1", "scan-site", "t-1", 10)])
        assert.deepStrictEqual((yield* repo.records("scan-site")).map((r) => r.topics), [["t-1"]])

        const failed = yield* transactor.transaction(Effect.gen(function*() {
          yield* repo.saveScan(scan("s-2", "scan-site", 30), [topic("t-2", "scan-site", 30)], [finding("f-2", "scan-site", "t-2", 30)], [])
          return yield* Effect.fail("boom")
        })).pipe(Effect.flip)
        assert.strictEqual(failed, "boom")
        assert.deepStrictEqual((yield* repo.scans("scan-site")).map((s) => s.id), ["s-1"])
        assert.deepStrictEqual((yield* repo.topics("scan-site")).map((t) => t.id), ["t-1"])
      }))

    it.effect("updates a finding, forgets a topic's findings and answers how many", () =>
      Effect.gen(function*() {
        const repo = yield* SiteContextRepo
        yield* repo.putFinding(finding("f-a", "fnd-site", "t-a", 10))
        yield* repo.putFinding(finding("f-b", "fnd-site", "t-a", 20))
        yield* repo.putFinding(finding("f-c", "fnd-site", "t-b", 30))
        const done = { ...finding("f-a", "fnd-site", "t-a", 10), status: "done" as const, updatedAt: iso(40) }
        yield* repo.putFinding(done)
        assert.deepStrictEqual(yield* repo.finding("fnd-site", "f-a"), Option.some(done))
        assert.strictEqual(yield* repo.removeTopicFindings("fnd-site", "t-a"), 2)
        assert.deepStrictEqual((yield* repo.findings("fnd-site")).map((f) => f.id), ["f-c"])
      }))

    it.effect("keeps connections, and forgets one with its records", () =>
      Effect.gen(function*() {
        const repo = yield* SiteContextRepo
        yield* repo.putConnection(connection("c-1", "con-site", 10))
        yield* repo.putConnection(connection("c-2", "con-site", 20))
        yield* repo.putRecords([record("cr-1", "con-site", 1, { connectionId: "c-1" }), record("cr-2", "con-site", 2, { connectionId: "c-2" })])
        const synced = { ...connection("c-1", "con-site", 10), status: "succeeded" as const, syncedAt: iso(30) }
        yield* repo.putConnection(synced)
        assert.deepStrictEqual(yield* repo.connection("con-site", "c-1"), Option.some(synced))
        yield* repo.removeConnection("con-site", "c-1")
        assert.deepStrictEqual((yield* repo.connections("con-site")).map((c) => c.id), ["c-2"])
        assert.deepStrictEqual((yield* repo.records("con-site")).map((r) => r.id), ["cr-2"])
      }))

    it.effect("answers the connections of every site due a sync, the longest waiting first", () =>
      Effect.gen(function*() {
        const repo = yield* SiteContextRepo
        yield* repo.putConnection({ ...connection("due-a", "due-site-1", 10), attemptedAt: iso(1_000), syncedAt: iso(100) })
        yield* repo.putConnection({ ...connection("due-b", "due-site-2", 10), syncedAt: iso(500) })
        yield* repo.putConnection({ ...connection("due-c", "due-site-1", 10), attemptedAt: iso(5_000), syncedAt: iso(200) })
        const due = yield* repo.dueConnections(iso(2_000), 1_000)
        // Connections never tried (other tests') come first; a failed attempt waits like a success.
        assert.deepStrictEqual(due.map((c) => c.id).filter((id) => id.startsWith("due-")), ["due-b", "due-a"])
        assert.deepStrictEqual(due.find((c) => c.id === "due-a")?.attemptedAt, iso(1_000))
        assert.isAtMost((yield* repo.dueConnections(iso(2_000), 1)).length, 1)
      }))

    it.effect("forgets everything of a deleted site, and nothing of another", () =>
      Effect.gen(function*() {
        const repo = yield* SiteContextRepo
        yield* repo.putRecords([record("d-1", "del-site", 1), record("d-2", "keep-site", 1)])
        yield* repo.putScan(scan("ds-1", "del-site", 1))
        yield* repo.putTopic(topic("dt-1", "del-site", 1))
        yield* repo.putFinding(finding("df-1", "del-site", null, 1))
        yield* repo.putConnection(connection("dc-1", "del-site", 1))
        yield* repo.removeSite("del-site")
        assert.deepStrictEqual([
          (yield* repo.records("del-site")).length,
          (yield* repo.scans("del-site")).length,
          (yield* repo.topics("del-site")).length,
          (yield* repo.findings("del-site")).length,
          (yield* repo.connections("del-site")).length,
          (yield* repo.records("keep-site")).length
        ], [0, 0, 0, 0, 0, 1])
      }))
  })
