/** The little of oidc-provider (which ships no types) that the test provider uses. */
declare module "oidc-provider" {
  import type { IncomingMessage, ServerResponse } from "node:http"

  interface Interaction {
    readonly uid: string
    readonly params: Record<string, unknown>
  }

  class Grant {
    constructor(options: { accountId: string; clientId: string })
    addOIDCScope(scope: string): void
    save(): Promise<string>
  }

  export default class Provider {
    constructor(issuer: string, configuration: Record<string, unknown>)
    readonly Grant: typeof Grant
    callback(): (req: IncomingMessage, res: ServerResponse) => void
    interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<Interaction>
    interactionFinished(req: IncomingMessage, res: ServerResponse, result: Record<string, unknown>, options?: { mergeWithLastSubmission?: boolean }): Promise<void>
  }
}
