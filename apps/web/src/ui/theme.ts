/** Light, dark, or as the system says (prefers-color-scheme); the choice kept in local storage. */
import { useCallback, useSyncExternalStore } from "react"

export type ThemeChoice = "system" | "light" | "dark"

const key = "quire.theme"
const listeners = new Set<() => void>()

const read = (): ThemeChoice => {
  const stored = window.localStorage.getItem(key)
  return stored === "light" || stored === "dark" ? stored : "system"
}

/** Puts the choice on <html data-theme>; the stylesheet does the rest. */
export const applyTheme = (choice: ThemeChoice = read()) => {
  if (choice === "system") delete document.documentElement.dataset["theme"]
  else document.documentElement.dataset["theme"] = choice
}

/** Whether the page shows dark now. */
export const isDark = (choice: ThemeChoice) =>
  choice === "dark" || (choice === "system" && window.matchMedia("(prefers-color-scheme: dark)").matches)

export const useTheme = () => {
  const choice = useSyncExternalStore((listener) => {
    listeners.add(listener)
    return () => listeners.delete(listener)
  }, read, () => "system" as const)
  const set = useCallback((next: ThemeChoice) => {
    if (next === "system") window.localStorage.removeItem(key)
    else window.localStorage.setItem(key, next)
    applyTheme(next)
    listeners.forEach((listener) => listener())
  }, [])
  const toggle = useCallback(() => set(isDark(read()) ? "light" : "dark"), [set])
  return { choice, dark: isDark(choice), toggle, set }
}
