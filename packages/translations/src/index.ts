/**
 * @quire/translations: domain package of translations: a translated copy of a space kept in step by a pluggable translator. It declares its service interfaces here, with memory and Postgres adapters
 * beside them, and knows nothing of HTTP.
 */
// Nothing to export until its issue (an empty file does not lint).
// oxlint-disable-next-line unicorn/require-module-specifiers
export {}
