#!/usr/bin/env node
// The production build: the browser app built by Vite into dist/web, and each app's entry point and everything it imports (workspace packages
// and npm dependencies alike) bundled by esbuild into one ES module in dist/, beside the few
// files that dependencies load at run time (PGlite's WebAssembly and data, pdfkit's ICC
// profile, the fonts PDFs embed), the published site's stylesheets and scripts (checked and minified), and the database of a
// new installation, which the embedded database starts from
// instead of running initdb and the migrations. dist/ then runs with `node` alone, without
// node_modules. The Dockerfile runs this file, and apps/server/test/Process.test.ts runs it the
// same way.
import * as esbuild from "esbuild"
import { execFile, spawnSync } from "node:child_process"
import { readdirSync } from "node:fs"
import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises"
import { createRequire } from "node:module"
import { tmpdir } from "node:os"
import { dirname, join, relative, resolve } from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import { asciiOnlyBundles, bundle } from "./bundle.mjs"

const root = fileURLToPath(new URL("../..", import.meta.url))
/**
 * dist/, or the directory after `--outdir` (the tests of the built server build into one of their
 * own, so that they never run from a dist/ that another test is building anew).
 */
const outdirFlag = process.argv.indexOf("--outdir")
const outdir = outdirFlag === -1 ? join(root, "dist") : resolve(process.argv[outdirFlag + 1] ?? "")

/**
 * dist/<name>.mjs from each app's process entry point, from the entry of the threads that parse
 * large pages (`ParsePool.ts` starts dist/parse-worker.mjs from beside the bundle it is part of),
 * from the one that evaluates custom merge rules (dist/custom-rule-worker.mjs, `CustomRules.ts`),
 * and from the one that makes the API reference's document (run below to write
 * dist/api-reference.json; `ApiDocs.ts` starts it only when that file is missing).
 * They are split as the CLI is: the code they share sits in dist/app-chunk-*.mjs, and what is only
 * imported dynamically (shiki's 300 languages and themes, Scalar's 3 MB bundle, Undici, live editing) in chunks
 * of its own that load on first use. One file held all of it, 27 MB of source that V8 keeps for the
 * life of every process.
 */
const entryPoints = {
  server: join(root, "apps/server/src/main.ts"),
  worker: join(root, "apps/worker/src/main.ts"),
  "parse-worker": join(root, "packages/content/src/markdown/ParseWorker.ts"),
  // The thread that evaluates a custom merge rule in QuickJS (`CustomRules.ts` starts it from beside the bundle).
  "custom-rule-worker": join(root, "packages/reviews/src/CustomRuleWorker.ts"),
  "api-reference-worker": join(root, "apps/server/src/ApiReferenceWorker.ts")
}

/**
 * The CLI is bundled on its own, split at its dynamic imports: dist/quire.mjs holds what every
 * command needs (the API client), and what only `db migrate` and `cr apply` load (the database,
 * every package's layers, the markdown parser) waits in dist/quire-*.mjs chunks until a command
 * imports it, so that a call reads and compiles 1 MB rather than 20. The chunks sit beside the
 * assets, which bundled code opens relative to its own file.
 */
const cliEntryPoints = { quire: join(root, "apps/cli/src/start.ts") }

/** The fonts PDFs embed (packages/reviews' Fonts.ts finds them in dist/fonts/ beside a bundle). */
const fontFiles = JSON.parse(await readFile(join(root, "packages/reviews/src/FontFiles.json"), "utf8"))

/** Resolves `specifier` as the package `from` (a workspace package directory) sees it. */
const resolveFrom = (from, specifier) => createRequire(join(root, from, "package.json")).resolve(specifier)

/** Files that bundled code opens with `new URL("./<file>", import.meta.url)`: they go beside the bundles. */
const assets = () => {
  const pglite = dirname(resolveFrom("packages/db", "@electric-sql/pglite"))
  const pdfkit = dirname(resolveFrom("packages/reviews", "pdfkit"))
  return [
    [join(pglite, "pglite.wasm"), "pglite.wasm"],
    [join(pglite, "pglite.data"), "pglite.data"],
    [join(pglite, "initdb.wasm"), "initdb.wasm"],
    [join(pdfkit, "data/sRGB_IEC61966_2_1.icc"), "data/sRGB_IEC61966_2_1.icc"],
    ...Object.values(fontFiles).map(({ package: name, file }) => [resolveFrom("packages/reviews", `${name}/${file}`), `fonts/${file.split("/").at(-1)}`]),
    ...siteAssets(),
    ...iconAssets()
  ]
}

