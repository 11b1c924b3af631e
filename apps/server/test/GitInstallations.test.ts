/**
 * Git installations through GitBook's own client and the typed one, against the test kit's fake of
 * GitHub's and GitLab's APIs: an organization connects each forge once with a token (kept sealed,
 * never shown), lists the repositories, branches and files the token reaches, picks one, and a space
 * connects to it without typing a token. Admins install, change and uninstall; editors browse;
 * readers only read; to outsiders an installation does not exist; bad input is a 400 naming the field.
 */
import { assert, layer } from "@effect/vitest"
import { GitBookAPI } from "@gitbook/api"
import { Effect } from "effect"
import { createHash } from "node:crypto"
import { startForgeServer } from "@quire/testkit/ForgeServer"
import type { GitSyncInstallation } from "@quire/api"
import { baseUrl, errorCode, memoryAndPostgres, newUser, raw, spaceWith, withSettings } from "./Harness.ts"

const forge = await startForgeServer({
  token: "forge-token",
  github: [
    { id: 101, fullName: "acme/docs", defaultBranch: "main", branches: ["main", "release/1.0"], files: { "README.md": "# Docs\n", "docs/gitbook-docs.yaml": "root: ./\n" } },
    { id: 102, fullName: "acme/site", defaultBranch: "trunk", branches: ["trunk"] }
  ],
  gitlab: [
    { id: 7, fullName: "acme-group/handbook", defaultBranch: "main", branches: ["main", "draft"], files: { "SUMMARY.md": "# Summary\n" } }
  ]
})

const settings = { QUIRE_GITHUB_API_URL: forge.githubUrl, QUIRE_GITLAB_API_URL: forge.gitlabUrl, QUIRE_FETCH_ALLOW: "127.0.0.1" }

type Data<A> = Promise<{ status: number; data: A }>
type Items<A> = Data<{ items: Array<A> }>
interface Repository { id: number; accountName: string; repositoryName: string; fullName: string; defaultBranch: string | null }
interface RepoFile { name: string; path: string; sha: string; size: number }
/** The part of GitBook's client this test uses (its published typings do not resolve under NodeNext). */
interface GitBookGit {
  readonly git: {
    installGitSyncProviderOnTarget(body: Record<string, unknown>): Data<GitSyncInstallation>
    getGitSyncInstallationById(id: string): Data<GitSyncInstallation>
    updateGitSyncInstallationById(id: string, body: Record<string, unknown>): Data<GitSyncInstallation>
    uninstallGitSyncInstallation(id: string): Promise<{ status: number }>
    listGitHubRepositoriesForGitSyncInstallation(id: string): Items<Repository>
    listGitHubRepoBranchesForGitSyncInstallation(id: string, account: string, repo: string): Items<{ name: string; ref: string }>
    getGitHubRepoFileForGitSyncInstallation(id: string, account: string, repo: string, query: { path: string; ref: string }): Data<RepoFile>
    listGitLabProjectsForGitSyncInstallation(id: string): Items<Repository>
    listGitLabProjectBranchesForGitSyncInstallation(id: string, projectId: number): Items<{ name: string; ref: string }>
    getGitLabProjectFileForGitSyncInstallation(id: string, projectId: number, query: { path: string; ref: string }): Data<RepoFile>
  }
  readonly orgs: {
    listSiteGitSyncInstallations(org: string, site: string): Items<GitSyncInstallation>
  }
}

const call = <A>(f: () => Promise<A>) => Effect.promise(() => f().catch((e: unknown) => ({ failed: (e as { code?: number }).code ?? 0 }) as A))

/** An organization (Alice its admin, an editor, a reader) with a space in a site, and an outsider. */
const setup = Effect.fnUntraced(function*() {
  const s = yield* spaceWith(["edit", "read"])
  const site = yield* s.alice.api.sites.createSite({ params: { organizationId: s.organizationId }, payload: { title: "Docs", spaces: [s.space.id] } })
  const outsider = yield* newUser("Mallory")
  const endpoint = yield* baseUrl
  const gitbook = (token: string) => new GitBookAPI({ endpoint, authToken: token }) as unknown as GitBookGit
  return { ...s, site, outsider, gitbook }
})

