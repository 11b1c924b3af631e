/**
 * The organization's agent making an edit a member asks for ("fix the typo in the Backups page of
 * the Runbook"), as GitBook's organization agent attaches a change request: the model picks one of
 * the spaces the member may edit and says what to change; the change request is opened there as
 * the member, and the change request's agent (ChangeRequestAgent, its page tools and write path,
 * "Agent (for Ada)") writes it with the member's rights. A member who may edit no space gets a
 * refusal in words. The audit log records the edit on the member's behalf.
 */
import { AuditLog, caller as auditCaller } from "@quire/audit"
import { Context, Effect, Layer, Option, Schema } from "effect"
import { Tool, Toolkit } from "effect/ai"
import { Spaces } from "@quire/content"
import { Actor } from "@quire/kernel"
import { ChangeRequests } from "../ChangeRequests.ts"
import { maxSubjectLength } from "../domain/ChangeRequest.ts"
import { runTools } from "./AgentTasks.ts"
import { AgentInstructions, AgentModel, ChangeRequestAgent } from "./ChangeRequestAgent.ts"

/** The change request an edit was made in. */
export interface EditedChangeRequest {
  readonly spaceId: string
  readonly changeRequestId: string
  readonly number: number
  readonly subject: string
}

/** What the organization's agent answers to a request for an edit. */
export interface EditOutcome {
  readonly text: string
  readonly byModel: boolean
  readonly changeRequest?: EditedChangeRequest | undefined
}

/** Words that open a request to change content rather than a question. */
const editWords = /^(please\s+|can you\s+|could you\s+)?(fix|correct|edit|change|update|rewrite|reword|rephrase|add|insert|remove|delete|replace|rename|write|draft)\b/i

/** Whether a member's message asks for an edit (else it is a question for Ask). */
export const asksForEdit = (text: string) => editWords.test(text.trim())

/** What a member who may edit none of the organization's spaces is told. */
export const cannotEdit =
  "I can only make changes you could make yourself, and your role lets you read this organization's spaces but not edit any of them, so I have changed nothing. " +
  "Ask someone who may edit the space, or an admin for the editor role."

const EditSpace = Tool.make("editSpace", {
  description:
    "Opens a change request in one of the spaces listed and has the change request's agent make the edit there (it reads and writes the pages). " +
    "Give the space's id, a short subject for the change request, and the instructions: which page and what to change, in full.",
  parameters: Schema.Struct({ spaceId: Schema.String, subject: Schema.String, instructions: Schema.String }),
  success: Schema.String,
  failure: Schema.String,
  failureMode: "return"
})
const editTools = Toolkit.make(EditSpace)

/** The app's address of a change request, as the answer links it. */
export const changeRequestPath = (cr: EditedChangeRequest) => `/s/${cr.spaceId}/~/changes/${cr.number}`

export interface OrganizationEditsShape {
  /**
   * The answer to a member's request for an edit, when there is a model: none when the message is
   * not one (or the model answers without trying to edit), so that Ask answers it.
   */
  readonly edit: (organizationId: string, logId: string, text: string) => Effect.Effect<Option.Option<EditOutcome>, { readonly kind: "ModelFailed"; readonly message: string }, Actor.Actor>
}

