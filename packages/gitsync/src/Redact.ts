/** Credentials out of what Git sync shows, stores or logs: the kernel's Redact, shared with specs (source URLs). */
import { Redact } from "@quire/kernel"

export const { text, url, withoutCredentials } = Redact
