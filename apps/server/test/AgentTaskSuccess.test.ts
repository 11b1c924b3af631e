/**
 * The agent's task success on a scripted set of edits: ten things writers ask the agent of a change
 * request (add a page, replace a word, add a section, fix a typo, remove a section, add a hint,
 * rename a heading, add a table, a code block, a link), each in a change request of its own, each
 * checked on what the change request holds afterwards (the edit made, the rest of the page kept).
 *
 * The model is the test kit's scripted one, which edits as a careful model would: lists the pages,
 * reads the one named, writes it whole. That holds the harness and the agent's write path to every
 * task. Against a real model (`QUIRE_AGENT_TASKS_AI_URL`, `_MODEL`, `_KEY`: `pnpm bench
 * --agent-tasks` passes them) the same tasks give the model's own figure, which is reported, not
 * held to a floor. With `QUIRE_AGENT_TASKS_REPORT` set, the figures are written there as JSON.
 */
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { writeFileSync } from "node:fs"
import { lastOf, type ModelReply, type ModelRequest, startModelServer } from "@quire/testkit/ModelServer"
import { backends, type ContentChanges, mergeIntoMain, organizationWith, raw, withSettings } from "./Harness.ts"

interface Task {
  readonly instruction: string
  /** The page the task is about (its title), and what a careful model writes there. */
  readonly page: string
  readonly edit: (markdown: string) => string
  /** Whether the page as the change request holds it afterwards shows the task done, and the rest kept. */
  readonly done: (markdown: string) => boolean
}

const install = "# Install\n\nQuire runs on one machine.\n\n## Setup\n\nRun npm install, then start the server.\n"
const webhooks = "# Webhooks\n\nYour endpoint will recieve a POST for every change.\n"
const api = "# API\n\n## Endpoints\n\nEvery operation is under /v1.\n\n## Deprecated\n\nThe v0 routes are going away.\n"
const pricing = "# Pricing\n\nThree plans.\n"
const keeps = (markdown: string, ...texts: ReadonlyArray<string>) => texts.every((text) => markdown.includes(text))

