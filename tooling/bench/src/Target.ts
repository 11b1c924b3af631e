/** What a benchmarked server process is told to run; passed to it as JSON in `QUIRE_BENCH_TARGET`. */

/** Where the server's data lives: a real PostgreSQL database, PGlite in a directory, or memory. */
export type Backend =
  | { readonly kind: "postgres"; readonly url: string }
  | { readonly kind: "embedded"; readonly dataDir: string }
  | { readonly kind: "memory" }

/** Changes to Quire's request path, to measure what each part costs. */
export interface QuireVariant {
  /** Answer `GET /v1/user` with the user the token lookup loaded, without reading it again. */
  readonly userFromToken?: boolean | undefined
  /** Turn Effect's tracer on, as an OTLP traces exporter does (spans for `Effect.fn`, requests and SQL statements). */
  readonly tracerOn?: boolean | undefined
}

export interface TargetConfig {
  readonly server: "quire" | "baseline" | "floor" | "static"
  readonly backend: Backend
  readonly port: number
  readonly variant?: QuireVariant | undefined
  /** For the memory backends, which have no seeded database: the administrator and its token. */
  readonly adminToken: string
  readonly adminEmail: string
  /** For the baseline's memory backend: the id its one organization answers to. */
  readonly organizationId?: string | undefined
  /** For the static server: a JSON file of the response it answers every request with (SitesBench.ts). */
  readonly staticResponse?: string | undefined
  /** Settings of this server's process besides the inherited environment (a bench's own Git cache, say). */
  readonly env?: Readonly<Record<string, string>> | undefined
}

export const envName = "QUIRE_BENCH_TARGET"

export const read = (): TargetConfig => {
  const raw = process.env[envName]
  if (raw === undefined) throw new Error(`${envName} is not set: this module is started by the benchmark`)
  return JSON.parse(raw) as TargetConfig
}