export class OrganizationEdits extends Context.Service<OrganizationEdits, OrganizationEditsShape>()("@quire/reviews/OrganizationEdits") {
  static readonly layer = Layer.effect(
    OrganizationEdits,
    Effect.gen(function*() {
      const { model } = yield* AgentModel
      const spaces = yield* Spaces
      const changeRequests = yield* ChangeRequests
      const agent = yield* ChangeRequestAgent
      const audit = yield* AuditLog
      const guidance = yield* AgentInstructions

      const edit = Effect.fn("OrganizationEdits.edit")(function*(organizationId: string, logId: string, text: string) {
        if (!asksForEdit(text) || Option.isNone(model)) return Option.none<EditOutcome>()
        const actor = yield* Actor.Actor
        const listed = yield* spaces.list(organizationId, { limit: 100 }).pipe(Effect.orElseSucceed(() => ({ items: [] as const })))
        const editable = new Map(listed.items.filter((s) => s.permissions.edit).map((s) => [s.space.id, s.space.title] as const))
        if (editable.size === 0) return Option.some<EditOutcome>({ text: cannotEdit, byModel: false })

        const asPerson = <A, E>(effect: Effect.Effect<A, E, Actor.Actor>) => Effect.provideService(effect, Actor.Actor, actor)
        let attempted = false
        let made: { readonly cr: EditedChangeRequest; readonly edits: number } | undefined
        const handlers = editTools.toLayer({
          editSpace: ({ spaceId, subject, instructions }) =>
            Effect.gen(function*() {
              attempted = true
              const title = editable.get(spaceId)
              if (title === undefined) return yield* Effect.fail(`The space ${spaceId} is not one this member may edit: pick one of those listed, or say you cannot`)
              if (made !== undefined) return yield* Effect.fail("One change request a message: the edit was made already")
              const s = subject.trim().replace(/\s+/g, " ").slice(0, maxSubjectLength) || "Edit asked of the agent"
              const created = yield* asPerson(changeRequests.create(spaceId, { subject: s })).pipe(Effect.mapError((e) => `Could not open a change request: ${"reason" in e ? e.reason : e.message}`))
              const cr: EditedChangeRequest = { spaceId, changeRequestId: created.changeRequest.id, number: created.changeRequest.number, subject: s }
              const sent = yield* asPerson(agent.send(spaceId, cr.changeRequestId, "organization", instructions)).pipe(
                Effect.mapError((e) => `Change request #${cr.number} was opened, but its agent could not edit: ${"reason" in e ? String(e.reason) : e.message}`)
              )
              const edits = sent.reply.edits ?? []
              made = { cr, edits: edits.length }
              yield* audit.record({
                organizationId,
                action: "organization.agent-edited",
                actor: yield* asPerson(auditCaller),
                target: { type: "change-request", id: cr.changeRequestId, label: `#${cr.number} ${s}` },
                payload: { spaceId, number: cr.number, pages: edits.length, agent: "organization-agent" }
              })
              return `Opened change request #${cr.number} "${s}" in ${title}; ` +
                (edits.length === 0 ? "its agent changed no page" : `its agent edited ${edits.map((e) => `"${e.title}"`).join(", ")}`) +
                `. Its words: ${sent.reply.text}`
            })
        })
        const instructions = (yield* guidance.forOrganization(organizationId)).trim()
        const closing = yield* runTools(
          organizationId,
          model.value,
          "You are the organization's documentation agent. The member asks for a change to the documentation. " +
            "Call editSpace once, on the space the member names or means, with instructions that say which page and what to change. " +
            "If none of the spaces listed is the one meant, say so and do not call it. Then answer in a sentence what you did.\n\n" +
            `The spaces this member may edit (id: title):\n${Array.from(editable, ([id, title]) => `- ${id}: ${title}`).join("\n")}` +
            (instructions === "" ? "" : `\n\nThe organization's instructions for its agent, to follow where they apply:\n${instructions}`),
          text,
          editTools,
          handlers,
          { conversation: logId, purpose: "organization-agent" }
        ).pipe(Effect.mapError((e) => ({ kind: "ModelFailed" as const, message: e.message })))
        if (made === undefined) return attempted ? Option.some<EditOutcome>({ text: closing === "" ? "I could not make this change." : closing, byModel: true }) : Option.none<EditOutcome>()
        const link = `[#${made.cr.number} ${made.cr.subject}](${changeRequestPath(made.cr)})`
        return Option.some<EditOutcome>({ text: `${closing === "" ? "Done." : closing}\n\nChange request: ${link}`, byModel: true, changeRequest: made.cr })
      })

      return OrganizationEdits.of({ edit })
    })
  )
}
