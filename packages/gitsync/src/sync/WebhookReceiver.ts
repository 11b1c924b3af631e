/** Push webhooks: a verified push to the space's branch, not seen before and not our own export, queues an import. */
import { Effect, Option } from "effect"
import { Errors } from "@quire/kernel"
import type { WebhookRequest } from "../domain/GitSyncInfo.ts"
import { type ImportJob, importTask } from "../SyncJobs.ts"
import * as Webhooks from "../Webhooks.ts"
import type { SyncDeps } from "./SyncDeps.ts"
import { debounceKey } from "./SyncRecords.ts"

export const webhookReceiver = (deps: SyncDeps) => {
  const { repo, box, queue, now, debounce, deliveryWindow } = deps

  const refused = new Errors.Forbidden({ reason: "This webhook delivery is not signed with the space's Git webhook secret" })

  const receiveWebhook = Effect.fn("GitSync.receiveWebhook")(function*(spaceId: string, request: WebhookRequest) {
    const found = yield* repo.find(spaceId)
    if (Option.isNone(found) || !found.value.connected || found.value.webhookSecret === null || found.value.actorId === null) return yield* refused
    const record = found.value
    const secret = box.open(record.webhookSecret ?? "")
    if (Option.isNone(secret)) return yield* refused
    const event = Webhooks.read(secret.value, request)
    if ("refused" in event) {
      return yield* event.refused === "malformed" ? new Errors.InvalidInput({ field: "body", reason: event.reason }) : refused
    }
    const at = yield* now
    const first = yield* repo.recordDelivery(spaceId, event.deliveryKeys, at, new Date(at.getTime() - deliveryWindow))
    if (!first) return { queued: false, reason: "ignored: this delivery was already received" }
    if (event.kind === "other") return { queued: false, reason: `ignored: a ${event.event} event, not a push` }
    if (event.ref !== record.ref) return { queued: false, reason: `ignored: a push to ${event.ref}, not ${record.ref}` }
    if (event.commit === null) return { queued: false, reason: `ignored: ${event.ref} was deleted` }
    if (event.commit === record.exportedCommit) return { queued: false, reason: `ignored: ${event.commit} is Quire's own export` }
    const job: ImportJob = {
      spaceId,
      actorId: record.actorId ?? "",
      url: null,
      ref: record.ref,
      projectDirectory: record.projectDirectory,
      standalone: false,
      force: false,
      // When the push arrived, not the commit's date: an old commit pushed now is news.
      timestamp: at.toISOString(),
      trigger: "webhook",
      ...(event.message === undefined ? {} : { message: event.message })
    }
    yield* repo.updateRun(spaceId, { kind: "import", run: { status: "pending", commit: null, at, error: null } })
    yield* queue.enqueue(importTask, job, { jobKey: debounceKey(importTask, spaceId), runAt: new Date(at.getTime() + debounce) })
    return { queued: true, reason: `import of ${event.commit} queued` }
  })

  return { receiveWebhook }
}
