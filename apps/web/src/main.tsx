/** The browser app's entry: the theme before the first paint, the one atom registry, the app. */
import { AtomRegistry } from "effect/reactivity"
import { StrictMode } from "react"
import { createRoot } from "react-dom/client"
import { App } from "./App.tsx"
import { RegistryProvider } from "./api/react.ts"
import { applyTheme } from "./ui/theme.ts"
import "./ui/tokens.css"
import "./ui/app.css"

applyTheme()
const registry = AtomRegistry.make()

// An error a screen's boundary caught is shown to the person by that boundary (ui/RouteBoundary.tsx);
// it is logged as a warning, with where it happened, not as a second, unhandled error.
const onCaughtError = (error: unknown, info: { readonly componentStack?: string | undefined }) =>
  console.warn("A screen could not be shown:", error, info.componentStack ?? "")

createRoot(document.getElementById("root")!, { onCaughtError }).render(
  <StrictMode>
    <RegistryProvider registry={registry}>
      <App />
    </RegistryProvider>
  </StrictMode>
)
