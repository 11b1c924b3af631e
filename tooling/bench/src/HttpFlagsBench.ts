/**
 * `pnpm bench --http-flags`: the built server (dist/server.mjs, started as tooling/build/start.sh
 * starts it) under `GET /v1/orgs/{id}` load on PostgreSQL, once per set of Node flags and malloc
 * settings, beside the node:http + pg baseline doing the same queries. For each it reports what
 * the load costs and what it holds: requests/s, p50 and p99, the server's CPU time per request,
 * its resident memory under load (mean and peak) and at idle before and after. The sets alternate
 * round by round, so that outside load on a shared machine hits each alike.
 *
 * `--http-flags-builds name=dir,...` adds other checkouts' builds (a directory holding dist/ and
 * tooling/build/start.sh), each started by its own start.sh with its own flags and without any
 * (`QUIRE_NODE_FLAGS=" "`): a build of an older commit against this one.
 */
import { Effect } from "effect"
import { type ChildProcess, spawn } from "node:child_process"
import { once } from "node:events"
import { openSync, closeSync } from "node:fs"
import { mkdtemp, readFile } from "node:fs/promises"
import { LocalServer } from "@quire/testkit"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { setTimeout as sleep } from "node:timers/promises"
import { fileURLToPath } from "node:url"
import pg from "pg"
import * as Load from "./Load.ts"
import * as Scratch from "./Scratch.ts"
import * as Seed from "./Seed.ts"
import * as Servers from "./Servers.ts"

const checkout = fileURLToPath(new URL("../../..", import.meta.url))

/** start.sh's malloc settings for the server. */
export const startMalloc: Readonly<Record<string, string>> = {
  MALLOC_ARENA_MAX: "2",
  MALLOC_MMAP_THRESHOLD_: "131072",
  MALLOC_TRIM_THRESHOLD_: "131072"
}

/**
 * How one server is started: through `start.sh` of `root` as is (its own flags and malloc, or
 * `env`'s), or `node flags dist/server.mjs` with exactly `flags` and `malloc` (none: glibc's own).
 */
export interface FlagSet {
  readonly name: string
  readonly root: string
  readonly via: "start.sh" | "node"
  readonly flags?: string | undefined
  readonly malloc?: Readonly<Record<string, string>> | undefined
  readonly env?: Readonly<Record<string, string>> | undefined
}

/**
 * The sets `--http-flags` compares on this checkout's build, by name: `start.sh` (as it is), `none`
 * (no flags, glibc's malloc), `semi=N` (`--max-semi-space-size=N`), each also `+malloc` (start.sh's).
 */
export const defaultSets = (root = checkout): ReadonlyArray<FlagSet> =>
  [undefined, 2, 4, 8, 16].flatMap((mb): ReadonlyArray<FlagSet> => {
    const name = mb === undefined ? "none" : `semi=${mb}`
    const flags = mb === undefined ? "" : `--max-semi-space-size=${mb}`
    return [
      { name, root, via: "node", flags },
      { name: `${name}+malloc`, root, via: "node", flags, malloc: startMalloc }
    ]
  }).toSpliced(0, 0, { name: "start.sh", root, via: "start.sh" })

/** A build of another checkout, by its own start.sh with its flags and with none. */
export const buildSets = (name: string, root: string): ReadonlyArray<FlagSet> => [
  { name: `${name} start.sh`, root, via: "start.sh" },
  { name: `${name} none`, root, via: "start.sh", env: { QUIRE_NODE_FLAGS: " " } }
]

export interface Options {
  readonly adminUrl: string
  readonly sets: ReadonlyArray<FlagSet>
  readonly load: Load.LoadOptions
  readonly baseline: boolean
  /** Seconds each server rests after the last round before its idle memory is read. */
  readonly rest: number
  /** A directory for `--cpu-prof` profiles of each set (written at exit), or none. */
  readonly profileDir?: string | undefined
}

interface Started {
  readonly set: FlagSet
  readonly running: Servers.Running
  readonly idleBefore: number
}

interface Memory {
  readonly mean: number
  readonly peak: number
}


/** Resident memory of `pid` in MB (VmRSS). */
const rssOf = async (pid: number): Promise<number> => {
  const status = await readFile(`/proc/${pid}/status`, "utf8").catch(() => "")
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0)
  return kb / 1024
}