const tasks: ReadonlyArray<Task> = [
  {
    instruction: "Add a page titled Backups that says backups run nightly.",
    page: "Backups",
    edit: () => "Backups run nightly.\n",
    done: (md) => /nightly/i.test(md)
  },
  {
    instruction: "In the page Install, use pnpm instead of npm.",
    page: "Install",
    edit: (md) => md.replace("npm install", "pnpm install"),
    done: (md) => md.includes("pnpm install") && !/(^|[^p])npm install/.test(md) && keeps(md, "Quire runs on one machine.")
  },
  {
    instruction: "Add a Troubleshooting section to the page Install that says to restart the server.",
    page: "Install",
    edit: (md) => `${md.trimEnd()}\n\n## Troubleshooting\n\nRestart the server.\n`,
    done: (md) => /^## Troubleshooting$/m.test(md) && /restart/i.test(md.split("## Troubleshooting")[1] ?? "") && keeps(md, "## Setup")
  },
  {
    instruction: "Fix the typo in the page Webhooks.",
    page: "Webhooks",
    edit: (md) => md.replace("recieve", "receive"),
    done: (md) => md.includes("receive a POST") && !md.includes("recieve")
  },
  {
    instruction: "Remove the Deprecated section from the page API.",
    page: "API",
    edit: (md) => md.replace(/## Deprecated[\s\S]*$/, "").trimEnd() + "\n",
    done: (md) => !md.includes("Deprecated") && !md.includes("v0 routes") && keeps(md, "## Endpoints", "under /v1")
  },
  {
    instruction: "Add a warning hint at the top of the page Install saying the server needs Node 24.",
    page: "Install",
    edit: (md) => `{% hint style="warning" %}\nThe server needs Node 24.\n{% endhint %}\n\n${md}`,
    done: (md) => md.includes("{% hint style=\"warning\" %}") && md.includes("Node 24") && keeps(md, "## Setup")
  },
  {
    instruction: "Rename the heading Setup to Getting started in the page Install.",
    page: "Install",
    edit: (md) => md.replace("## Setup", "## Getting started"),
    done: (md) => /^## Getting started$/m.test(md) && !/^## Setup$/m.test(md) && keeps(md, "start the server")
  },
  {
    instruction: "Add a table of the plans Free, Team and Enterprise with their prices to the page Pricing.",
    page: "Pricing",
    edit: (md) => `${md.trimEnd()}\n\n| Plan | Price |\n| --- | --- |\n| Free | 0 |\n| Team | 8 |\n| Enterprise | Ask us |\n`,
    done: (md) => ["Free", "Team", "Enterprise"].every((plan) => new RegExp(`^\\|\\s*${plan}\\s*\\|`, "m").test(md)) && keeps(md, "Three plans.")
  },
  {
    instruction: "Add a code block to the page Install showing the command quire start.",
    page: "Install",
    edit: (md) => `${md.trimEnd()}\n\n\`\`\`bash\nquire start\n\`\`\`\n`,
    done: (md) => /```[a-z]*\n[^`]*quire start[^`]*\n```/.test(md) && keeps(md, "## Setup")
  },
  {
    instruction: "Link the page Webhooks to the status page at https://example.com/status.",
    page: "Webhooks",
    edit: (md) => `${md.trimEnd()}\n\nSee the [status page](https://example.com/status).\n`,
    done: (md) => md.includes("](https://example.com/status)") && keeps(md, "for every change")
  }
]

/** The scripted model: lists the pages, reads the one the task names, writes it whole (a new page: adds it). */
const careful = (request: ModelRequest): ModelReply => {
  const task = tasks.find((t) => t.instruction === lastOf(request, "user"))
  if (task === undefined || (request.tools ?? []).length === 0) return { text: "I can only do the tasks of this test." }
  const results = request.messages.filter((m) => m.role === "tool").map((m) => m.content ?? "")
  const listed = results[0]?.split("\n").find((line) => line.split("\t")[1] === task.page)?.split("\t")[0]
  if (results.length === 0) return { toolCalls: [{ name: "listPages", arguments: {} }] }
  if (listed === undefined) return results.length === 1 ? { toolCalls: [{ name: "createPage", arguments: { title: task.page, markdown: task.edit("") } }] } : { text: `I added the page ${task.page}.` }
  if (results.length === 1) return { toolCalls: [{ name: "readPage", arguments: { pageId: listed } }] }
  if (results.length === 2) return { toolCalls: [{ name: "writePage", arguments: { pageId: listed, markdown: task.edit(results[1]!) } }] }
  return { text: `Done: ${task.instruction}` }
}

const realModel = process.env["QUIRE_AGENT_TASKS_AI_URL"]
const model = realModel === undefined || realModel === "" ? await startModelServer(careful) : undefined
const settings = model === undefined
  ? { QUIRE_AI_URL: realModel!, QUIRE_AI_MODEL: process.env["QUIRE_AGENT_TASKS_AI_MODEL"] ?? "", QUIRE_AI_KEY: process.env["QUIRE_AGENT_TASKS_AI_KEY"] ?? "" }
  : { QUIRE_AI_URL: model.url, QUIRE_AI_MODEL: "careful-model" }

const seed: ContentChanges = [
  { operation: "insert_page", title: "Install", document: { markdown: install } },
  { operation: "insert_page", title: "Webhooks", document: { markdown: webhooks } },
  { operation: "insert_page", title: "API", document: { markdown: api } },
  { operation: "insert_page", title: "Pricing", document: { markdown: pricing } }
]

for (const backend of backends) {
  layer(withSettings(backend.layer, settings), { timeout: 600_000, excludeTestServices: true })(`the agent's task success (${backend.name})`, (it) => {
    it.effect(`${tasks.length} scripted edits, each in its own change request, checked on what it holds afterwards`, () =>
      Effect.gen(function*() {
        const { alice, organizationId } = yield* organizationWith()
        const space = yield* alice.api.spaces.createSpace({ params: { organizationId }, payload: { title: "Handbook" } })
        yield* mergeIntoMain(alice.api, space.id, seed)
        const outcomes: Array<{ readonly instruction: string; readonly status: number; readonly done: boolean; readonly reply: string }> = []
        for (const task of tasks) {
          const cr = yield* alice.api.changeRequests.createChangeRequest({ params: { spaceId: space.id }, payload: { subject: task.instruction.slice(0, 60) } })
          const sent = yield* raw("POST", `/v1/spaces/${space.id}/change-requests/${cr.id}/conversations/task/messages`, { body: JSON.stringify({ message: task.instruction }), token: alice.token })
          const reply = (sent.body as { reply?: { text?: string } } | undefined)?.reply?.text ?? JSON.stringify(sent.body)
          const slug = task.page.toLowerCase()
          const read = yield* raw("GET", `/v1/spaces/${space.id}/change-requests/${cr.id}/content/path/${slug}?format=markdown`, { token: alice.token })
          const markdown = read.status === 200 ? (read.body as { markdown?: string }).markdown ?? "" : ""
          outcomes.push({ instruction: task.instruction, status: sent.status, done: sent.status === 200 && task.done(markdown), reply: reply.slice(0, 300) })
        }
        const succeeded = outcomes.filter((o) => o.done).length
        const out = process.env["QUIRE_AGENT_TASKS_REPORT"]
        if (out !== undefined && out !== "") {
          writeFileSync(out, JSON.stringify({ model: settings.QUIRE_AI_MODEL, tasks: tasks.length, succeeded, failed: outcomes.filter((o) => !o.done) }, null, 2))
        }
        // The scripted model does every task; a real model's figure is its own, but it answers every one.
        if (model !== undefined) assert.strictEqual(succeeded, tasks.length, JSON.stringify(outcomes.filter((o) => !o.done), null, 2))
        else assert.deepStrictEqual(outcomes.map((o) => o.status), tasks.map(() => 200), JSON.stringify(outcomes, null, 2))
      }))
  })
}
