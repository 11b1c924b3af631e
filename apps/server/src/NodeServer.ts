/** Node's HTTP server for the application, with published pages answered before it (FastPages). */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http"
import * as FastPages from "./FastPages.ts"

/**
 * Node's HTTP server. A request FastPages answers never reaches the application's listener.
 * Each connection is closed once its response is sent after the server stopped listening: a
 * keep-alive client then does not hold the shutdown open until the timeout.
 */
export const create = (): Server => {
  const server = createServer()
  const closeAfter = (request: IncomingMessage, response: ServerResponse) =>
    response.once("finish", () => {
      if (!server.listening) request.socket.end()
    })
  const emit = server.emit
  server.emit = function(this: Server, event: string | symbol, ...args: Array<any>): boolean {
    if (event === "request" && FastPages.serve(args[0] as IncomingMessage, args[1] as ServerResponse)) {
      closeAfter(args[0], args[1])
      return true
    }
    return Reflect.apply(emit, this, [event, ...args]) as boolean
  } as Server["emit"]
  server.on("request", closeAfter)
  return server
}
