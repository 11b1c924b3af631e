/** The browser app's entry: the theme before the first paint, the one atom registry, the app. */
import { AtomRegistry } from "effect/reactivity"
import { StrictMode } from "react"
import { createRoot } from "react-dom/client"
import { App } from "./App.tsx"
import { RegistryProvider } from "./api/react.ts"
import { applyTheme } from "./ui/theme.ts"
import "./ui/app.css"

applyTheme()
const registry = AtomRegistry.make()

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <RegistryProvider registry={registry}>
      <App />
    </RegistryProvider>
  </StrictMode>
)
