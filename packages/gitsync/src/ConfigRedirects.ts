/**
 * The `redirects:` of the `.gitbook.yaml` a space last imported: GitBook's space-level redirects,
 * an old path below the space's URL to the file of the page that replaces it. Read from the
 * imported layout (the file the export writes back unchanged), remembered per commit.
 */
import { Context, Effect, Layer, Option, Result } from "effect"
import { BoundedCache } from "@quire/kernel"
import { ImportedLayoutRepo } from "./ImportedLayoutRepo.ts"
import { layoutPaths, readConfig } from "./layout/ConfigFile.ts"
import { joinPath, normalizePath } from "./layout/Paths.ts"

/** One redirect of `.gitbook.yaml`. */
export interface ConfigRedirect {
  /** The old path below the space's URL, without leading or trailing `/` (as written, not percent-encoded). */
  readonly source: string
  /** The file of the page it leads to, from the repository root (`docs/new/page.md`). */
  readonly target: string
}

export interface ConfigRedirectsShape {
  /** The redirects of the space's last import; none for a space never imported or a config that does not read. */
  readonly forSpace: (spaceId: string) => Effect.Effect<ReadonlyArray<ConfigRedirect>>
}

/** The redirects of a `.gitbook.yaml` (its bytes) of a project directory. */
export const redirectsOf = (projectDirectory: string, bytes: Uint8Array | undefined): ReadonlyArray<ConfigRedirect> => {
  const project = normalizePath(projectDirectory)
  const configPath = joinPath(project, ".gitbook.yaml")
  const files = new Map(bytes === undefined ? [] : [[configPath, { oid: "", bytes }] as const])
  const read = readConfig(files, configPath, [])
  if (Result.isFailure(read)) return []
  const paths = layoutPaths(project, configPath, read.success.config)
  if (Result.isFailure(paths)) return []
  return Object.entries(read.success.config.redirects).flatMap(([from, to]) => {
    const source = from.trim().replace(/^\/+|\/+$/g, "")
    const target = joinPath(paths.success.docsRoot, to.trim())
    return source === "" || target === "" ? [] : [{ source, target }]
  })
}

export class ConfigRedirects extends Context.Service<ConfigRedirects, ConfigRedirectsShape>()("@quire/gitsync/ConfigRedirects") {
  static readonly layer = Layer.effect(
    ConfigRedirects,
    Effect.gen(function*() {
      const layouts = yield* ImportedLayoutRepo
      const kept = yield* BoundedCache.make<string, ReadonlyArray<ConfigRedirect>>({ name: "gitsync_config_redirects", capacity: 500 })
      return ConfigRedirects.of({
        forSpace: Effect.fnUntraced(function*(spaceId: string) {
          const header = yield* layouts.header(spaceId)
          if (Option.isNone(header)) return []
          const key = `${spaceId}\u0000${header.value.commit}\u0000${header.value.projectDirectory}`
          const hit = kept.get(key)
          if (hit !== undefined) return hit
          const file = yield* layouts.file(spaceId, joinPath(normalizePath(header.value.projectDirectory), ".gitbook.yaml"))
          const redirects = redirectsOf(header.value.projectDirectory, Option.getOrUndefined(Option.map(file, (f) => f.bytes)))
          kept.set(key, redirects)
          return redirects
        })
      })
    })
  )
}
