/**
 * Loaded into a built server by `node --import` (NODE_OPTIONS, Servers.ts): answers the bench's
 * profiling messages, as QuireServer.ts does for the sources. Node strips its types itself, so the
 * built server needs no loader.
 */
import * as Profiling from "./Profiling.ts"

Profiling.listen()
