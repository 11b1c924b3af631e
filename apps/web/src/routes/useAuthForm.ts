/** A sign-in form's submission: busy while the server answers, its refusal placed on the field it names. */
import { useState } from "react"
import { AuthError, fieldError } from "../api/auth.ts"

export interface FormErrors {
  readonly fields: Readonly<Record<string, string>>
  readonly form: string | undefined
}

const none: FormErrors = { fields: {}, form: undefined }

/** The words shown for a refusal, on its field when it names one of `fields`. */
export const errorsOf = (error: unknown, fields: ReadonlyArray<string>, placeUnnamed?: (message: string, status: number) => string | undefined): FormErrors => {
  if (!(error instanceof AuthError)) return { fields: {}, form: "The server could not be reached. Check your connection and try again." }
  if (error.status === 429) {
    const wait = error.retryAfterSeconds
    return { fields: {}, form: `Too many attempts. Try again ${wait === undefined ? "later" : `in ${wait < 120 ? `${wait} seconds` : `${Math.ceil(wait / 60)} minutes`}`}.` }
  }
  const { field, text } = fieldError(error.message, fields)
  const placed = field ?? placeUnnamed?.(text, error.status)
  return placed === undefined ? { fields: {}, form: text } : { fields: { [placed]: text }, form: undefined }
}

export const useAuthForm = (fields: ReadonlyArray<string>, placeUnnamed?: (message: string, status: number) => string | undefined) => {
  const [busy, setBusy] = useState(false)
  const [errors, setErrors] = useState<FormErrors>(none)
  const submit = async (run: () => Promise<void>) => {
    setBusy(true)
    setErrors(none)
    try {
      await run()
    } catch (error) {
      setErrors(errorsOf(error, fields, placeUnnamed))
    } finally {
      setBusy(false)
    }
  }
  return { busy, errors, submit }
}
