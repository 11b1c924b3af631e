/**
 * Child process: the baseline. A plain node:http handler over a node-postgres Pool that runs the
 * queries Quire runs for `GET /v1/user` and `GET /v1/orgs/{id}` (the same SQL text, the same
 * row mapping and presenters) and answers with `JSON.stringify`: no router, no schemas, no
 * fibers. Embedded: PGlite in this process behind its socket server and one connection, as
 * Database.layerEmbedded runs it.
 */
import { PGlite } from "@electric-sql/pglite"
import { PGLiteSocketServer } from "@electric-sql/pglite-socket"
import { createHash } from "node:crypto"
import { createServer, type ServerResponse } from "node:http"
import pg from "pg"
import { newOrganization, type OrganizationAccess, SqlRows, type User } from "@quire/identity"
// The two modules it needs, not the server's barrel: loading every handler under tsx was half its start's CPU.
import * as Presenters from "@quire/server/Presenters"
import { PublicUrl } from "@quire/server/PublicUrl"
import * as Profiling from "./Profiling.ts"
import * as Target from "./Target.ts"

const { organizationColumns, toOrganization, toRole, toUser, userColumns } = SqlRows

Profiling.listen()
const config = Target.read()
const urls = PublicUrl.make(`http://127.0.0.1:${config.port}`)

/** The three statements, named so that Postgres plans them once, as @effect/sql-pg prepares them. */
const statements = {
  token: `SELECT ${userColumns} FROM identity_api_tokens t JOIN identity_users u ON u.id = t.user_id
    WHERE t.token_hash = $1`,
  user: `SELECT ${userColumns} FROM identity_users u WHERE u.id = $1`,
  access: `SELECT ${organizationColumns}, m.role AS member_role
    FROM identity_organizations o
    JOIN identity_members m ON m.organization_id = o.id AND m.user_id = $1
    WHERE o.id = $2`
} as const

interface Store {
  readonly userByTokenHash: (hash: string) => Promise<User | undefined>
  readonly userById: (id: string) => Promise<User | undefined>
  readonly access: (organizationId: string, userId: string) => Promise<OrganizationAccess | undefined>
  readonly close: () => Promise<void>
}

const sqlStore = (pool: pg.Pool, close: () => Promise<void>): Store => {
  const one = async <A>(name: keyof typeof statements, values: Array<string>, f: (row: Record<string, unknown>) => A) => {
    const result = await pool.query<Record<string, unknown>>({ name, text: statements[name], values })
    const row = result.rows[0]
    return row === undefined ? undefined : f(row)
  }
  return {
    userByTokenHash: (hash) => one("token", [hash], toUser),
    userById: (id) => one("user", [id], toUser),
    access: (organizationId, userId) =>
      one("access", [userId, organizationId], (row) => ({
        organization: toOrganization(row),
        membership: { role: toRole(row.member_role) }
      })),
    close
  }
}

/** No database: the administrator and one organization in memory, for the framework-only comparison. */
const memoryStore = (): Store => {
  const admin: User = {
    id: "bench_admin",
    email: config.adminEmail,
    displayName: "Administrator",
    photoURL: null,
    instanceAdmin: true,
    createdAt: new Date()
  }
  const access: OrganizationAccess = {
    organization: newOrganization({
      id: config.organizationId ?? "bench_org",
      title: "Bench Organization",
      createdAt: new Date(),
      emailDomains: []
    }),
    membership: { role: "admin" }
  }
  const tokenHash = hash(config.adminToken)
  return {
    userByTokenHash: async (h) => (h === tokenHash ? admin : undefined),
    userById: async (id) => (id === admin.id ? admin : undefined),
    access: async (organizationId, userId) =>
      organizationId === access.organization.id && userId === admin.id ? access : undefined,
    close: async () => {}
  }
}

const hash = (secret: string) => createHash("sha256").update(secret).digest("hex")

const openStore = async (): Promise<Store> => {
  const backend = config.backend
  switch (backend.kind) {
    case "postgres": {
      const pool = new pg.Pool({ connectionString: backend.url, max: 10 })
      return sqlStore(pool, () => pool.end())
    }
    case "embedded": {
      const db = await PGlite.create({ dataDir: backend.dataDir })
      const socket = new PGLiteSocketServer({ db, host: "127.0.0.1", port: 0, maxConnections: 1 })
      await socket.start()
      // The one connection is kept open: PGlite is one session, so a connection the pool opened
      // again after an idle spell would find the statements named above already prepared.
      const pool = new pg.Pool({ connectionString: `postgres://postgres@${socket.getServerConn()}/postgres`, max: 1, idleTimeoutMillis: 0 })
      return sqlStore(pool, async () => {
        await pool.end()
        await socket.stop()
        await db.close()
      })
    }
    case "memory":
      return memoryStore()
  }
}

const send = (res: ServerResponse, status: number, body: unknown) => {
  const json = JSON.stringify(body)
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(json) })
  res.end(json)
}

const error = (res: ServerResponse, status: number, message: string) => send(res, status, { error: { code: status, message } })

const organizationPath = /^\/v1\/orgs\/([a-zA-Z0-9_-]{1,100})$/

const store = await openStore()
let stopping = false

const server = createServer((req, res) => {
  const handle = async () => {
    const authorization = req.headers.authorization
    if (authorization === undefined || !authorization.startsWith("Bearer ")) {
      return error(res, 401, "A valid API token is required: send `Authorization: Bearer <token>`")
    }
    const actor = await store.userByTokenHash(hash(authorization.slice(7)))
    if (actor === undefined) return error(res, 401, "A valid API token is required: send `Authorization: Bearer <token>`")
    const path = (req.url ?? "/").split("?")[0]!
    if (req.method === "GET" && path === "/v1/user") {
      const user = await store.userById(actor.id)
      return user === undefined ? error(res, 404, "User not found") : send(res, 200, Presenters.user(urls, user))
    }
    const match = req.method === "GET" ? organizationPath.exec(path) : null
    if (match !== null) {
      const access = await store.access(match[1]!, actor.id)
      return access === undefined
        ? error(res, 404, "Organization not found")
        : send(res, 200, Presenters.organization(urls, access))
    }
    return error(res, 404, `No operation at ${req.method} ${path}`)
  }
  handle().catch((cause: unknown) => {
    if (stopping) return
    console.error(cause)
    if (!res.headersSent) error(res, 500, "Internal server error")
  })
})

server.listen(config.port, "127.0.0.1")

const shutdown = () => {
  stopping = true
  server.close()
  server.closeAllConnections()
  store.close().then(() => process.exit(0), () => process.exit(1))
}
process.once("SIGINT", shutdown)
process.once("SIGTERM", shutdown)