const cpuMicrosOf = (pid: number) =>
  Effect.promise(async () => {
    const stat = await readFile(`/proc/${pid}/stat`, "utf8")
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
    return (Number(fields[11]) + Number(fields[12])) * 10_000
  })

const stop = async (child: ChildProcess) => {
  if (child.exitCode !== null || child.signalCode !== null) return
  const exit = once(child, "exit")
  child.kill("SIGTERM")
  const timeout = sleep(20_000).then(() => false)
  if (await Promise.race([exit.then(() => true), timeout])) return
  child.kill("SIGKILL")
  await exit
}

/** The environment a set's server runs with: the bench's, without malloc settings unless the set has them. */
const environmentOf = (set: FlagSet, databaseUrl: string, dataDir: string, port: number, profileDir: string | undefined) => {
  const { MALLOC_ARENA_MAX: _a, MALLOC_MMAP_THRESHOLD_: _m, MALLOC_TRIM_THRESHOLD_: _t, QUIRE_NODE_FLAGS: _f, ...env } = process.env
  // Profiles of the whole run, written when the server exits (NODE_OPTIONS: start.sh's flags stay its
  // own), in a directory per set: Node names each thread's file (CPU.<date>.<time>.<pid>.<thread>.<n>), the main thread's is 0.
  const profiled = profileDir === undefined ? {} : { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${join(profileDir, fileName(set))}` }
  return {
    ...env,
    ...(set.via === "node" ? set.malloc ?? {} : {}),
    ...set.env,
    ...profiled,
    PORT: String(port),
    HOST: "127.0.0.1",
    DATABASE_URL: databaseUrl,
    QUIRE_DATA_DIR: dataDir,
    QUIRE_ADMIN_TOKEN: Seed.adminToken,
    QUIRE_ADMIN_EMAIL: Seed.adminEmail,
    // One token makes all the load: a budget it cannot spend (the limiter still counts every request).
    QUIRE_RATE_LIMIT: "1000000000"
  }
}

const fileName = (set: FlagSet) => set.name.replace(/\W+/g, "-")

const node = (root: string) => join(root, "node_modules/node/bin/node")

/** Starts `set` on `databaseUrl` and waits until its token answers; stopped when the scope closes. */
const startSet = (set: FlagSet, databaseUrl: string, logDir: string, profileDir: string | undefined) =>
  Effect.gen(function*() {
    const port = yield* Effect.promise(LocalServer.freePort)
    const dataDir = join(logDir, `data-${fileName(set)}`)
    const env = environmentOf(set, databaseUrl, dataDir, port, profileDir)
    const log = openSync(join(logDir, `${fileName(set)}.log`), "a")
    const child = yield* Effect.acquireRelease(
      Effect.sync(() => {
        const flags = (set.flags ?? "").split(" ").filter((flag) => flag !== "")
        const spawned = set.via === "start.sh"
          ? spawn("sh", [join(set.root, "tooling/build/start.sh"), "server"], { cwd: set.root, env: { QUIRE_NODE: node(checkout), ...env }, stdio: ["ignore", log, log] })
          : spawn(node(checkout), [...flags, join(set.root, "dist/server.mjs")], { cwd: set.root, env, stdio: ["ignore", log, log] })
        closeSync(log)
        return spawned
      }),
      (child) => Effect.promise(() => stop(child))
    )
    const baseUrl = `http://127.0.0.1:${port}`
    for (let tries = 0; ; tries++) {
      if (child.exitCode !== null) return yield* Effect.die(new Error(`${set.name} exited with ${child.exitCode}: see ${logDir}`))
      const ok = yield* Effect.promise(() =>
        fetch(`${baseUrl}/v1/user`, { headers: { authorization: `Bearer ${Seed.adminToken}` } }).then((r) => r.ok, () => false)
      )
      if (ok) break
      if (tries > 600) return yield* Effect.die(new Error(`${set.name} did not start: see ${logDir}`))
      yield* Effect.sleep("200 millis")
    }
    const running: Servers.Running = {
      name: set.name,
      baseUrl,
      pid: child.pid!,
      cpuMicros: cpuMicrosOf(child.pid!),
      profiled: () => (self) => self
    }
    return running
  })

