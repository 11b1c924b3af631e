import react from "@vitejs/plugin-react"
import { fileURLToPath } from "node:url"
import { defineConfig } from "vite"

const serverOnly = (file: string) => fileURLToPath(new URL(`./src/server-only/${file}`, import.meta.url))

// The app's assets get hashed names under /app/assets/ (long-cached); index.html is served uncached
// by the server (apps/server/src/WebApp.ts). The API contract's domain modules reach server-only
// code (node:crypto, the kernel's signed tokens, run as they load): stubs take their place here.
export default defineConfig({
  plugins: [react()],
  base: "/app/",
  resolve: {
    alias: [
      { find: "node:crypto", replacement: serverOnly("node-crypto.ts") },
      { find: /^\.\/SignedToken\.ts$/, replacement: serverOnly("SignedToken.ts") }
    ]
  },
  build: { outDir: "dist", assetsDir: "assets", sourcemap: true, chunkSizeWarningLimit: 800 }
})
