/**
 * @quire/live: live editing's shared documents, the part that needs no HTTP server: the codec
 * between a page's markdown and its Yjs document (`CollabCodec`), what an update must fit before it
 * is stored (`CollabUpdateCheck`), the documents' loading, storing and write back over reviews'
 * LiveDocuments (`CollabDocuments`), presence (`CollabPresence`), writes made elsewhere
 * (`CollabElsewhere`) and reviews' StoredLiveMarkdown port on the codec (`CollabStoredMarkdown`);
 * the collaboration server's extensions (`extensions`), and the port that says who a connection
 * is (`CollabCallers`), which the server implements from its session cookie. `apps/server` mounts
 * the collaboration server on its upgrades.
 *
 * Each is its own entry (`@quire/live/CollabCodec`, …): Yjs and the editor's schema load only
 * where a module asks for them, so that a server starts without them. The root holds only what
 * every composition needs at start: the StoredLiveMarkdown layer, which loads the codec on first use.
 */
export * as CollabStoredMarkdown from "./CollabStoredMarkdown.ts"
