/**
 * Credentials in a spec's source URL (`https://user:token@host/spec.yaml`, `?token=…`): the URL as
 * given is stored sealed, the spec shows it without them (`sourceURL`, versions, errors), and a
 * run fetches with them. Sealing is the platform's (the `SpecSecrets` port: Git sync's SecretBox,
 * one instance key for both); redaction is the kernel's `Redact`, as Git sync's.
 */
import { Context, Option } from "effect"
import { Redact } from "@quire/kernel"
import type { SpecSource } from "./domain/Spec.ts"

/** Seals and opens the credentials of source URLs with the instance's key. */
export class SpecSecrets extends Context.Service<SpecSecrets, {
  readonly seal: (plain: string) => string
  readonly open: (sealed: string) => Option.Option<string>
}>()("@quire/specs/SpecSecrets") {}

/** Query parameters whose value is a credential (`token`, `api_key`, `X-Amz-Signature`, `access_token`, …). */
const secretParameter = /token|key|secret|passw|pwd|sig|auth|credential|session|jwt|^code$/i

/** `url` as shown: no user or password, and `***` for the value of every credential parameter. */
export const shownUrl = (url: string): string => {
  if (!URL.canParse(url)) return Redact.url(url)
  const parsed = new URL(url)
  parsed.username = ""
  parsed.password = ""
  const names = Array.from(new Set(parsed.searchParams.keys())).filter((name) => secretParameter.test(name))
  for (const name of names) parsed.searchParams.set(name, "***")
  return names.length === 0 && parsed.href === new URL(url).href ? url : parsed.href
}

/** The credentials `url` carries: user, password and credential parameters' values (as given and decoded). */
export const secretsIn = (url: string): ReadonlyArray<string> => {
  if (!URL.canParse(url)) return []
  const parsed = new URL(url)
  const raw = [parsed.username, parsed.password, ...Array.from(parsed.searchParams).flatMap(([name, value]) => (secretParameter.test(name) ? [value] : []))]
  const decoded = raw.map((value) => {
    try {
      return decodeURIComponent(value)
    } catch {
      return value
    }
  })
  return [...raw, ...decoded].filter((value) => value !== "")
}

/** The source as stored: a URL with credentials keeps them only sealed. */
export const seal = (secrets: SpecSecrets["Service"], source: SpecSource): SpecSource => {
  if (!("url" in source)) return source
  const shown = shownUrl(source.url)
  return shown === source.url ? { url: source.url } : { url: shown, sealedUrl: secrets.seal(source.url) }
}

/** The URL a run fetches (credentials included), or none when the sealed one cannot be opened (the instance key changed). */
export const fetchUrl = (secrets: SpecSecrets["Service"], source: { readonly url: string; readonly sealedUrl?: string }): Option.Option<string> =>
  source.sealedUrl === undefined ? Option.some(source.url) : secrets.open(source.sealedUrl)

/** `message` without the credentials of `url`. */
export const redact = (message: string, url: string): string => Redact.text(message.split(url).join(shownUrl(url)), secretsIn(url))
