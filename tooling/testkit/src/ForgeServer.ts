/**
 * A fake of GitHub's and GitLab's REST APIs for tests, on a local port: the parts Quire calls.
 * GitHub (under `/`, as `https://api.github.com`): a repository's open issues, the repositories a
 * token reaches (`/installation/repositories` and `/user/repos`), a repository's branches and a
 * file's metadata (`/repos/{owner}/{repo}/contents/{path}?ref=`). GitLab (under `/gitlab/api/v4`,
 * as `https://gitlab.com/api/v4`): the projects a token is a member of, a project's branches and a
 * file's raw bytes. Beside them, plain pages under `/site/` (for a website crawler). Each answers only
 * the token it was given (401 otherwise, as the forges do) and keeps every request's path.
 */
import http from "node:http"
import type { AddressInfo } from "node:net"

export interface ForgeIssue {
  readonly number: number
  readonly title: string
  readonly body: string
  readonly html_url: string
  readonly created_at: string
  readonly state?: string
  readonly pull_request?: unknown
}

/** A repository (GitHub) or project (GitLab): its branches and files (path to text) on every branch. */
export interface ForgeRepository {
  readonly id: number
  /** `owner/name` (GitHub) or `group/name` (GitLab). */
  readonly fullName: string
  readonly defaultBranch: string
  readonly branches: ReadonlyArray<string>
  readonly files?: Readonly<Record<string, string>>
  readonly issues?: ReadonlyArray<ForgeIssue>
}

export interface ForgeOptions {
  /** The one token the fake accepts (`Bearer`, GitHub's `token` scheme, or GitLab's `PRIVATE-TOKEN`). */
  readonly token: string
  readonly github?: ReadonlyArray<ForgeRepository>
  readonly gitlab?: ReadonlyArray<ForgeRepository>
  /** HTML pages served under `/site/<name>`, without a token. */
  readonly pages?: Readonly<Record<string, string>>
}

export interface ForgeServer {
  /** GitHub's API base, `http://127.0.0.1:<port>`. */
  readonly githubUrl: string
  /** GitLab's API base, `http://127.0.0.1:<port>/gitlab/api/v4`. */
  readonly gitlabUrl: string
  /** The base of the pages, `http://127.0.0.1:<port>/site/`. */
  readonly pagesUrl: string
  /** Paths (with queries) of the requests received, in order. */
  readonly requests: ReadonlyArray<string>
  readonly close: () => Promise<void>
}

type Answer = readonly [number, unknown]

const notFound: Answer = [404, { message: "Not Found" }]
const sha = (text: string) => {
  let h = 0
  for (const c of text) h = (Math.imul(h, 31) + c.charCodeAt(0)) | 0
  return (h >>> 0).toString(16).padStart(8, "0").repeat(5)
}

const githubRepo = (r: ForgeRepository) => {
  const [owner = "", name = ""] = r.fullName.split("/")
  return { id: r.id, name, full_name: r.fullName, owner: { login: owner }, default_branch: r.defaultBranch, html_url: `https://github.com/${r.fullName}`, clone_url: `https://github.com/${r.fullName}.git`, private: true }
}

