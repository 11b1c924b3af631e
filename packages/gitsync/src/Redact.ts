/**
 * Removes credentials from what Git sync shows, stores or logs: URLs (`https://***@host/...`) and
 * git's own messages, which may quote a URL or echo a secret.
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

/**
 * `message` with every URL's credentials and every listed secret (and its percent-encoded form)
 * replaced by `***`. Secrets shorter than 3 characters are left alone: they would mask ordinary words.
 */
export const text = (message: string, secrets: ReadonlyArray<string> = []): string => {
  let redacted = url(message)
  for (const secret of secrets) {
    if (secret.length < 3) continue
    for (const form of new Set([secret, encodeURIComponent(secret)])) {
      redacted = redacted.split(form).join("***")
    }
  }
  return redacted
}