for (const backend of memoryAndPostgres) {
  layer(withSettings(backend.layer, settings), { timeout: 120_000, excludeTestServices: true })(`Git installations (${backend.name})`, (it) => {
    it.effect("GitBook's client: installs GitHub and GitLab, browses what each token reaches, picks a repository, uninstalls", () =>
      Effect.gen(function*() {
        const s = yield* setup()
        const gb = s.gitbook(s.alice.token)
        const github = (yield* call(() =>
          gb.git.installGitSyncProviderOnTarget({ provider: "github", target: { type: "organization", organizationId: s.organizationId }, providerConfiguration: { accessToken: "forge-token" } })))
        assert.strictEqual(github.status, 201)
        assert.deepStrictEqual(
          [github.data.object, github.data.provider, github.data.status, github.data.credentials, github.data.organization, github.data.createdBy],
          ["git-sync-installation", "github", "active", true, s.organizationId, s.alice.user.id]
        )
        assert.notInclude(JSON.stringify(github.data), "forge-token", "the token is never shown")
        assert.match(github.data.urls.location, new RegExp(`/v1/git/installations/${github.data.id}$`))

        const repos = (yield* call(() => gb.git.listGitHubRepositoriesForGitSyncInstallation(github.data.id))).data.items
        assert.deepStrictEqual(repos, [
          { id: 101, accountName: "acme", repositoryName: "docs", fullName: "acme/docs", defaultBranch: "main" },
          { id: 102, accountName: "acme", repositoryName: "site", fullName: "acme/site", defaultBranch: "trunk" }
        ])
        const branches = (yield* call(() => gb.git.listGitHubRepoBranchesForGitSyncInstallation(github.data.id, "acme", "docs"))).data.items
        assert.deepStrictEqual(branches, [{ name: "main", ref: "refs/heads/main" }, { name: "release/1.0", ref: "refs/heads/release/1.0" }])
        const file = (yield* call(() => gb.git.getGitHubRepoFileForGitSyncInstallation(github.data.id, "acme", "docs", { path: "docs/gitbook-docs.yaml", ref: "refs/heads/main" }))).data
        assert.deepStrictEqual([file.name, file.path, file.size], ["gitbook-docs.yaml", "docs/gitbook-docs.yaml", 9])
        assert.match(file.sha, /^[0-9a-f]{40}$/)
        const missing = yield* call(() => gb.git.getGitHubRepoFileForGitSyncInstallation(github.data.id, "acme", "docs", { path: "nope.md", ref: "main" }))
        assert.strictEqual((missing as unknown as { failed: number }).failed, 404)

        const updated = (yield* call(() =>
          gb.git.updateGitSyncInstallationById(github.data.id, { provider: "github", providerConfiguration: { repositoryId: 101, branch: "refs/heads/release/1.0" }, projectDirectory: "docs", priority: "git" }))).data
        assert.deepStrictEqual(
          [updated.providerConfiguration, updated.repositoryName, updated.projectDirectory, updated.priority],
          [{ repositoryId: 101, branch: "refs/heads/release/1.0" }, "acme/docs", "docs", "git"]
        )
        const read = (yield* call(() => s.gitbook(s.members.read!.token).git.getGitSyncInstallationById(github.data.id))).data
        assert.deepStrictEqual(read, updated, "members read what was stored")

        const gitlab = (yield* call(() => gb.git.installGitSyncProviderOnTarget({ provider: "gitlab", target: { type: "site", siteId: s.site.id } }))).data
        assert.deepStrictEqual([gitlab.status, gitlab.credentials, gitlab.target], ["unauthenticated", false, { type: "site", siteId: s.site.id }])
        const withToken = (yield* call(() => gb.git.updateGitSyncInstallationById(gitlab.id, { provider: "gitlab", providerConfiguration: { accessToken: "forge-token", projectId: 7, branch: "refs/heads/main" } }))).data
        assert.deepStrictEqual([withToken.status, withToken.providerConfiguration, withToken.repositoryName], ["active", { projectId: 7, branch: "refs/heads/main" }, "acme-group/handbook"])
        const editor = s.gitbook(s.members.edit!.token)
        const projects = (yield* call(() => editor.git.listGitLabProjectsForGitSyncInstallation(gitlab.id))).data.items
        assert.deepStrictEqual(projects, [{ id: 7, accountName: "acme-group", repositoryName: "handbook", fullName: "acme-group/handbook", defaultBranch: "main" }])
        const projectBranches = (yield* call(() => editor.git.listGitLabProjectBranchesForGitSyncInstallation(gitlab.id, 7))).data.items
        assert.deepStrictEqual(projectBranches.map((b) => b.ref), ["refs/heads/main", "refs/heads/draft"])
        const summary = (yield* call(() => editor.git.getGitLabProjectFileForGitSyncInstallation(gitlab.id, 7, { path: "SUMMARY.md", ref: "draft" }))).data
        // Git's blob id of the bytes, as GitLab names a file's blob.
        assert.deepStrictEqual(summary, { name: "SUMMARY.md", path: "SUMMARY.md", sha: createHash("sha1").update("blob 10\0# Summary\n").digest("hex"), size: 10 })

        const onSite = (yield* call(() => s.gitbook(s.members.read!.token).orgs.listSiteGitSyncInstallations(s.organizationId, s.site.id))).data.items
        assert.deepStrictEqual(onSite.map((i) => i.id), [gitlab.id], "the site's installations, not the organization-wide one")
        const all = yield* s.alice.api.gitInstallations.listOrganizationGitSyncInstallations({ params: { organizationId: s.organizationId } })
        assert.deepStrictEqual(all.items.map((i) => i.id), [github.data.id, gitlab.id])

        // A space connects to the chosen repository through the installation: no token typed.
        const connected = yield* s.alice.api.git.connectSpaceGitRepository({
          params: { spaceId: s.space.id },
          payload: { installationId: github.data.id, repository: "acme/docs", ref: "refs/heads/main" }
        })
        assert.deepStrictEqual([connected.url, connected.repoName, connected.credentials, connected.branch], ["https://github.com/acme/docs.git", "acme/docs", true, "main"])

        const removed = yield* call(() => gb.git.uninstallGitSyncInstallation(gitlab.id))
        assert.strictEqual(removed.status, 205)
        const gone = yield* call(() => gb.git.getGitSyncInstallationById(gitlab.id))
        assert.strictEqual((gone as unknown as { failed: number }).failed, 404)
      }))

    it.effect("roles: admins install and change, editors browse, readers read; outsiders learn nothing; a refused token is a 409", () =>
      Effect.gen(function*() {
        const s = yield* setup()
        const api = s.alice.api.gitInstallations
        const installed = yield* api.installGitSyncProviderOnTarget({
          payload: { provider: "github", target: { type: "space", spaceId: s.space.id }, providerConfiguration: { accessToken: "forge-token" } }
        })
        const again = yield* Effect.flip(api.installGitSyncProviderOnTarget({ payload: { provider: "gitlab", target: { type: "space", spaceId: s.space.id } } }))
        assert.strictEqual(errorCode(again), 409, "one installation per space")
        const onSite = { provider: "gitlab" as const, target: { type: "site" as const, siteId: s.site.id } }
        yield* api.installGitSyncProviderOnTarget({ payload: onSite })
        assert.strictEqual(errorCode(yield* Effect.flip(api.installGitSyncProviderOnTarget({ payload: onSite }))), 409, "one installation per site")
        const otherSite = yield* s.alice.api.sites.createSite({ params: { organizationId: s.organizationId }, payload: { title: "Other" } })
        yield* api.installGitSyncProviderOnTarget({ payload: { provider: "gitlab", target: { type: "site", siteId: otherSite.id } } })

        const editor = s.members.edit!.api.gitInstallations
        const reader = s.members.read!.api.gitInstallations
        const outsider = s.outsider.api.gitInstallations
        const id = { installationId: installed.id }
        assert.strictEqual(errorCode(yield* Effect.flip(editor.installGitSyncProviderOnTarget({ payload: { provider: "github", target: { type: "organization", organizationId: s.organizationId } } }))), 403)
        assert.strictEqual(errorCode(yield* Effect.flip(editor.uninstallGitSyncInstallation({ params: id }))), 403)
        assert.strictEqual(errorCode(yield* Effect.flip(editor.updateGitSyncInstallationById({ params: id, payload: { provider: "github", providerConfiguration: { accessToken: "stolen" } } }))), 403)
        assert.strictEqual((yield* editor.listGitHubRepositoriesForGitSyncInstallation({ params: id })).items.length, 2)
        assert.strictEqual(errorCode(yield* Effect.flip(reader.listGitHubRepositoriesForGitSyncInstallation({ params: id }))), 403)
        assert.strictEqual((yield* reader.getGitSyncInstallationById({ params: id })).id, installed.id)
        // GitHub's operations on a GitHub installation only.
        assert.strictEqual(errorCode(yield* Effect.flip(editor.listGitLabProjectsForGitSyncInstallation({ params: id }))), 404)

        const attempts: ReadonlyArray<Effect.Effect<unknown, unknown>> = [
          outsider.getGitSyncInstallationById({ params: id }),
          outsider.listGitHubRepositoriesForGitSyncInstallation({ params: id }),
          outsider.listGitHubRepoBranchesForGitSyncInstallation({ params: { ...id, accountName: "acme", repositoryName: "docs" } }),
          outsider.uninstallGitSyncInstallation({ params: id }),
          outsider.listSiteGitSyncInstallations({ params: { organizationId: s.organizationId, siteId: s.site.id } }),
          outsider.listOrganizationGitSyncInstallations({ params: { organizationId: s.organizationId } }),
          outsider.installGitSyncProviderOnTarget({ payload: { provider: "github", target: { type: "space", spaceId: s.space.id } } }),
          outsider.installGitSyncProviderOnTarget({ payload: { provider: "github", target: { type: "site", siteId: s.site.id } } }),
          outsider.installGitSyncProviderOnTarget({ payload: { provider: "github", target: { type: "organization", organizationId: s.organizationId } } })
        ]
        for (const attempt of attempts) {
          assert.strictEqual(errorCode(yield* Effect.flip(attempt)), 404)
        }
        // An editor of the space may browse but not connect it.
        const editorConnects = yield* Effect.flip(s.members.edit!.api.git.connectSpaceGitRepository({
          params: { spaceId: s.space.id },
          payload: { installationId: installed.id, repository: "acme/docs", ref: "refs/heads/main" }
        }))
        assert.strictEqual(errorCode(editorConnects), 403)
        // Another organization's admin cannot connect a space of theirs through it.
        const other = yield* spaceWith()
        const borrowed = yield* Effect.flip(other.alice.api.git.connectSpaceGitRepository({
          params: { spaceId: other.space.id },
          payload: { installationId: installed.id, repository: "acme/docs", ref: "refs/heads/main" }
        }))
        assert.strictEqual(errorCode(borrowed), 404)

        // A token the forge refuses: a 409 that says so, and nothing leaks.
        yield* api.updateGitSyncInstallationById({ params: id, payload: { provider: "github", providerConfiguration: { accessToken: "wrong-token" } } })
        const refused = yield* Effect.flip(editor.listGitHubRepositoriesForGitSyncInstallation({ params: id }))
        assert.strictEqual(errorCode(refused), 409)
        assert.include(JSON.stringify(refused), "refused the installation's token")
        assert.notInclude(JSON.stringify(refused), "wrong-token")
      }))

    it.effect("bad input is a 400 naming the field", () =>
      Effect.gen(function*() {
        const s = yield* setup()
        const installed = yield* s.alice.api.gitInstallations.installGitSyncProviderOnTarget({
          payload: { provider: "github", target: { type: "organization", organizationId: s.organizationId }, providerConfiguration: { accessToken: "forge-token" } }
        })
        // The last: a repository the token does not reach is a 404 naming it.
        const cases: ReadonlyArray<readonly [string, string, unknown, string]> = [
          ["POST", "/v1/git/installations", { provider: "bitbucket", target: { type: "organization", organizationId: s.organizationId } }, "provider"],
          ["POST", "/v1/git/installations", { provider: "github", target: { type: "space" } }, "target"],
          ["POST", "/v1/git/installations", { provider: "github", target: { type: "organization", organizationId: s.organizationId }, providerConfiguration: { accessToken: "has space" } }, "accessToken"],
          ["POST", "/v1/git/installations", { provider: "gitlab", target: { type: "organization", organizationId: s.organizationId }, providerConfiguration: { customInstanceURL: "ftp://x" } }, "customInstanceURL"],
          ["PATCH", `/v1/git/installations/${installed.id}`, { provider: "github", providerConfiguration: { branch: "main" } }, "branch"],
          ["PATCH", `/v1/git/installations/${installed.id}`, { provider: "github", providerConfiguration: { repositoryId: 999 } }, "providerConfiguration.repositoryId"],
          ["PATCH", `/v1/git/installations/${installed.id}`, { provider: "gitlab", providerConfiguration: {} }, "provider"],
          ["PATCH", `/v1/git/installations/${installed.id}`, { provider: "github", providerConfiguration: {}, projectDirectory: "../up" }, "projectDirectory"],
          ["GET", `/v1/git/installations/${installed.id}/github/repos/acme/docs/file?path=..%2Fsecret&ref=main`, undefined, "path"],
          ["GET", `/v1/git/installations/${installed.id}/gitlab/projects/abc/branches`, undefined, "projectId"],
          ["PUT", `/v1/spaces/${s.space.id}/git`, { ref: "refs/heads/main" }, "url"],
          ["PUT", `/v1/spaces/${s.space.id}/git`, { installationId: installed.id, ref: "refs/heads/main" }, "repository"],
          ["PUT", `/v1/spaces/${s.space.id}/git`, { installationId: installed.id, repository: "acme/nope", ref: "refs/heads/main" }, "Repository"]
        ]
        for (const [method, path, body, field] of cases) {
          const answer = yield* raw(method, path, { token: s.alice.token, ...(body === undefined ? {} : { body: JSON.stringify(body) }) })
          assert.strictEqual(answer.status, field === "Repository" ? 404 : 400, `${method} ${path} ${JSON.stringify(body)}: ${JSON.stringify(answer.body)}`)
          assert.include(JSON.stringify(answer.body), field, `${method} ${path} ${JSON.stringify(body)}`)
        }
      }))
  })
}
