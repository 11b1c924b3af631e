/** What MCP tools share: their shape, their arguments' checks, their answers, and the server that lists and runs them. */
import { Server } from "@modelcontextprotocol/sdk/server/index.js"
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js"

/** What a tool answers: text for the model, and the API's JSON where it is a record. */
export interface ToolResult {
  readonly [key: string]: unknown
  readonly content: Array<{ readonly type: "text"; readonly text: string }>
  readonly structuredContent?: Record<string, unknown>
  readonly isError?: boolean
}

export interface Tool {
  readonly name: string
  readonly title: string
  readonly description: string
  readonly inputSchema: { readonly type: "object"; readonly properties: Record<string, unknown>; readonly required?: ReadonlyArray<string> }
  readonly run: (args: Record<string, unknown>) => Promise<ToolResult>
}

/** A refusal of the arguments or of the API, as a tool error the model can act on. */
export class ToolError extends Error {}

export const failure = (message: string): ToolResult => ({ content: [{ type: "text", text: message }], isError: true })

export const id = { type: "string", minLength: 1, maxLength: 128 }
export const str = (description: string, maxLength = 512) => ({ type: "string", minLength: 1, maxLength, description })

/** The string argument `name`, or undefined when optional and absent. */
export const arg = (args: Record<string, unknown>, name: string, optional = false): string | undefined => {
  const value = args[name]
  if (value === undefined && optional) return undefined
  if (typeof value !== "string" || value.length === 0) throw new ToolError(`${name}: a non-empty string is required`)
  return value
}
export const required = (args: Record<string, unknown>, name: string): string => arg(args, name)!

export const text = (body: string, structured?: Record<string, unknown>): ToolResult => ({
  content: [{ type: "text", text: body }],
  ...(structured === undefined ? {} : { structuredContent: structured })
})

/** Tools whose ToolError is their answer, marked as an error. */
export const guarded = (tools: ReadonlyArray<Tool>): ReadonlyArray<Tool> =>
  tools.map((tool) => ({
    ...tool,
    run: async (args) => {
      try {
        return await tool.run(args)
      } catch (error) {
        if (error instanceof ToolError) return failure(error.message)
        throw error
      }
    }
  }))

/** A server offering `tools` (listed in order, each run with its arguments). */
export const toolServer = (info: { readonly name: string; readonly version: string }, instructions: string, tools: ReadonlyArray<Tool>): Server => {
  const server = new Server(info, { capabilities: { tools: {} }, instructions })
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: tools.map(({ description, inputSchema, name, title }) => ({ name, title, description, inputSchema }))
  }))
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const tool = tools.find((candidate) => candidate.name === request.params.name)
    if (tool === undefined) return failure(`There is no tool named ${request.params.name}`)
    return tool.run(request.params.arguments ?? {})
  })
  return server
}
