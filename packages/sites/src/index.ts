/**
 * @quire/sites: domain package, wired into the workspace and ready for its issue. It declares its
 * service interfaces here, with memory and Postgres adapters beside them, and knows nothing of HTTP.
 */
// Nothing to export until its issue (an empty file does not lint).
// oxlint-disable-next-line unicorn/require-module-specifiers
export {}
