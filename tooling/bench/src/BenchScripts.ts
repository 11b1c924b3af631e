/**
 * The benches' own server processes (QuireServer.ts, BaselineServer.ts, FloorServer.ts,
 * StaticServer.ts), bundled by esbuild so that they start under plain Node rather than tsx, which
 * compiled and loaded their few hundred modules one by one at each start (the baseline: 6.5 s of
 * CPU under tsx, 2.8 s bundled). Only our TypeScript is bundled: npm packages stay where they are,
 * imported by their absolute path, so a process loads the very files the sources load. Each module
 * keeps its own `import.meta.url`, so what it opens beside itself or resolves from its package
 * (fonts, site assets, CommonJS packages) is what it opens from the sources; only ParsePool.ts
 * keeps the bundle's, to start the bundled parse-worker.mjs beside it as the production build does.
 *
 * The bundle is kept in node_modules/.cache/quire-bench-scripts and made again only when one of
 * its inputs (or the lockfile) is newer than it; a new one goes into a directory of its own, so a
 * process still running from the previous one keeps its files.
 */
import { Effect } from "effect"
import * as esbuild from "esbuild"
import { existsSync, statSync } from "node:fs"
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises"
import { join } from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"

const root = fileURLToPath(new URL("../../..", import.meta.url))
const cache = join(root, "node_modules/.cache/quire-bench-scripts")
const source = (file: string) => fileURLToPath(new URL(file, import.meta.url))

const entryPoints = {
  quire: source("./QuireServer.ts"),
  baseline: source("./BaselineServer.ts"),
  floor: source("./FloorServer.ts"),
  static: source("./StaticServer.ts"),
  "parse-worker": join(root, "packages/content/src/markdown/ParseWorker.ts")
}

/** The scripts a benchmarked server runs. */
export type Script = "quire" | "baseline" | "floor" | "static"

/** Besides the bundled sources: a changed lockfile may have moved the packages imported by path. */
const alwaysInputs = [join(root, "pnpm-lock.yaml")]

/** npm packages (whatever resolves into node_modules) stay out of the bundle, imported by their absolute path. */
const packagesByPath: esbuild.Plugin = {
  name: "packages-by-path",
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, async (args) => {
      if (args.pluginData === "resolving" || args.path.startsWith("node:")) return undefined
      const resolved = await build.resolve(args.path, { kind: args.kind, importer: args.importer, resolveDir: args.resolveDir, pluginData: "resolving" })
      if (resolved.errors.length > 0 || resolved.external || !resolved.path.includes("/node_modules/")) return undefined
      return { path: pathToFileURL(resolved.path).href, external: true }
    })
  }
}

/** Each of our modules keeps the URL of its own file (ParsePool.ts excepted: its worker is the bundle's). */
const ownImportMetaUrl: esbuild.Plugin = {
  name: "own-import-meta-url",
  setup(build) {
    build.onLoad({ filter: /\.ts$/ }, async (args) => {
      const text = await readFile(args.path, "utf8")
      if (args.path.endsWith("/ParsePool.ts") || !text.includes("import.meta.url")) return undefined
      return { contents: text.replaceAll("import.meta.url", JSON.stringify(pathToFileURL(args.path).href)), loader: "ts" }
    })
  }
}

/** The directory of the current bundle when none of its inputs is newer than it. */
const fresh = async (): Promise<string | undefined> => {
  try {
    const dir = join(cache, (await readFile(join(cache, "current"), "utf8")).trim())
    const manifest = join(dir, "inputs.json")
    const built = (await stat(manifest)).mtimeMs
    const inputs = JSON.parse(await readFile(manifest, "utf8")) as ReadonlyArray<string>
    return inputs.every((input) => existsSync(input) && statSync(input).mtimeMs <= built) ? dir : undefined
  } catch {
    return undefined
  }
}

/** Bundles into a new directory, then makes it the current one; removes bundles a day old. */
const bundle = async (): Promise<{ readonly dir: string; readonly inputs: number }> => {
  await mkdir(cache, { recursive: true })
  const name = `${Date.now()}-${process.pid}`
  const dir = join(cache, name)
  const result = await esbuild.build({
    entryPoints,
    absWorkingDir: root,
    outdir: dir,
    bundle: true,
    splitting: true,
    platform: "node",
    format: "esm",
    target: "node24",
    // As Node resolves packages: no bundler-only `module` condition.
    conditions: [],
    outExtension: { ".js": ".mjs" },
    sourcemap: true,
    metafile: true,
    logLevel: "error",
    plugins: [packagesByPath, ownImportMetaUrl]
  })
  const inputs = [...Object.keys(result.metafile.inputs).map((input) => join(root, input)), ...alwaysInputs]
  await writeFile(join(dir, "inputs.json"), JSON.stringify(inputs))
  await writeFile(join(cache, `current.${name}`), name)
  await rename(join(cache, `current.${name}`), join(cache, "current"))
  const dayAgo = Date.now() - 86_400_000
  for (const entry of await readdir(cache, { withFileTypes: true })) {
    if (entry.isDirectory() && entry.name !== name && (await stat(join(cache, entry.name))).mtimeMs < dayAgo) {
      await rm(join(cache, entry.name), { recursive: true, force: true })
    }
  }
  return { dir, inputs: inputs.length }
}

/** The bundle's directory: the current one, or a new one when a source is newer. */
export const current = (progress: (message: string) => Effect.Effect<void>) =>
  Effect.gen(function*() {
    const kept = yield* Effect.promise(fresh)
    if (kept !== undefined) return kept
    const started = performance.now()
    const made = yield* Effect.tryPromise({
      try: bundle,
      catch: (cause) => new Error(`bundling the benches' servers failed: ${cause instanceof Error ? cause.message : String(cause)}`)
    })
    yield* progress(`bundled the benches' servers (${made.inputs} inputs) in ${((performance.now() - started) / 1000).toFixed(1)} s into ${made.dir}`)
    return made.dir
  })

/** The bundled entry point of `script`, run with plain `node`. */
export const path = (script: Script, progress: (message: string) => Effect.Effect<void>) =>
  Effect.map(current(progress), (dir) => join(dir, `${script}.mjs`))
