/**
 * The collaboration server's extensions, one per concern (`apps/server`'s CollabServer composes
 * them and mounts the server on its upgrades): who connects with which role, limits on what
 * connections send, presence, the documents' storage, the write back to the pages' markdown, and
 * the relay between servers.
 */
export { type LiveContext, type Run, runner, type ServerState } from "./Hooks.ts"
export { afterCheck, type AuthenticatedContext, type Authentication, authentication, type AuthenticationOptions, closedBecause } from "./Authentication.ts"
export { type Arrivals, limits } from "./Limits.ts"
export { presence } from "./Presence.ts"
export { persistence, type PersistenceOptions } from "./Persistence.ts"
export { writeBack, type WriteBackOptions } from "./WriteBack.ts"
export { scaling } from "./Scaling.ts"