const github = (repos: ReadonlyArray<ForgeRepository>, url: URL): Answer => {
  const path = url.pathname
  if (path === "/installation/repositories") return [200, { total_count: repos.length, repositories: repos.map(githubRepo) }]
  if (path === "/user/repos") return [200, repos.map(githubRepo)]
  const match = /^\/repos\/([^/]+)\/([^/]+)\/(issues|branches|contents)(?:\/(.*))?$/.exec(path)
  const repo = match === null ? undefined : repos.find((r) => r.fullName === `${decodeURIComponent(match[1]!)}/${decodeURIComponent(match[2]!)}`)
  if (match === null || repo === undefined) return notFound
  if (match[3] === "issues") return url.searchParams.get("state") === "open" ? [200, repo.issues ?? []] : notFound
  if (match[3] === "branches") return [200, repo.branches.map((name) => ({ name, commit: { sha: sha(name) }, protected: false }))]
  const ref = (url.searchParams.get("ref") ?? repo.defaultBranch).replace(/^refs\/heads\//, "")
  const file = decodeURIComponent(match[4] ?? "")
  const text = repo.files?.[file]
  if (!repo.branches.includes(ref) || text === undefined) return notFound
  return [200, { type: "file", name: file.split("/").at(-1), path: file, sha: sha(text), size: Buffer.byteLength(text), encoding: "base64", content: Buffer.from(text).toString("base64") }]
}

const gitlabProject = (r: ForgeRepository) => {
  const parts = r.fullName.split("/")
  return {
    id: r.id,
    name: parts.at(-1),
    path: parts.at(-1),
    path_with_namespace: r.fullName,
    namespace: { full_path: parts.slice(0, -1).join("/") },
    default_branch: r.defaultBranch,
    web_url: `https://gitlab.com/${r.fullName}`,
    http_url_to_repo: `https://gitlab.com/${r.fullName}.git`
  }
}

const gitlab = (projects: ReadonlyArray<ForgeRepository>, url: URL): Answer | readonly [number, string, Record<string, string>] => {
  const path = url.pathname.slice("/gitlab/api/v4".length)
  if (path === "/projects") return url.searchParams.get("membership") === "true" ? [200, projects.map(gitlabProject)] : [200, []]
  const match = /^\/projects\/([^/]+)\/repository\/(branches|files)(?:\/(.+?))?(\/raw)?$/.exec(path)
  const key = match === null ? "" : decodeURIComponent(match[1]!)
  const project = projects.find((p) => String(p.id) === key || p.fullName === key)
  if (match === null || project === undefined) return notFound
  if (match[2] === "branches") return [200, project.branches.map((name) => ({ name, commit: { id: sha(name) }, default: name === project.defaultBranch }))]
  const ref = (url.searchParams.get("ref") ?? "").replace(/^refs\/heads\//, "")
  const file = decodeURIComponent(match[3] ?? "")
  const text = project.files?.[file]
  if (match[4] === undefined || !project.branches.includes(ref) || text === undefined) return [404, { message: "404 File Not Found" }]
  return [200, text, { "x-gitlab-blob-id": sha(text), "x-gitlab-file-name": file.split("/").at(-1) ?? "", "x-gitlab-file-path": file, "x-gitlab-size": String(Buffer.byteLength(text)) }]
}

const tokenOf = (request: http.IncomingMessage): string | undefined => {
  const header = request.headers.authorization ?? ""
  const scheme = /^(?:Bearer|token) (.+)$/.exec(header)
  return scheme?.[1] ?? (typeof request.headers["private-token"] === "string" ? request.headers["private-token"] : undefined)
}

/** Starts the fake forge. */
export const startForgeServer = async (options: ForgeOptions): Promise<ForgeServer> => {
  const requests: Array<string> = []
  const server = http.createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://forge")
    requests.push(`${url.pathname}${url.search}`)
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      const text = typeof body === "string" ? body : JSON.stringify(body)
      response.writeHead(status, { "content-type": typeof body === "string" ? "text/plain" : "application/json", ...headers })
      response.end(text)
    }
    if (url.pathname.startsWith("/site/")) {
      const page = options.pages?.[url.pathname.slice("/site/".length)]
      return page === undefined ? send(404, "Not found") : (response.writeHead(200, { "content-type": "text/html" }), response.end(page))
    }
    if (tokenOf(request) !== options.token) return send(401, { message: url.pathname.startsWith("/gitlab/") ? "401 Unauthorized" : "Bad credentials" })
    const answer = url.pathname.startsWith("/gitlab/api/v4/") || url.pathname === "/gitlab/api/v4"
      ? gitlab(options.gitlab ?? [], url)
      : github(options.github ?? [], url)
    send(answer[0], answer[1], answer.length === 3 ? answer[2] : {})
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    githubUrl: base,
    gitlabUrl: `${base}/gitlab/api/v4`,
    pagesUrl: `${base}/site/`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve()))
  }
}
