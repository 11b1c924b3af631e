/**
 * GitHub's and GitLab's REST APIs, as a Git installation's token reaches them: the repositories
 * (GitHub's `/user/repos`, or `/installation/repositories` for an app's token; GitLab's
 * `/projects?membership=true`), a repository's branches and a file at a ref. The bases are
 * `QUIRE_GITHUB_API_URL` (https://api.github.com) and `QUIRE_GITLAB_API_URL`
 * (https://gitlab.com/api/v4), or a self-hosted GitLab's `<url>/api/v4`. Requests go through the
 * outbound guard, so private addresses are refused unless `QUIRE_FETCH_ALLOW` lists them.
 */
import { Config, Context, Effect, Layer, Schema } from "effect"
import { createHash } from "node:crypto"
import { Errors } from "@quire/kernel"
import { OutboundFetch, type OutboundFetchError } from "@quire/outbound"
import type { ForgeBranch, ForgeFile, ForgeRepository, GitProvider } from "./domain/GitInstallation.ts"

/** Who is asked, with what. */
export interface ForgeAccess {
  readonly provider: GitProvider
  readonly token: string
  /** A self-hosted GitLab's URL (without `/api/v4`). */
  readonly customInstanceURL?: string | undefined
}

/** What the forge's answers mean to a caller: a refused token or an unreachable forge is a Conflict, a missing repository a NotFound. */
export type ForgeError = Errors.NotFound | Errors.Conflict

export interface ForgeClientShape {
  readonly repositories: (access: ForgeAccess) => Effect.Effect<ReadonlyArray<ForgeRepository>, ForgeError>
  /** `repository` is `owner/name` (GitHub) or the project's id (GitLab). */
  readonly branches: (access: ForgeAccess, repository: string) => Effect.Effect<ReadonlyArray<ForgeBranch>, ForgeError>
  readonly file: (access: ForgeAccess, repository: string, path: string, ref: string) => Effect.Effect<ForgeFile, ForgeError>
}

const limits = { maxBytes: 8 * 1024 * 1024, timeout: "20 seconds" } as const
/** Pages of 100 read at most, so a huge account cannot hold a request forever. */
const maxPages = 10

const GitHubRepo = Schema.Struct({
  id: Schema.Finite,
  name: Schema.String,
  full_name: Schema.String,
  owner: Schema.Struct({ login: Schema.String }),
  default_branch: Schema.optionalKey(Schema.NullOr(Schema.String)),
  clone_url: Schema.optionalKey(Schema.String)
})
const GitLabProject = Schema.Struct({
  id: Schema.Finite,
  path: Schema.String,
  path_with_namespace: Schema.String,
  namespace: Schema.optionalKey(Schema.Struct({ full_path: Schema.String })),
  default_branch: Schema.optionalKey(Schema.NullOr(Schema.String)),
  http_url_to_repo: Schema.optionalKey(Schema.String)
})
const Branches = Schema.Array(Schema.Struct({ name: Schema.String }))
const GitHubFile = Schema.Struct({ type: Schema.String, name: Schema.String, path: Schema.String, sha: Schema.String, size: Schema.Finite })

const providerName = (provider: GitProvider) => provider === "github" ? "GitHub" : "GitLab"
const statusOf = (error: OutboundFetchError) => Number(/answered (\d{3})/.exec(error.message)?.[1] ?? 0)

const headers = (access: ForgeAccess): Record<string, string> =>
  access.provider === "github"
    ? { authorization: `Bearer ${access.token}`, accept: "application/vnd.github+json", "x-github-api-version": "2022-11-28" }
    : { "private-token": access.token }

/** Every page of a list, 100 a page. */
const pages = <A>(load: (page: number) => Effect.Effect<ReadonlyArray<A>, ForgeError>) =>
  Effect.gen(function*() {
    const all: Array<A> = []
    for (let page = 1; page <= maxPages; page++) {
      const got = yield* load(page)
      all.push(...got)
      if (got.length < 100) break
    }
    return all
  })

const github = (r: typeof GitHubRepo.Type): ForgeRepository => ({
  id: r.id,
  accountName: r.owner.login,
  repositoryName: r.name,
  fullName: r.full_name,
  defaultBranch: r.default_branch ?? null,
  cloneUrl: r.clone_url ?? `https://github.com/${r.full_name}.git`
})

const gitlab = (p: typeof GitLabProject.Type): ForgeRepository => ({
  id: p.id,
  accountName: p.namespace?.full_path ?? p.path_with_namespace.split("/").slice(0, -1).join("/"),
  repositoryName: p.path,
  fullName: p.path_with_namespace,
  defaultBranch: p.default_branch ?? null,
  cloneUrl: p.http_url_to_repo ?? `https://gitlab.com/${p.path_with_namespace}.git`
})

const repoPath = (access: ForgeAccess, repository: string) =>
  access.provider === "github"
    ? `/repos/${repository.split("/").map(encodeURIComponent).join("/")}`
    : `/projects/${encodeURIComponent(repository)}`

