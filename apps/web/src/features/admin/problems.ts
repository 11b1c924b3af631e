/**
 * The administration screens' words: roles as people say them, expiry choices, and an API
 * refusal placed on the field it names (`title: …`, `emails[0]: …`, or the client's own schema
 * check) in plain words. Pure, so Node tests it.
 */
import { refusalOf } from "../../ui/refusal.ts"

/** The roles of an organization, highest first (packages/kernel Roles), and `guest` for none. */
export const roles = ["admin", "create", "review", "edit", "comment", "read"] as const
export type Role = (typeof roles)[number]

const roleNames: Readonly<Record<Role | "guest", string>> = {
  admin: "Administrator",
  create: "Creator",
  review: "Reviewer",
  edit: "Editor",
  comment: "Commenter",
  read: "Reader",
  guest: "Guest"
}

const roleHints: Readonly<Record<Role | "guest", string>> = {
  admin: "manages the organization, its people and all content",
  create: "creates spaces and collections, and edits",
  review: "reviews and merges change requests",
  edit: "edits content through change requests",
  comment: "reads and comments",
  read: "reads content",
  guest: "sees only what is shared with them"
}

/** A role's name: `null` (a guest, no organization role) included. */
export const roleName = (role: string | null | undefined): string =>
  role === null || role === undefined ? roleNames.guest : roleNames[role as Role] ?? role

export const roleHint = (role: Role | "guest"): string => roleHints[role]

/** A `<select>` value of a role and back (`guest` stands for null). */
export const roleValue = (role: Role | null): Role | "guest" => role ?? "guest"
export const roleOfValue = (value: string): Role | null => (roles as ReadonlyArray<string>).includes(value) ? value as Role : null

/** How long an invite link or a token lasts: the choices, in days (`never`: no expiry). */
export const expiryChoices = [
  { value: "1", label: "1 day" },
  { value: "7", label: "7 days" },
  { value: "30", label: "30 days" },
  { value: "90", label: "90 days" },
  { value: "never", label: "Never" }
] as const

/** The instant an expiry choice ends, from `now` (ISO, as the API's DateTime takes it); undefined: never. */
export const expiresAtOf = (choice: string, now: Date): string | undefined => {
  const days = Number(choice)
  return choice === "never" || !Number.isFinite(days) ? undefined : new Date(now.getTime() + days * 86_400_000).toISOString()
}

/** An email address as the API accepts it. */
export const isEmail = (text: string) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(text)

/** The addresses of an "emails" box: split on commas, semicolons, spaces and lines, without repeats. */
export const emailsOf = (text: string): ReadonlyArray<string> =>
  Array.from(new Set(text.split(/[\s,;]+/).map((part) => part.trim()).filter((part) => part !== "")))

/** A domain name as the API accepts it (two labels or more: `acme.com`). */
export const isDomain = (text: string) => /^([a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?[.])+[a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?$/.test(text)

/** Email domains of a settings box (one per line or comma-separated), lower-cased, without repeats. */
export const domainsOf = (text: string): ReadonlyArray<string> =>
  Array.from(new Set(text.split(/[\s,;]+/).map((part) => part.trim().toLowerCase().replace(/^@/, "")).filter((part) => part !== "")))

export interface FormErrors {
  readonly fields: Readonly<Record<string, string>>
  readonly form: string | undefined
}

export const noErrors: FormErrors = { fields: {}, form: undefined }

const capital = (text: string) => text.charAt(0).toUpperCase() + text.slice(1)

/** Schema's words, as a person would say them. */
const plain = (text: string): string =>
  text
    .replace(/^Expected a value with a length of at least (\d+).*$/s, "Must be at least $1 characters long.")
    .replace(/^Expected a value with a length of at most (\d+).*$/s, "Must be at most $1 characters long.")
    .replace(/^Expected a string matching the (regular expression|pattern) .*$/s, "Is not in the expected form.")

/**
 * The words shown for a failed call: on the field it names when that is one of `fields`
 * (`emails[0]: …` is `emails`'s), else the form's. `placeUnnamed` may place a message naming no field.
 */
export const problemOf = (error: unknown, fields: ReadonlyArray<string>, placeUnnamed?: (message: string) => string | undefined): FormErrors => {
  const refusal = refusalOf(error)
  if (refusal === undefined) return { fields: {}, form: "The server could not be reached. Check your connection and try again." }
  const named = refusal.field === undefined ? undefined : /^[A-Za-z_$][\w$]*/.exec(refusal.field)?.[0]
  if (named !== undefined && fields.includes(named)) return { fields: { [named]: capital(plain(refusal.message)) }, form: undefined }
  // A field this form does not show: its words without the path.
  const words = refusal.message
  const text = refusal.status === 403 ? `Not allowed. ${capital(words)}.`.replace(/\.\.$/, ".") : refusal.status === 404 ? "This no longer exists, or you cannot see it. Reload the page." : capital(plain(words))
  const placed = placeUnnamed?.(words)
  return placed === undefined ? { fields: {}, form: text } : { fields: { [placed]: text }, form: undefined }
}