/** The bench's rows around the administrator's: users, organizations, tokens, memberships. */
const seedRows = (databaseUrl: string, baseUrl: string) =>
  Effect.promise(async () => {
    const organization = await Seed.adminCall(baseUrl)<{ readonly id: string }>("POST", "/v1/orgs", { title: "Bench Organization" })
    const client = new pg.Client({ connectionString: databaseUrl })
    await client.connect()
    const n = Seed.extraRows
    try {
      await client.query(`INSERT INTO identity_users (id, email, display_name, instance_admin, created_at)
        SELECT 'bench_user_' || i, 'user' || i || '@bench.test', 'User ' || i, false, now() - i * interval '1 minute'
        FROM generate_series(1, ${n}) AS i`)
      await client.query(`INSERT INTO identity_api_tokens (id, user_id, label, token_hash, created_at)
        SELECT 'bench_token_' || i, 'bench_user_' || i, 'bench', encode(sha256(convert_to('quire_bench_user_' || i, 'UTF8')), 'hex'), now()
        FROM generate_series(1, ${n}) AS i`)
      await client.query(`INSERT INTO identity_organizations (id, title, created_at, email_domains)
        SELECT 'bench_org_' || i, 'Organization ' || i, now() - i * interval '1 minute', jsonb_build_array('org' || i || '.bench.test')
        FROM generate_series(1, ${n}) AS i`)
      await client.query(`INSERT INTO identity_members (organization_id, user_id, role, joined_at)
        SELECT 'bench_org_' || ((i + k * 337) % ${n} + 1), 'bench_user_' || i, (ARRAY['admin', 'create', 'edit', 'read'])[k + 1], now()
        FROM generate_series(1, ${n}) AS i, generate_series(0, 2) AS k ON CONFLICT DO NOTHING`)
      await client.query("ANALYZE")
    } finally {
      await client.end()
    }
    return organization.id
  })

/** Load on `running` for `seconds`, with its resident memory read every 250 ms meanwhile. */
const measured = (running: Servers.Running, endpoint: Load.Endpoint, connections: number, seconds: number) =>
  Effect.gen(function*() {
    const readings: Array<number> = []
    const timer = setInterval(() => void rssOf(running.pid).then((mb) => readings.push(mb)), 250)
    const sample = yield* Load.sample(running, endpoint, Seed.adminToken, connections, seconds).pipe(
      Effect.ensuring(Effect.sync(() => clearInterval(timer)))
    )
    return { sample, readings }
  })

interface Row {
  readonly name: string
  readonly measurement: Load.Measurement
  readonly memory: Memory
  readonly idleBefore: number
  readonly idleAfter: number
}

const cell = (n: number, digits = 0) => n.toFixed(digits)

const table = (rows: ReadonlyArray<Row>, reference: Row | undefined): string => {
  const header = ["server", "req/s", "p50 ms", "p99 ms", "CPU µs/req", "vs baseline", "RSS idle MB", "RSS load MB", "peak MB", "idle after MB", "failed"]
  const body = rows.map(({ idleAfter, idleBefore, measurement: m, memory, name }) => [
    name,
    cell(m.requestsPerSecond),
    cell(m.p50, 1),
    cell(m.p99, 1),
    cell(m.cpuPerRequest),
    reference === undefined
      ? ""
      : `${cell(m.requestsPerSecond / reference.measurement.requestsPerSecond, 2)} / ${cell(reference.measurement.cpuPerRequest / m.cpuPerRequest, 2)}`,
    cell(idleBefore),
    cell(memory.mean),
    cell(memory.peak),
    cell(idleAfter),
    String(m.failures)
  ])
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((r) => r[i]!.length)))
  const line = (cells: ReadonlyArray<string>) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join("  ")
  return [line(header), widths.map((w) => "-".repeat(w)).join("  "), ...body.map(line)].join("\n")
}

const startBaseline = (databaseUrl: string) =>
  Servers.start("node:http + pg", { server: "baseline", backend: { kind: "postgres", url: databaseUrl }, adminToken: Seed.adminToken, adminEmail: Seed.adminEmail }, "10 minutes")

/**
 * Starts every set (one database per build) and the baseline on the first build's database, right
 * after the first set: it starts from the sources (bundled, BenchScripts.ts), and should not wait behind the others.
 */
