#!/usr/bin/env node
// How the apps are bundled (esbuild's options and plugins, shared by build.mjs and the tests' own
// bundles), and, run as a command, a bundle of entry points of one's own beside a production build:
//
//   node tooling/build/bundle.mjs --outdir DIR --beside dist NAME=ENTRY...
//
// writes DIR/NAME.mjs for each ENTRY (its chunks in DIR too) with the production build's options,
// and links into DIR every file of the production build it has not written itself, so that what the
// bundle opens beside itself (the site's static files, the fonts, the parse worker, the API
// reference's document) is found as it is beside dist/server.mjs. The browser tests run their
// server this way (apps/web/test/e2e/servers.ts): a test-only entry point, never part of dist/.
import * as esbuild from "esbuild"
import { existsSync } from "node:fs"
import { mkdir, readdir, readFile, rm, symlink, writeFile } from "node:fs/promises"
import { dirname, join, resolve } from "node:path"
import { pathToFileURL } from "node:url"

// Optional dependencies that packages load only when present (native pg, ws accelerators, the
// TypeScript config loader of graphile-worker's cosmiconfig); none is installed or used.
const external = ["pg-native", "bufferutil", "utf-8-validate", "typescript"]

// CommonJS modules bundled into an ES module still call `require` for Node built-ins and read
// `__dirname`: give the bundle a real `require` and its own file and directory names.
const banner = [
  `import { createRequire as __quireCreateRequire } from "node:module";`,
  `import { fileURLToPath as __quireFileURLToPath } from "node:url";`,
  `const require = __quireCreateRequire(import.meta.url);`,
  `const __quireFilename = __quireFileURLToPath(import.meta.url);`,
  `const __quireDirname = __quireFileURLToPath(new URL(".", import.meta.url));`
].join("\n")

/**
 * `createRequire(import.meta.url)("x")` (our markdown code, pdfkit's standard fonts) is opaque to
 * a bundler, which would leave "x" to be looked up next to dist/ at run time. Written as a plain
 * `require("x")` it is bundled like any other module.
 */
const inlineCreateRequire = {
  name: "inline-create-require",
  setup(build) {
    build.onLoad({ filter: /\.(?:[cm]?js|ts)$/ }, async (args) => {
      const source = await readFile(args.path, "utf8")
      if (!source.includes("createRequire(import.meta.url)")) return undefined
      let contents = source.replace(/createRequire\(import\.meta\.url\)\((["'][^"']+["'])\)/g, "require($1)")
      for (const [, name] of source.matchAll(/(?:const|let|var)\s+([\w$]+)\s*=\s*createRequire\(import\.meta\.url\)/g)) {
        const escaped = name.replace(/\$/g, "\\$")
        contents = contents.replace(new RegExp(`(?<![\\w$.])${escaped}\\((["'])`, "g"), "require($1")
      }
      return { contents, loader: args.path.endsWith(".ts") ? "ts" : "js", resolveDir: dirname(args.path) }
    })
  }
}

/**
 * A dynamic `import()` of a CommonJS package, as the sources load node-saml on first use: Node
 * gives the importer the package's named exports (found by its CommonJS lexer) beside `default`,
 * but the chunk esbuild splits off for it exports `default` alone, so `const { SAML,
 * ValidateInResponseTo } = await import(...)` read undefined in dist/ only, and SAML sign-in
 * answered 500 there. Such an import goes through a module of ours that exports the
 * names Node finds in that package, taken from its `module.exports` (which is also the `default`, as
 * in Node, whatever its `__esModule` says): the bundle sees what the sources see. ES modules are left to esbuild.
 */
const commonJsDynamicImports = {
  name: "commonjs-dynamic-imports",
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, async (args) => {
      if (args.kind !== "dynamic-import" || args.pluginData?.commonJsInterop === true) return undefined
      const resolved = await build.resolve(args.path, {
        kind: args.kind,
        importer: args.importer,
        resolveDir: args.resolveDir,
        pluginData: { commonJsInterop: true }
      })
      if (resolved.errors.length > 0 || resolved.external || !(await isCommonJs(resolved.path))) return undefined
      return { path: resolved.path, namespace: "commonjs-interop" }
    })
    build.onLoad({ filter: /.*/, namespace: "commonjs-interop" }, async (args) => {
      const namespace = await import(pathToFileURL(args.path).href)
      const names = Object.keys(namespace).filter((name) => name !== "default" && /^[A-Za-z_$][\w$]*$/.test(name))
      const module = JSON.stringify(args.path)
      return {
        contents: `const exported = require(${module});\nexport const { ${names.join(", ")} } = exported;\nexport default exported;\n`,
        resolveDir: dirname(args.path),
        loader: "js"
      }
    })
  }
}

