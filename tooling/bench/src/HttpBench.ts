/**
 * `pnpm bench --http`: the Quire server against a plain node:http + pg baseline doing the same
 * queries, on a fresh database of the machine's PostgreSQL and on embedded PGlite, under the same
 * autocannon load in alternating rounds. `variants` adds Quire variants on PostgreSQL (user from
 * token, tracer on) and both servers without a database (memory), to tell framework cost from
 * database cost; `profile` records a CPU profile of each under load and summarizes where the time
 * went.
 */
import { Effect } from "effect"
import { cp, mkdtemp } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Database } from "@quire/db"
import * as Load from "./Load.ts"
import * as ProfileSummary from "./ProfileSummary.ts"
import * as Scratch from "./Scratch.ts"
import * as Seed from "./Seed.ts"
import * as Servers from "./Servers.ts"
import type * as Target from "./Target.ts"

export interface HttpBenchOptions {
  readonly load: Load.LoadOptions
  readonly backends: ReadonlySet<string>
  readonly adminUrl: string
  readonly variants: boolean
  readonly profile: boolean
}

type Config = Omit<Target.TargetConfig, "port" | "adminToken" | "adminEmail">

/** Targets measured against each other; the first baseline is the reference of the group. */
interface Group {
  readonly name: string
  readonly targets: ReadonlyArray<{ readonly name: string; readonly config: Config }>
  /** The seeded organization, or "discover": ask the first target (memory backends). */
  readonly organizationId: string
}

interface Row {
  readonly group: string
  readonly baseline: boolean
  readonly measurement: Load.Measurement
}

const endpoints = (organizationId: string): ReadonlyArray<Load.Endpoint> => [
  { name: "GET /v1/orgs/{id}", path: `/v1/orgs/${organizationId}` },
  { name: "GET /v1/user", path: "/v1/user" }
]

/** The administrator's only organization on a memory backend. */
const discoverOrganization = (running: Servers.Running) =>
  Effect.promise(async () => {
    const response = await fetch(`${running.baseUrl}/v1/orgs`, { headers: { authorization: `Bearer ${Seed.adminToken}` } })
    const body = await response.json() as { readonly items: ReadonlyArray<{ readonly id: string }> }
    return body.items[0]!.id
  })

/** Where the profiles go, and the built server's source maps (read once for every profile). */
interface Profiling {
  readonly dir: string
  readonly sources: ReturnType<typeof ProfileSummary.builtSources>
}

const runGroup = (group: Group, rows: Array<Row>, reports: Array<string>, profiling: Profiling, options: HttpBenchOptions, progress: (message: string) => Effect.Effect<void>) =>
  Effect.scoped(Effect.gen(function*() {
    const running: Array<Servers.Running> = []
    let organizationId = group.organizationId
    for (const target of group.targets) {
      yield* progress(`starting ${target.name}`)
      running.push(yield* Servers.start(target.name, {
        ...target.config,
        organizationId,
        adminToken: Seed.adminToken,
        adminEmail: Seed.adminEmail
      }))
      if (organizationId === "discover") organizationId = yield* discoverOrganization(running[0]!)
    }
    for (const endpoint of endpoints(organizationId)) {
      const measured = yield* Load.compare(running, endpoint, Seed.adminToken, options.load, progress)
      measured.forEach((measurement, i) =>
        rows.push({ group: group.name, baseline: group.targets[i]!.config.server === "baseline", measurement })
      )
      if (!options.profile) continue
      for (const [i, target] of running.entries()) {
        if (group.targets[i]!.config.variant !== undefined) continue
        const file = join(profiling.dir, `${target.name.replace(/\W+/g, "-")}${endpoint.path.split("/")[2]}.cpuprofile`)
        yield* progress(`${endpoint.name}: profiling ${target.name}`)
        const seconds = options.load.duration / options.load.rounds
        yield* Load.sample(target, endpoint, Seed.adminToken, options.load.connections, seconds).pipe(target.profiled(file))
        const summary = yield* Effect.promise(() => ProfileSummary.summarize(file, measured[i]!.cpuPerRequest, profiling.sources))
        reports.push(`${target.name}, ${endpoint.name} (${file}):\n${summary}`)
      }
    }
  }))

/** A ratio's lowest and highest over the rounds, `0.72-0.85`; empty for the baseline itself. */
const spread = (range: readonly [number, number] | undefined) =>
  range === undefined ? "" : `${range[0].toFixed(2)}-${range[1].toFixed(2)}`

