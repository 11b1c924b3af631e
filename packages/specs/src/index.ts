/**
 * @quire/specs: domain package of OpenAPI specifications: versions, processing, publishing. It declares its service interfaces here, with memory and Postgres adapters
 * beside them, and knows nothing of HTTP.
 */
// Nothing to export until its issue (an empty file does not lint).
// oxlint-disable-next-line unicorn/require-module-specifiers
export {}