export class ForgeClient extends Context.Service<ForgeClient, ForgeClientShape>()("@quire/gitsync/ForgeClient") {
  static readonly layer = Layer.effect(
    ForgeClient,
    Effect.gen(function*() {
      const outbound = yield* OutboundFetch
      const githubApi = (yield* Effect.orDie(Config.String("QUIRE_GITHUB_API_URL").pipe(Config.withDefault("https://api.github.com")))).replace(/\/+$/, "")
      const gitlabApi = (yield* Effect.orDie(Config.String("QUIRE_GITLAB_API_URL").pipe(Config.withDefault("https://gitlab.com/api/v4")))).replace(/\/+$/, "")

      const base = (access: ForgeAccess) =>
        access.provider === "github" ? githubApi : access.customInstanceURL === undefined ? gitlabApi : `${access.customInstanceURL.replace(/\/+$/, "")}/api/v4`

      /** The forge's answer to `path`; `what` names the missing thing for a 404. */
      const get = (access: ForgeAccess, path: string, what: string) =>
        outbound.get(`${base(access)}${path}`, { ...limits, headers: headers(access) }).pipe(
          Effect.mapError((error): ForgeError => {
            const status = statusOf(error)
            const name = providerName(access.provider)
            if (status === 404) return new Errors.NotFound({ resource: `${name} ${what}`, id: path })
            if (status === 401 || status === 403) return new Errors.Conflict({ reason: `${name} refused the installation's token (${status}); give it a valid token` })
            return new Errors.Conflict({ reason: `${name} could not be reached: ${error.reason}` })
          })
        )
      const json = <S extends Schema.Decoder<unknown>>(access: ForgeAccess, path: string, what: string, schema: S) =>
        get(access, path, what).pipe(
          Effect.flatMap((got) =>
            Effect.try({ try: () => JSON.parse(new TextDecoder().decode(got.body)) as unknown, catch: () => undefined }).pipe(
              Effect.flatMap(Schema.decodeUnknownEffect(schema)),
              Effect.mapError(() => new Errors.Conflict({ reason: `${providerName(access.provider)} answered something other than ${what}` }))
            )
          )
        )


      const repositories = Effect.fn("ForgeClient.repositories")(function*(access: ForgeAccess) {
        if (access.provider === "gitlab") {
          const got = yield* pages((page) => json(access, `/projects?membership=true&simple=true&per_page=100&page=${page}`, "projects", Schema.Array(GitLabProject)))
          return got.map(gitlab)
        }
        // A user's token lists /user/repos; an app installation's token is refused there and lists /installation/repositories.
        const user = yield* pages((page) => json(access, `/user/repos?per_page=100&page=${page}`, "repositories", Schema.Array(GitHubRepo))).pipe(
          Effect.map((repos) => repos.map(github)),
          Effect.catchTag("Conflict", (refused) =>
            pages((page) =>
              json(access, `/installation/repositories?per_page=100&page=${page}`, "repositories", Schema.Struct({ repositories: Schema.Array(GitHubRepo) })).pipe(
                Effect.map((r) => r.repositories)
              )
            ).pipe(Effect.map((repos) => repos.map(github)), Effect.mapError((error) => error._tag === "NotFound" ? refused : error))),
          Effect.catchTag("NotFound", () => Effect.succeed<ReadonlyArray<ForgeRepository>>([]))
        )
        return user
      })


      const branches = Effect.fn("ForgeClient.branches")(function*(access: ForgeAccess, repository: string) {
        const path = access.provider === "github" ? `${repoPath(access, repository)}/branches` : `${repoPath(access, repository)}/repository/branches`
        const got = yield* pages((page) => json(access, `${path}?per_page=100&page=${page}`, "repository", Branches))
        return got.map((b) => ({ name: b.name, ref: `refs/heads/${b.name}` }))
      })

      const file = Effect.fn("ForgeClient.file")(function*(access: ForgeAccess, repository: string, path: string, ref: string) {
        const filePath = path.replace(/^\/+/, "")
        const at = encodeURIComponent(ref.replace(/^refs\/heads\//, ""))
        if (access.provider === "github") {
          const got = yield* json(access, `${repoPath(access, repository)}/contents/${filePath.split("/").map(encodeURIComponent).join("/")}?ref=${at}`, "file", Schema.Union([GitHubFile, Schema.Array(Schema.Unknown)]))
          if (Array.isArray(got) || (got as typeof GitHubFile.Type).type !== "file") return yield* new Errors.NotFound({ resource: "GitHub file", id: filePath })
          const f = got as typeof GitHubFile.Type
          return { name: f.name, path: f.path, sha: f.sha, size: f.size }
        }
        const got = yield* get(access, `${repoPath(access, repository)}/repository/files/${encodeURIComponent(filePath)}/raw?ref=${at}`, "file")
        // Git's blob id of the bytes, which is what GitLab calls the file's blob id.
        const sha = createHash("sha1").update(`blob ${got.body.byteLength}\0`).update(got.body).digest("hex")
        return { name: filePath.split("/").at(-1) ?? filePath, path: filePath, sha, size: got.body.byteLength }
      })

      return ForgeClient.of({ repositories, branches, file })
    })
  )
}