const startAll = (options: Options, logDir: string, progress: (message: string) => Effect.Effect<void>) =>
  Effect.gen(function*() {
    const databases = new Map<string, { readonly url: string; organizationId?: string }>()
    const started: Array<Started> = []
    let baseline: Servers.Running | undefined
    for (const set of options.sets) {
      let database = databases.get(set.root)
      if (database === undefined) {
        database = { url: yield* Scratch.postgresDatabase(options.adminUrl) }
        databases.set(set.root, database)
      }
      yield* progress(`starting ${set.name}`)
      const running = yield* startSet(set, database.url, logDir, options.profileDir)
      if (database.organizationId === undefined) database.organizationId = yield* seedRows(database.url, running.baseUrl)
      if (options.baseline && baseline === undefined) {
        yield* progress("starting node:http + pg")
        baseline = yield* startBaseline(database.url)
      }
      yield* Effect.sleep("2 seconds")
      started.push({ set, running, idleBefore: yield* Effect.promise(() => rssOf(running.pid)) })
    }
    const first = databases.values().next().value!
    return { started, baseline, organizationId: (set: FlagSet) => databases.get(set.root)!.organizationId!, baselineOrganization: first.organizationId! }
  })

const endpoint = (organization: string): Load.Endpoint => ({ name: "GET /v1/orgs/{id}", path: `/v1/orgs/${organization}` })

/** Runs the comparison and returns its report. */
export const run = (options: Options, progress: (message: string) => Effect.Effect<void>) =>
  Effect.scoped(Effect.gen(function*() {
    // Kept: the servers' logs (and data directories) are what tells why one did not start.
    const logDir = yield* Effect.promise(() => mkdtemp(join(tmpdir(), "quire-bench-flags-")))
    yield* progress(`server logs in ${logDir}`)
    const { baseline, baselineOrganization, organizationId, started } = yield* startAll(options, logDir, progress)
    const targets = [
      ...(baseline === undefined ? [] : [{ name: baseline.name, running: baseline, organization: baselineOrganization, idleBefore: yield* Effect.promise(() => rssOf(baseline.pid)) }]),
      ...started.map((s) => ({ name: s.set.name, running: s.running, organization: organizationId(s.set), idleBefore: s.idleBefore }))
    ]
    const { connections, duration, rounds, warmup } = options.load
    if (warmup > 0) {
      yield* progress(`warming up ${targets.length} servers, ${warmup} s each`)
      for (const target of targets) yield* Load.sample(target.running, endpoint(target.organization), Seed.adminToken, connections, warmup)
    }
    const seconds = duration / rounds
    const samples = new Map(targets.map((t) => [t, { samples: [] as Array<Load.Sample>, readings: [] as Array<number> }]))
    for (let round = 0; round < rounds; round++) {
      yield* progress(`round ${round + 1}/${rounds}, ${seconds} s per server`)
      for (const target of round % 2 === 0 ? targets : targets.toReversed()) {
        const { readings, sample } = yield* measured(target.running, endpoint(target.organization), connections, seconds)
        samples.get(target)!.samples.push(sample)
        samples.get(target)!.readings.push(...readings)
      }
    }
    yield* progress(`resting ${options.rest} s before reading idle memory`)
    yield* Effect.sleep(`${options.rest} seconds`)
    const rows: Array<Row> = []
    for (const target of targets) {
      const { readings, samples: taken } = samples.get(target)!
      rows.push({
        name: target.name,
        measurement: Load.combine(target.name, "GET /v1/orgs/{id}", taken),
        memory: { mean: readings.reduce((a, b) => a + b, 0) / Math.max(1, readings.length), peak: Math.max(0, ...readings) },
        idleBefore: target.idleBefore,
        idleAfter: yield* Effect.promise(() => rssOf(target.running.pid))
      })
    }
    const reference = baseline === undefined ? undefined : rows[0]
    const report = [
      `GET /v1/orgs/{id} on PostgreSQL, built servers: ${connections} connections, ${duration} s per server in ${rounds} alternating rounds ` +
      `after ${warmup} s of warm-up; idle after: ${options.rest} s after the last round`,
      `vs baseline: requests/s ratio / the baseline's CPU per request over the server's (goal >= 0.9)`,
      "",
      table(rows, reference),
      ...(options.profileDir === undefined ? [] : ["", `CPU profiles (written when the servers stop) in ${options.profileDir}`])
    ].join("\n")
    return yield* Load.unlessFailed(report, rows.map((row) => ({ what: row.name, failures: row.measurement.failures })))
  }))