/** Font Awesome's free icons, which published pages draw inline (packages/sites' Icons.ts finds them in `dist/icons/`). */
const iconAssets = () => {
  const svgs = join(dirname(resolveFrom("packages/sites", "@fortawesome/fontawesome-free/package.json")), "svgs")
  return ["regular", "solid", "brands"].flatMap((family) =>
    readdirSync(join(svgs, family)).filter((file) => file.endsWith(".svg")).map((file) => [join(svgs, family, file), `icons/${family}/${file}`]))
}

/** The files published pages load from their own site (packages/sites' Assets.ts finds them in `dist/site-assets/`). */
const siteAssets = () => {
  const katex = dirname(resolveFrom("packages/sites", "katex/dist/katex.min.css"))
  const fonts = readdirSync(join(katex, "fonts")).filter((file) => file.endsWith(".woff2"))
  return [
    [join(katex, "katex.min.css"), "site-assets/katex/katex.min.css"],
    ...fonts.map((file) => [join(katex, "fonts", file), `site-assets/katex/fonts/${file}`]),
    [resolveFrom("packages/sites", "mermaid/dist/mermaid.min.js"), "site-assets/mermaid.min.js"]
  ]
}

/**
 * dist/site-static/: the published site's own stylesheets and client scripts (packages/sites'
 * `render/site-static/`, which its SiteStatic.ts reads beside the bundle), each parsed by esbuild
 * and minified. A warning fails the build: esbuild's CSS parser reports a syntax error (a brace
 * or a colon missing, a stray token) as a warning and goes on, where the rule would be lost.
 */
const siteStatic = async () => {
  const from = join(root, "packages/sites/src/render/site-static")
  const to = join(outdir, "site-static")
  await mkdir(to, { recursive: true })
  const problems = []
  for (const name of (await readdir(from)).filter((file) => /\.(?:css|js)$/.test(file)).toSorted()) {
    const source = await readFile(join(from, name), "utf8")
    const loader = name.endsWith(".css") ? "css" : "js"
    const minified = await esbuild.transform(source, { loader, minify: true, legalComments: "none", sourcefile: relative(root, join(from, name)), logLevel: "silent" })
      .catch((failure) => ({ code: "", warnings: failure.errors ?? [failure] }))
    if (minified.warnings.length > 0) problems.push(...await esbuild.formatMessages(minified.warnings, { kind: "error" }))
    else await writeFile(join(to, name), minified.code)
  }
  if (problems.length > 0) {
    console.error(problems.join(""))
    throw new Error("the site's stylesheets or scripts do not parse")
  }
}

/**
 * dist/pglite-initial.tar.gz: the database of a new installation, made once here so that a first
 * start runs neither initdb nor the migrations, which took most of it. The CLI just bundled
 * creates it (`quire db migrate` on an empty directory: PGlite's initdb, then every package's
 * migrations) and stops it cleanly; the PGlite that the bundles hold then dumps it (`dumpDataDir`)
 * without starting PostgreSQL again. On a data directory that holds no cluster,
 * `Database.layerEmbedded` (packages/db) writes it there; the server's migration run then finds
 * nothing pending, or applies what is newer. A build always makes it anew.
 */
const initialCluster = async () => {
  const dataDir = await mkdtemp(join(tmpdir(), "quire-build-pglite-"))
  try {
    // Without DATABASE_URL, whatever the shell has: the CLI migrates the embedded database.
    const { DATABASE_URL: _, ...env } = process.env
    const migrate = spawnSync(process.execPath, [join(outdir, "quire.mjs"), "db", "migrate", "--json"], {
      env: { ...env, QUIRE_DATA_DIR: dataDir },
      encoding: "utf8"
    })
    if (migrate.status !== 0 || !/"database": "embedded"/.test(migrate.stdout)) {
      throw new Error(`\`quire db migrate\` did not create the initial database:\n${migrate.stdout}${migrate.stderr}`)
    }
    const { PGlite } = createRequire(join(root, "packages/db/package.json"))("@electric-sql/pglite")
    const stopped = await PGlite.create({ dataDir, noInitDb: true })
    const dump = await stopped.dumpDataDir("gzip")
    await stopped.close()
    const file = join(outdir, "pglite-initial.tar.gz")
    await writeFile(file, new Uint8Array(await dump.arrayBuffer()))
    return { file, bytes: dump.size }
  } finally {
    await rm(dataDir, { recursive: true, force: true })
  }
}

