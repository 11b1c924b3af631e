/**
 * The editor harness (index.html + main.tsx) built by Vite into its own folder and served by a small static
 * server: the real Editor in a real page, without the app or its server. Test-only.
 */
import react from "@vitejs/plugin-react"
import { readFile } from "node:fs/promises"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { extname, join, normalize } from "node:path"
import { fileURLToPath } from "node:url"
import { build } from "vite"

const root = fileURLToPath(new URL(".", import.meta.url))
const serverOnly = (file: string) => fileURLToPath(new URL(`../../src/server-only/${file}`, import.meta.url))
export const harnessDir = fileURLToPath(new URL("../../dist-source/", import.meta.url))

/** Builds the harness into dist-source (the same aliases as the app's build, none of its output plugins). */
export const buildHarness = async (): Promise<void> => {
  await build({
    configFile: false,
    root,
    base: "/",
    logLevel: "warn",
    plugins: [react()],
    resolve: {
      alias: [
        { find: "node:crypto", replacement: serverOnly("node-crypto.ts") },
        { find: /^\.\/SignedToken\.ts$/, replacement: serverOnly("SignedToken.ts") }
      ]
    },
    build: { outDir: harnessDir, emptyOutDir: true, sourcemap: false, chunkSizeWarningLimit: 4000 }
  })
}

const TYPES: Record<string, string> = { ".html": "text/html", ".js": "text/javascript", ".css": "text/css", ".svg": "image/svg+xml" }

export interface Served {
  readonly url: string
  readonly close: () => Promise<void>
}

/** The published site's stylesheet of page bodies, as the app server answers `/app/render.css` (apps/server/src/RenderCss.ts). */
const renderCss = async (): Promise<string> => {
  // Loaded by path at run time: the web app does not depend on @quire/sites, and its type check stays out of it.
  const module = fileURLToPath(new URL("../../../../packages/sites/src/render/PageBody.ts", import.meta.url))
  const { pageBodyStylesheet } = (await import(/* @vite-ignore */ module)) as { pageBodyStylesheet: (asset: (name: string) => string) => string }
  return pageBodyStylesheet((name) => `/app/render/${name}`)
}

/**
 * Serves the built harness and the site's `/app/render.css`. Anything else a page asks for (its images, fonts)
 * answers empty: the round trip is about the text.
 */
export const serveHarness = async (): Promise<Served> => {
  const css = await renderCss()
  const server: Server = createServer((request, response) => {
    const path = new URL(request.url ?? "/", "http://x").pathname
    if (path === "/app/render.css") return void response.writeHead(200, { "content-type": "text/css" }).end(css)
    const file = normalize(join(harnessDir, path === "/" ? "index.html" : path))
    if (!file.startsWith(harnessDir)) return void response.writeHead(404).end()
    readFile(file).then(
      (bytes) => response.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream" }).end(bytes),
      () => response.writeHead(204).end()
    )
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as AddressInfo
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) }
}
