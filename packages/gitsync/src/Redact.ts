/** Credentials out of what Git sync shows, stores or logs: the kernel's Redact, shared with specs (source URLs). */
export * from "@quire/kernel/Redact"