/** Whether Node (and esbuild) read `file` as CommonJS: `.cjs`, or `.js` outside a `"type": "module"` package without ES module syntax. */
const isCommonJs = async (file) => {
  if (file.endsWith(".cjs")) return true
  if (!file.endsWith(".js") || !file.includes("/node_modules/")) return false
  if (/^\s*(?:import\s*[\w{*"']|export\s)/m.test(await readFile(file, "utf8"))) return false
  for (let dir = dirname(file); dir !== dirname(dir); dir = dirname(dir)) {
    const manifest = await readFile(join(dir, "package.json"), "utf8").catch(() => undefined)
    if (manifest !== undefined) return JSON.parse(manifest).type !== "module"
  }
  return true
}

/**
 * Escapes what esbuild leaves outside ASCII (comments and regular expressions: `/[ßæ]/`, `// it’s`)
 * as `\\uXXXX`, which means the same in a regular expression, a string or an identifier and
 * nothing in a comment. V8 keeps a script's source for the life of the process, and one character
 * outside Latin-1 makes it two bytes a character: the server's 25 MB bundle held 51 MB of heap
 * where it now holds 25, in the server, the worker and each parse worker. (Source maps stay right
 * but on the few lines escaped, whose later columns move.)
 */
const asciiOnly = async (file) => {
  const text = await readFile(file, "utf8")
  if (!/[\u0080-\uffff]/.test(text)) return
  await writeFile(file, text.replace(/[\u0080-\uffff]/g, (unit) => `\\u${unit.charCodeAt(0).toString(16).padStart(4, "0")}`))
}

/** esbuild's options for one of the app bundles, written into `outdir`. */
export const options = (outdir) => ({
  outdir,
  outExtension: { ".js": ".mjs" },
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node24",
  // The "node" condition picks each dependency's Node build (pdfkit, PGlite); "module" prefers ES modules.
  conditions: ["node", "module"],
  mainFields: ["module", "main"],
  external,
  banner: { js: banner },
  define: { __filename: "__quireFilename", __dirname: "__quireDirname" },
  plugins: [inlineCreateRequire, commonJsDynamicImports],
  // Native addons (argon2id's binding for passwords) are copied beside the bundle and loaded from there.
  loader: { ".node": "copy" },
  sourcemap: "linked",
  // Identifiers are not minified, so names survive except where two modules' top-level names
  // collide (esbuild then renames one: `access3`). Effect's spans, errors and schemas carry names of
  // their own (`Effect.fn("Name")`, tags, identifiers), so `keepNames` is off: it wrapped every
  // function esbuild might rename in `__name`, a `defineProperty` each time it is made, closures made
  // per request included (more CPU and memory per request: docs/operations.md). Whitespace and syntax
  // are minified (a third less source held in memory).
  keepNames: false,
  minifyWhitespace: true,
  minifySyntax: true,
  legalComments: "none",
  logLevel: "warning",
  metafile: true
})

/** `asciiOnly` on every bundle (`.mjs`) in `dir`. */
export const asciiOnlyBundles = async (dir) =>
  Promise.all((await readdir(dir)).filter((name) => name.endsWith(".mjs")).map((name) => asciiOnly(join(dir, name))))

/** Bundles `entryPoints` ({ name: file }) into `outdir`, split at dynamic imports, chunks named `<prefix>-[name]-[hash]`; esbuild's result. */
export const bundle = (entryPoints, outdir, prefix) =>
  esbuild.build({ ...options(outdir), entryPoints, splitting: true, chunkNames: `${prefix}-[name]-[hash]` })

const command = async (argv) => {
  const flag = (name) => {
    const at = argv.indexOf(name)
    return at === -1 ? undefined : argv[at + 1]
  }
  const outdir = flag("--outdir")
  const beside = flag("--beside")
  const entries = argv.filter((arg) => /^[\w-]+=/.test(arg))
  if (outdir === undefined || beside === undefined || entries.length === 0) {
    console.error("usage: bundle.mjs --outdir DIR --beside DIST NAME=ENTRY...")
    process.exit(2)
  }
  const entryPoints = Object.fromEntries(entries.map((arg) => [arg.slice(0, arg.indexOf("=")), resolve(arg.slice(arg.indexOf("=") + 1))]))
  await rm(outdir, { recursive: true, force: true })
  await mkdir(outdir, { recursive: true })
  await bundle(entryPoints, resolve(outdir), "own").catch(() => process.exit(1))
  const written = new Set(await readdir(outdir))
  await asciiOnlyBundles(outdir)
  for (const name of await readdir(beside)) {
    if (!written.has(name)) await symlink(resolve(beside, name), join(outdir, name))
  }
}

if (process.argv[1] !== undefined && existsSync(process.argv[1]) && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  await command(process.argv.slice(2))
}
