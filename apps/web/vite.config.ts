import react from "@vitejs/plugin-react"
import { defineConfig } from "vite"

// The app's assets get hashed names under /app/assets/ (long-cached); index.html is served uncached by the server.
export default defineConfig({
  plugins: [react()],
  base: "/app/",
  build: { outDir: "dist", assetsDir: "assets", sourcemap: true }
})
