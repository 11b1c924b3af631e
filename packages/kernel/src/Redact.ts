/**
 * Removes credentials from what is shown, stored or logged: URLs (`https://***@host/...`) and
 * messages that may quote a URL or echo a secret (git's, a fetch's). Shared by Git sync and specs.
 */

const credentialsInUrl = /([a-z][a-z0-9+.-]*:\/\/)[^/@\s'"]*@/gi

/** `url` without its user and password (`https://user:token@host/x` → `https://***@host/x`); unchanged without them. */
export const url = (text: string): string => text.replace(credentialsInUrl, "$1***@")

/** `url` with its credentials dropped altogether, as git is given it. */
export const withoutCredentials = (text: string): string => {
  if (!URL.canParse(text)) return text.replace(credentialsInUrl, "$1")
  const parsed = new URL(text)
  parsed.username = ""
  parsed.password = ""
  return parsed.href
}

/** `text` with everything but letters, digits and `-._~` percent-encoded, as a URL may carry it. */
const percentEncoded = (text: string): string =>
  encodeURIComponent(text).replace(/[!'()*]/g, (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`)

/**
 * `message` with every URL's credentials and every listed secret (and its percent-encoded form)
 * replaced by `***`. Secrets shorter than 3 characters are left alone: they would mask ordinary words.
 */
export const text = (message: string, secrets: ReadonlyArray<string> = []): string => {
  let redacted = url(message)
  const forms = secrets
    .filter((secret) => secret.length >= 3)
    .flatMap((secret) => [secret, encodeURIComponent(secret), percentEncoded(secret)])
    .toSorted((a, b) => b.length - a.length)
  for (const form of new Set(forms)) redacted = redacted.split(form).join("***")
  return redacted
}
