import react from "@vitejs/plugin-react"
import { readdirSync, readFileSync, writeFileSync } from "node:fs"
import { join, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import { brotliCompressSync, constants, gzipSync } from "node:zlib"
import { defineConfig, type Plugin } from "vite"

const serverOnly = (file: string) => fileURLToPath(new URL(`./src/server-only/${file}`, import.meta.url))

/**
 * Beside each script and stylesheet of the built assets, its brotli (`.br`) and gzip (`.gz`) forms,
 * made once here: the server answers them to browsers that accept them (apps/server/src/WebApp.ts).
 */
const precompress = (): Plugin => {
  let assets = ""
  return {
    name: "quire:precompress",
    apply: "build",
    // The output directory as built (`--outDir` gives one of its own to each parallel build).
    configResolved(config) {
      assets = resolve(config.root, config.build.outDir, config.build.assetsDir)
    },
    closeBundle() {
      for (const name of readdirSync(assets).filter((file) => /\.(?:js|css|svg)$/.test(file))) {
        const bytes = readFileSync(join(assets, name))
        writeFileSync(join(assets, `${name}.br`), brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }))
        writeFileSync(join(assets, `${name}.gz`), gzipSync(bytes, { level: 9 }))
      }
    }
  }
}

// The app's assets get hashed names under /app/assets/ (long-cached); index.html is served uncached
// by the server (apps/server/src/WebApp.ts). The API contract's domain modules reach server-only
// code (node:crypto, the kernel's signed tokens, run as they load): stubs take their place here.
export default defineConfig({
  plugins: [react(), precompress()],
  base: "/app/",
  resolve: {
    alias: [
      { find: "node:crypto", replacement: serverOnly("node-crypto.ts") },
      { find: /^\.\/SignedToken\.ts$/, replacement: serverOnly("SignedToken.ts") }
    ]
  },
  build: { outDir: "dist", assetsDir: "assets", sourcemap: true, chunkSizeWarningLimit: 800 }
})
