/**
 * What other workspaces (the benchmark) use of the server: the HTTP application, Node's server
 * around it, the presenters and the public URL. `./test/Harness` is the test harness entry.
 */
export * as Http from "./Http.ts"
export * as NodeServer from "./NodeServer.ts"
export * as Presenters from "./Presenters.ts"
export { PublicUrl } from "./PublicUrl.ts"