const table = (rows: ReadonlyArray<Row>): string => {
  const header = ["target", "endpoint", "req/s", "p50 ms", "p99 ms", "CPU µs/req", "vs baseline", "per round", "failed"]
  const groupOrder = [...new Set(rows.map((r) => r.group))]
  const ordered = rows.toSorted((a, b) =>
    groupOrder.indexOf(a.group) - groupOrder.indexOf(b.group) || Number(b.baseline) - Number(a.baseline)
  )
  const body = ordered.map(({ group, measurement: m }) => {
    const base = rows.find((r) => r.group === group && r.baseline && r.measurement.endpoint === m.endpoint)
    return [
      m.target,
      m.endpoint,
      m.requestsPerSecond.toFixed(0),
      m.p50.toFixed(1),
      m.p99.toFixed(1),
      m.cpuPerRequest.toFixed(0),
      base === undefined ? "" : (m.requestsPerSecond / base.measurement.requestsPerSecond).toFixed(2),
      spread(base === undefined || base.measurement === m ? undefined : Load.roundRatios(m, base.measurement, Load.roundRate)),
      String(m.failures)
    ]
  })
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((r) => r[i]!.length)))
  const line = (cells: ReadonlyArray<string>) =>
    cells.map((c, i) => (i < 2 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join("  ")
  return [line(header), widths.map((w) => "-".repeat(w)).join("  "), ...body.map(line)].join("\n")
}

/**
 * The goal: GET /v1/orgs/{id} on PostgreSQL at no less than 0.9 of the plain node:http + pg server
 * doing the same queries, in CPU time per request (baseline µs / Quire µs).
 */
const cpuGoals = (rows: ReadonlyArray<Row>): string => {
  const goal = 0.9
  const lines = rows.filter((row) => !row.baseline && row.measurement.endpoint === "GET /v1/orgs/{id}" && row.group !== "memory").flatMap((row) => {
    const base = rows.find((r) => r.group === row.group && r.baseline && r.measurement.endpoint === row.measurement.endpoint)
    if (base === undefined) return []
    const ratio = base.measurement.cpuPerRequest / row.measurement.cpuPerRequest
    // The baseline's CPU over Quire's, round by round: the inverse of Quire's over the baseline's.
    const rounds = Load.roundRatios(base.measurement, row.measurement, Load.roundCpu)
    return [`  ${`${row.measurement.target}, CPU per request vs node:http + pg`.padEnd(60)} ${ratio.toFixed(2)} ` +
      `(${base.measurement.cpuPerRequest.toFixed(0)} vs ${row.measurement.cpuPerRequest.toFixed(0)} µs; rounds ${spread(rounds)})   goal >= ${goal}   ${ratio >= goal ? "PASS" : "MISS"}`]
  })
  return ["GET /v1/orgs/{id}: the baseline's CPU per request over Quire's", ...lines].join("\n")
}

/** The HTTP comparison; answers its report. */
export const run = (options: HttpBenchOptions, progress: (message: string) => Effect.Effect<void>) => Effect.scoped(Effect.gen(function*() {
  const { load, backends } = options
  const started = Date.now()
  const groups: Array<Group> = []

  if (backends.has("postgres")) {
    const backend: Target.Backend = { kind: "postgres", url: yield* Scratch.postgresDatabase(options.adminUrl) }
    yield* progress(`seeding ${backend.url} (${Seed.extraRows} extra users, organizations, tokens)`)
    const seeded = yield* Seed.seed(Database.layerUrl(backend.url))
    groups.push({
      name: "postgres",
      organizationId: seeded.organizationId,
      targets: [
        { name: "baseline (postgres)", config: { server: "baseline", backend } },
        { name: "quire (postgres)", config: { server: "quire", backend } },
        ...(options.variants
          ? [
            { name: "quire +user from token (pg)", config: { server: "quire", backend, variant: { userFromToken: true } } },
            { name: "quire +tracer on (pg)", config: { server: "quire", backend, variant: { tracerOn: true } } },
            { name: "effect http-api floor (pg)", config: { server: "floor", backend } }
          ] as const
          : [])
      ]
    })
  }
  if (backends.has("embedded")) {
    // PGlite admits one process per directory: the baseline gets a copy of the seeded one.
    const root = yield* Scratch.directory
    const quire = join(root, "quire")
    const baseline = join(root, "baseline")
    yield* progress(`seeding PGlite in ${quire}`)
    const seeded = yield* Seed.seed(Scratch.embedded(quire))
    yield* Effect.promise(() => cp(quire, baseline, { recursive: true }))
    groups.push({
      name: "embedded",
      organizationId: seeded.organizationId,
      targets: [
        { name: "baseline (embedded)", config: { server: "baseline", backend: { kind: "embedded", dataDir: baseline } } },
        { name: "quire (embedded)", config: { server: "quire", backend: { kind: "embedded", dataDir: quire } } }
      ]
    })
  }
  if (options.variants) {
    groups.push({
      name: "memory",
      organizationId: "discover",
      targets: [
        { name: "quire (memory)", config: { server: "quire", backend: { kind: "memory" } } },
        { name: "baseline (memory)", config: { server: "baseline", backend: { kind: "memory" } } }
      ]
    })
  }

  const rows: Array<Row> = []
  const reports: Array<string> = []
  const profileDir = options.profile ? yield* Effect.promise(() => mkdtemp(join(tmpdir(), "quire-bench-profiles-"))) : ""
  const profiling = { dir: profileDir, sources: ProfileSummary.builtSources() }
  for (const group of groups) yield* runGroup(group, rows, reports, profiling, options, progress)

  const report = [
    `Quire vs node:http + pg: ${load.connections} connections, ${load.duration} s per target and endpoint ` +
    `in ${load.rounds} alternating rounds after ${load.warmup} s of warm-up; total ${((Date.now() - started) / 1000).toFixed(0)} s`,
    "",
    table(rows),
    "",
    cpuGoals(rows),
    ...reports.flatMap((report) => ["", report])
  ].join("\n")
  return yield* Load.unlessFailed(report, rows.map((row) => ({ what: `${row.measurement.target}, ${row.measurement.endpoint}`, failures: row.measurement.failures })))
}))
