/** How the review screen runs a request from a button: busy while it runs, its failure in plain words. */
import { useState } from "react"
import { refusalOf } from "../../ui/refusal.ts"

export const errorText = (error: unknown): string => {
  // The server's refusal in its own words (the API's error envelope), where there is one.
  const refusal = refusalOf(error)
  if (refusal !== undefined && refusal.message !== "") return refusal.message
  if (typeof error === "object" && error !== null && "message" in error && typeof error.message === "string" && error.message !== "") return error.message
  return "That did not work. Try again."
}

/** An action of the review screen: whether it runs, and what went wrong in words, shown next to its button. */
export const useAction = () => {
  const [error, setError] = useState<string | undefined>()
  const [busy, setBusy] = useState(false)
  const run = async (f: () => Promise<unknown>) => {
    setBusy(true)
    setError(undefined)
    try {
      await f()
    } catch (e) {
      setError(errorText(e))
    } finally {
      setBusy(false)
    }
  }
  return { error, busy, run }
}