/**
 * dist/api-reference.json: the document the API reference at /docs loads, as Scalar's store would
 * make it in the browser (apps/server/src/ApiReferenceDocument.ts), made by the bundle just built so
 * that it is the contract of this build. Making it takes seconds of CPU, which the server would
 * otherwise spend at the first visit of /docs; serving it, the server adds only its public URL.
 */
const apiReference = () =>
  new Promise((resolve, reject) => {
    const file = join(outdir, "api-reference.json")
    execFile(process.execPath, [join(outdir, "api-reference-worker.mjs"), file], { maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) =>
      error === null ? resolve(file) : reject(new Error(`the API reference's document was not made:\n${stdout}${stderr}`)))
  })

/**
 * dist/web: the browser app (apps/web) built by Vite, with its own config (hashed assets under
 * /app/assets/), straight into the directory beside the server's bundle, where the server looks
 * for it by default (apps/server/src/WebApp.ts, `QUIRE_WEB_DIR`). Not through apps/web/dist: the
 * app's browser tests serve that directory, and a build emptying it under them failed them.
 */
const webApp = async () => {
  const webRoot = join(root, "apps/web")
  // Vite bundles React's development build when NODE_ENV says so (a shell's, or a test runner's
  // "test"): what users run is always the production one, whatever the environment of the build.
  process.env.NODE_ENV = "production"
  const vite = await import(pathToFileURL(resolveFrom("apps/web", "vite")).href)
  await vite.build({ root: webRoot, mode: "production", logLevel: "warn", build: { outDir: join(outdir, "web"), emptyOutDir: true } })
}

/** The inputs of the CLI's bundle (outside node_modules) and the lockfile, for bin/quire.mjs's freshness check. */
const cliInputs = (metafile) => [
  ...Object.keys(metafile.inputs).filter((input) => !input.includes("node_modules/")).map((input) => join(process.cwd(), input)),
  join(root, "pnpm-lock.yaml")
].map((file) => relative(root, file))

const started = performance.now()
await rm(outdir, { recursive: true, force: true })
const [result, cli] = await Promise.all([
  bundle(entryPoints, outdir, "app"),
  bundle(cliEntryPoints, outdir, "quire"),
  webApp(),
  siteStatic()
]).catch(() => {
  // esbuild, Vite and siteStatic have printed the errors.
  console.error("Build failed")
  process.exit(1)
})
await writeFile(join(outdir, "quire.inputs.json"), `${JSON.stringify(cliInputs(cli.metafile))}\n`)
await asciiOnlyBundles(outdir)
for (const [from, to] of assets()) {
  await mkdir(dirname(join(outdir, to)), { recursive: true })
  await copyFile(from, join(outdir, to))
}
// The document is made in a process of its own while initialCluster's CLI migrates.
const [, dump] = await Promise.all([apiReference(), initialCluster()])
// The entry points, each with the bytes it loads at start (itself and the chunks it imports
// statically); the chunks loaded on demand are counted, not listed.
const outputsOf = { ...result.metafile.outputs, ...cli.metafile.outputs }
const startBytes = (file) => {
  const seen = new Set()
  const visit = (path) => {
    if (seen.has(path) || outputsOf[path] === undefined) return
    seen.add(path)
    for (const imported of outputsOf[path].imports) if (imported.kind === "import-statement") visit(imported.path)
  }
  visit(file)
  return [...seen].reduce((sum, path) => sum + outputsOf[path].bytes, 0)
}
const names = [...Object.keys(entryPoints), ...Object.keys(cliEntryPoints)].map((name) => `${name}.mjs`)
const isEntry = (file) => names.some((name) => file === name || file.endsWith(`/${name}`))
const chunks = Object.keys(outputsOf).filter((file) => file.endsWith(".mjs") && !isEntry(file)).length
const outputs = Object.keys(outputsOf)
  .filter((file) => isEntry(file))
  .map((file) => [file, startBytes(file)])
  .concat([[dump.file, dump.bytes]])
  .map(([file, bytes]) => `${relative(root, file)} (${(bytes / 1e6).toFixed(1)} MB)`)
console.log(`Built ${outputs.join(", ")} (with what each loads at start; ${chunks} chunks load on demand or are shared), ${relative(root, join(outdir, "web"))} (the browser app) in ${Math.round(performance.now() - started)} ms`)
