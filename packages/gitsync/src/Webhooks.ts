/**
 * Push webhooks of GitHub (`X-Hub-Signature-256`: HMAC-SHA256 of the body) and GitLab
 * (`X-Gitlab-Token`: the secret itself): verification and what a delivery says.
 */
import { createHash, createHmac } from "node:crypto"
import { sameSecret } from "@quire/kernel"
import type { WebhookRequest } from "./domain/GitSyncInfo.ts"

/**
 * What a verified delivery says: a push of `ref` to `commit`, or another event. `deliveryKeys`
 * name the delivery, so a replay can be recognised: its body's SHA-256 (what GitHub signs) and the
 * host's delivery id (`X-GitHub-Delivery`, GitLab's `X-Gitlab-Event-UUID`), which the signature
 * does not cover.
 */
export type WebhookEvent =
  | {
    readonly kind: "push"
    readonly provider: "github" | "gitlab"
    readonly deliveryKeys: ReadonlyArray<string>
    readonly ref: string
    /** The branch's new head; null when the push deleted the branch. */
    readonly commit: string | null
    readonly message: string | undefined
    readonly timestamp: Date | undefined
  }
  | { readonly kind: "other"; readonly provider: "github" | "gitlab"; readonly deliveryKeys: ReadonlyArray<string>; readonly event: string }

/** Why a delivery is refused: no signature, a wrong one, or a body that is not a webhook's. */
export type WebhookRefusal = { readonly refused: "unsigned" | "bad-signature" | "malformed"; readonly reason: string }

const header = (request: WebhookRequest, name: string): string | undefined => {
  for (const [key, value] of Object.entries(request.headers)) {
    if (key.toLowerCase() !== name) continue
    return typeof value === "string" ? value : value?.[0]
  }
  return undefined
}

/** GitHub's signature header of `body` under `secret`: `sha256=<hex>`. */
export const githubSignature = (secret: string, body: Uint8Array): string =>
  `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`

const asRecord = (value: unknown): Record<string, unknown> | undefined =>
  typeof value === "object" && value !== null && !Array.isArray(value) ? value as Record<string, unknown> : undefined

const text = (value: unknown): string | undefined => typeof value === "string" ? value : undefined

const instant = (value: unknown): Date | undefined => {
  const s = text(value)
  if (s === undefined) return undefined
  const date = new Date(s)
  return Number.isNaN(date.getTime()) ? undefined : date
}

const zeroCommit = /^0+$/

/** Verifies `request` against `secret` and reads it; a refusal when it is unsigned, wrongly signed or malformed. */
export const read = (secret: string, request: WebhookRequest): WebhookEvent | WebhookRefusal => {
  const hub = header(request, "x-hub-signature-256")
  const gitlab = header(request, "x-gitlab-token")
  let provider: "github" | "gitlab"
  if (hub !== undefined) {
    if (!sameSecret(hub, githubSignature(secret, request.body))) return { refused: "bad-signature", reason: "X-Hub-Signature-256 does not match the body" }
    provider = "github"
  } else if (gitlab !== undefined) {
    if (!sameSecret(gitlab, secret)) return { refused: "bad-signature", reason: "X-Gitlab-Token is not the space's webhook secret" }
    provider = "gitlab"
  } else {
    return { refused: "unsigned", reason: "the delivery carries neither X-Hub-Signature-256 nor X-Gitlab-Token" }
  }
  const event = provider === "github" ? header(request, "x-github-event") ?? "" : header(request, "x-gitlab-event") ?? ""
  const deliveryId = provider === "github" ? header(request, "x-github-delivery") : header(request, "x-gitlab-event-uuid")
  const deliveryKeys = [
    `sha256:${createHash("sha256").update(request.body).digest("hex")}`,
    ...(deliveryId === undefined || deliveryId === "" ? [] : [`${provider}:${deliveryId.slice(0, 200)}`])
  ]
  let body: Record<string, unknown> | undefined
  try {
    body = asRecord(JSON.parse(new TextDecoder().decode(request.body)))
  } catch {
    body = undefined
  }
  if (body === undefined) return { refused: "malformed", reason: "the body is not a JSON object" }
  const isPush = provider === "github" ? event === "push" : event === "Push Hook" || body.object_kind === "push"
  if (!isPush) return { kind: "other", provider, deliveryKeys, event: event === "" ? String(body.object_kind ?? "unknown") : event }
  const ref = text(body.ref)
  if (ref === undefined) return { refused: "malformed", reason: "a push event without a ref" }
  const after = text(body.after)
  const commit = after === undefined || zeroCommit.test(after) || body.deleted === true ? null : after
  let head: Record<string, unknown> | undefined
  if (provider === "github") head = asRecord(body.head_commit)
  else {
    const commits = Array.isArray(body.commits) ? body.commits.map(asRecord) : []
    head = commits.find((c) => c !== undefined && c.id === commit) ?? commits.at(-1)
  }
  return { kind: "push", provider, deliveryKeys, ref, commit, message: text(head?.message), timestamp: instant(head?.timestamp) }
}
