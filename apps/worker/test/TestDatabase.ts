/**
 * A fresh database on the machine's PostgreSQL, dropped afterwards.
 * TODO: replace with `Testing.layerPostgresTest` from @quire/db once it lands.
 */
import { Context, Effect, Layer } from "effect"
import { randomBytes } from "node:crypto"
import pg from "pg"

const adminUrl = process.env.QUIRE_TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/postgres"

const withAdmin = async <A>(f: (client: pg.Client) => Promise<A>): Promise<A> => {
  const client = new pg.Client({ connectionString: adminUrl })
  await client.connect()
  try {
    return await f(client)
  } finally {
    await client.end()
  }
}

export class TestDatabase extends Context.Service<TestDatabase, { readonly url: string }>()(
  "@quire/worker/test/TestDatabase"
) {
  /** Fails (it never skips) when PostgreSQL is unreachable. */
  static readonly layer = Layer.effect(
    TestDatabase,
    Effect.gen(function*() {
      const name = `quire_worker_test_${randomBytes(6).toString("hex")}`
      yield* Effect.acquireRelease(
        Effect.tryPromise(() => withAdmin((client) => client.query(`create database ${name}`))),
        () => Effect.ignore(Effect.tryPromise(() => withAdmin((client) => client.query(`drop database if exists ${name} with (force)`))))
      ).pipe(Effect.orDie)
      const url = new URL(adminUrl)
      url.pathname = `/${name}`
      return TestDatabase.of({ url: url.toString() })
    })
  )
}
