/**
 * A writer's day with `quire` against a real server (memory backend): pages as markdown in and
 * out (the round trip is byte for byte), files, comments, link checks, `cr apply` of a folder
 * with an image and a broken link, and `defaultRole` shown as the API answers it.
 */
import { assert, layer } from "@effect/vitest"
import { Effect, Schema } from "effect"
import * as fs from "node:fs"
import * as nodePath from "node:path"
import { ChangeRequest, Organization, RevisionFile, Schemas } from "@quire/api"
import { memory, organizationWith, spaceWith } from "@quire/server/test/Harness"
import { decodeJson, folder, lines, quire, quireAs, rowWith, tempFile } from "./Quire.ts"

const decodeCr = decodeJson(ChangeRequest)
const decodeUpload = decodeJson(Schema.Struct({ ...ChangeRequest.fields, files: Schema.Array(RevisionFile) }))

/** What a shell's `>` would have written of a command's stdout (the tests' stdout has no final newline). */
const saved = (stdout: string) => tempFile("page.md", `${stdout}\n`)

const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4])

/** A space "Docs" holding the product-docs template, Alice as `quire`. */
const docs = Effect.fnUntraced(function*() {
  const setup = yield* spaceWith()
  const spaceId = setup.space.id
  yield* setup.alice.api.spaceContent.applyTemplateToSpace({ params: { spaceId }, payload: { id: "product-docs" } })
  const as = quireAs(setup.alice.token)
  const open = (subject: string) => as("cr", "open", spaceId, "--subject", subject, "--json").pipe(Effect.flatMap(decodeCr))
  return { ...setup, spaceId, as, open }
})

layer(memory.layer, { timeout: 120_000, excludeTestServices: true })("a writer's day with quire", (it) => {
  it.effect("every new group and cr apply have --help naming their subcommands and flags", () =>
    Effect.gen(function*() {
      for (const [group, subcommands] of [
        ["pages", ["list", "get", "put", "mv", "rm"]],
        ["files", ["list", "add"]],
        ["comments", ["list", "post", "reply", "resolve"]],
        ["links", ["check"]]
      ] as const) {
        const help = yield* quire([group, "--help"])
        assert.strictEqual(help.status, 0, help.stderr)
        for (const subcommand of subcommands) assert.match(help.stdout, new RegExp(`^\\s+${subcommand}\\b`, "m"))
      }
      const apply = yield* quire(["cr", "apply", "--help"])
      for (const flag of ["--page", "--into", "--title", "--allow-broken-links"]) assert.include(apply.stdout, flag)
    }))

  it.effect("pages: list, get as markdown, put it back byte for byte (alerts become hints), add, mv and rm through change requests", () =>
    Effect.gen(function*() {
      const { alice, as, open, spaceId } = yield* docs()
      const listed = yield* as("pages", "list", spaceId)
      assert.strictEqual(listed.status, 0, listed.stderr)
      assert.match(lines(listed.stdout)[0]!, /^PATH\s+TITLE\s+KIND\s+ID$/)
      const { pages } = yield* alice.api.spaceContent.listPages({ params: { spaceId }, query: {} })
      const quickstart = pages.find((page) => page.title === "Quickstart")!
      assert.match(rowWith(listed.stdout, quickstart.id), new RegExp(`^${quickstart.path}\\s+Quickstart\\s+sheet\\s+${quickstart.id}$`))

      // get prints `# Title`, a blank line, then the body the API answers.
      const api = yield* alice.api.spaceContent.getPageById({ params: { spaceId, pageId: quickstart.id }, query: { format: "markdown" } })
      const read = yield* as("pages", "get", spaceId, quickstart.path)
      assert.strictEqual(read.status, 0, read.stderr)
      // The description (the template's pages have one) comes first, as frontmatter.
      assert.isDefined(api.description)
      const front = `---\ndescription: ${JSON.stringify(api.description)}\n---\n\n`
      assert.strictEqual(`${read.stdout}\n`, `${front}# Quickstart\n\n${api.markdown}${api.markdown?.endsWith("\n") ? "" : "\n"}`)
      assert.strictEqual((yield* as("pages", "get", spaceId, quickstart.id)).stdout, read.stdout)

      // What a writer reads, they put back: the same title and body, byte for byte after a second read.
      const cr = yield* open("Round trip")
      const put = yield* as("pages", "put", spaceId, quickstart.path, yield* saved(read.stdout), "--cr", String(cr.number))
      assert.strictEqual(put.status, 0, put.stderr)
      assert.include(put.stdout, `Updated page ${quickstart.path} (${quickstart.id}) in change request #${cr.number}`)
      const again = yield* as("pages", "get", spaceId, quickstart.path, "--cr", String(cr.number))
      assert.strictEqual(again.stdout, read.stdout)
      // cr apply of the same text too.
      const applied = yield* as("cr", "apply", spaceId, cr.id, yield* saved(again.stdout), "--page", quickstart.path)
      assert.strictEqual(applied.status, 0, applied.stderr)
      assert.strictEqual((yield* as("pages", "get", spaceId, quickstart.id, "--cr", cr.id)).stdout, read.stdout)

      // A new page at a path that does not exist yet, in a change request opened for it; markdown punctuation in the title survives.
      const faqText = "# C# & *Tips*\n\n> [!WARNING]\n> Back up first.\n\nThen upgrade.\n"
      const added = yield* as("pages", "put", spaceId, `${quickstart.path}/faq`, (yield* folder({ "faq.md": faqText })) + "/faq.md")
      assert.strictEqual(added.status, 0, added.stderr)
      const opened = /Opened change request #(\d+)/.exec(added.stderr)?.[1]
      assert.isDefined(opened, added.stderr)
      assert.include(added.stdout, `Added page ${quickstart.path}/faq in change request #${opened}`)
      const faq = yield* as("pages", "get", spaceId, `${quickstart.path}/faq`, "--cr", opened!)
      assert.strictEqual(faq.stdout, "# C# \\& Tips\n\n{% hint style=\"warning\" %}\nBack up first.\n{% endhint %}\n\nThen upgrade.")
      const crPages = yield* alice.api.changeRequestContent.listPagesInChangeRequest({ params: { spaceId, changeRequestId: opened! }, query: {} })
      const faqPage = crPages.pages.find((page) => page.id === quickstart.id)?.pages?.find((page) => page.slug === "faq")
      assert.strictEqual(faqPage?.title, "C# & Tips")
      const faqAgain = yield* as("pages", "put", spaceId, `${quickstart.path}/faq`, yield* saved(faq.stdout), "--cr", opened!)
      assert.strictEqual(faqAgain.status, 0, faqAgain.stderr)
      assert.strictEqual((yield* as("pages", "get", spaceId, `${quickstart.path}/faq`, "--cr", opened!)).stdout, faq.stdout)

      // mv: a new parent and slug; rm: gone. Main is untouched until a merge.
      const moved = yield* as("pages", "mv", spaceId, `${quickstart.path}/faq`, "questions", "--cr", opened!)
      assert.strictEqual(moved.status, 0, moved.stderr)
      const afterMove = yield* as("pages", "list", spaceId, "--cr", opened!)
      assert.match(rowWith(afterMove.stdout, "C# & Tips"), /^questions\s+C# & Tips\s+sheet\s/)
      const removed = yield* as("pages", "rm", spaceId, "questions", "--cr", opened!)
      assert.strictEqual(removed.status, 0, removed.stderr)
      assert.notInclude((yield* as("pages", "list", spaceId, "--cr", opened!)).stdout, "questions")
      assert.notInclude((yield* as("pages", "list", spaceId)).stdout, `${quickstart.path}/faq`)

      const missing = yield* as("pages", "get", spaceId, "no/such/page")
      assert.strictEqual(missing.status, 1)
      assert.include(missing.stderr, "No page \"no/such/page\" in the space")
    }))

  it.effect("a write the server refuses archives the change request opened for it", () =>
    Effect.gen(function*() {
      const { as, spaceId } = yield* docs()
      const dir = yield* folder({ "big.md": `# Big\n\n${"x".repeat(5_000_001)}` })
      const refused = yield* as("pages", "put", spaceId, "big", `${dir}/big.md`)
      assert.strictEqual(refused.status, 1)
      assert.include(refused.stderr, "Opened change request #1")
      assert.match(refused.stderr, /^quire: .+/m)
      assert.include((yield* as("cr", "list", spaceId)).stdout, "No open change requests")
      const archived = yield* as("cr", "list", spaceId, "--status", "archived", "--json").pipe(Effect.flatMap(decodeJson(Schemas.ListOf(ChangeRequest))))
      assert.deepStrictEqual(archived.items.map((cr) => [cr.number, cr.subject]), [[1, "Add big"]])
    }))

  it.effect("files: add uploads through a change request and answers the files' ids and URLs; list shows them", () =>
    Effect.gen(function*() {
      const { as, open, spaceId } = yield* docs()
      const cr = yield* open("Diagram")
      const dir = yield* folder({ "diagram.png": png, "notes.txt": "Notes." })
      const upload = yield* as("files", "add", spaceId, `${dir}/diagram.png`, `${dir}/notes.txt`, "--cr", cr.id, "--json")
      assert.strictEqual(upload.status, 0, upload.stderr)
      const answer = yield* decodeUpload(upload)
      assert.deepStrictEqual(answer.files.map((f) => [f.name, f.contentType, f.size]), [
        ["diagram.png", "image/png", png.byteLength],
        ["notes.txt", "text/plain", 6]
      ])
      const listed = yield* as("files", "list", spaceId, "--cr", String(cr.number))
      assert.match(lines(listed.stdout)[0]!, /^NAME\s+ID\s+TYPE\s+SIZE$/)
      for (const file of answer.files) assert.match(rowWith(listed.stdout, file.id), new RegExp(`^${file.name.replace(".", "\\.")}\\s+${file.id}\\s`))
      // Not in the space's files until the change request is merged.
      const main = (yield* as("files", "list", spaceId)).stdout
      for (const file of answer.files) assert.notInclude(main, file.id)
    }))

  it.effect("files add: a file over what a batch takes inline goes through the upload route, beside small ones", () =>
    Effect.gen(function*() {
      const { as, open, spaceId } = yield* docs()
      const cr = yield* open("Screenshots")
      const screenshot = new Uint8Array(3 * 1024 * 1024)
      screenshot.set(png)
      const dir = yield* folder({ "screenshot.png": screenshot, "notes.txt": "Notes." })
      const upload = yield* as("files", "add", spaceId, `${dir}/screenshot.png`, `${dir}/notes.txt`, "--cr", cr.id, "--json")
      assert.strictEqual(upload.status, 0, upload.stderr)
      const answer = yield* decodeUpload(upload)
      assert.strictEqual(answer.number, cr.number)
      assert.deepStrictEqual(answer.files.map((f) => [f.name, f.contentType, f.size]), [
        ["screenshot.png", "image/png", screenshot.byteLength],
        ["notes.txt", "text/plain", 6]
      ])
      const listed = yield* as("files", "list", spaceId, "--cr", String(cr.number))
      for (const file of answer.files) assert.include(rowWith(listed.stdout, file.id), file.name)
    }))

  it.effect("comments: post on a page, reply, list, resolve and reopen, on the space and on a change request", () =>
    Effect.gen(function*() {
      const { as, open, spaceId } = yield* docs()
      const posted = yield* as("comments", "post", spaceId, "Is step 2 still true?", "--page", "quickstart")
      assert.strictEqual(posted.status, 0, posted.stderr)
      const id = /^id:\s+(\S+)$/m.exec(posted.stdout)?.[1]
      assert.isDefined(id, posted.stdout)
      assert.match(posted.stdout, /^page:\s+quickstart$/m)
      const replied = yield* as("comments", "reply", spaceId, id!, "Yes, checked today.")
      assert.strictEqual(replied.status, 0, replied.stderr)
      const listed = yield* as("comments", "list", spaceId)
      assert.match(rowWith(listed.stdout, id!), new RegExp(`^${id}\\s+open\\s+Alice\\s+quickstart\\s+1\\s+.+Is step 2 still true\\?$`))
      const resolved = yield* as("comments", "resolve", spaceId, id!)
      assert.strictEqual(resolved.stdout, `Resolved comment ${id}.`)
      assert.include((yield* as("comments", "list", spaceId)).stdout, "No open comments in the space")
      assert.include((yield* as("comments", "list", spaceId, "--status", "resolved")).stdout, id!)
      assert.strictEqual((yield* as("comments", "resolve", spaceId, id!, "--reopen")).stdout, `Reopened comment ${id}.`)

      const cr = yield* open("Review me")
      const onCr = yield* as("comments", "post", spaceId, "Looks good", "--cr", String(cr.number))
      assert.strictEqual(onCr.status, 0, onCr.stderr)
      assert.match(onCr.stdout, new RegExp(`^change request:\\s+${cr.id}$`, "m"))
      const crList = yield* as("comments", "list", spaceId, "--cr", cr.id)
      assert.include(crList.stdout, "Looks good")
      assert.notInclude(crList.stdout, "Is step 2")
    }))

  it.effect("cr apply of a folder: broken links stop it before anything is sent; fixed, it adds a page tree with its image uploaded and linked; again, it updates", () =>
    Effect.gen(function*() {
      const { alice, as, open, spaceId } = yield* docs()
      const cr = yield* open("Handbook")
      const params = { spaceId, changeRequestId: cr.id }
      const before = yield* alice.api.changeRequestContent.getRevisionOfChangeRequestById({ params, query: {} })
      const dir = yield* folder({
        "README.md": "# Welcome\n\nStart at the [handbook](handbook/README.md).\n",
        "handbook/README.md": "# Handbook\n\nStart with [installing](install.md) or the [FAQ](../questions.md).\n",
        "handbook/install.md": "# Installing\n\n![Diagram](../images/diagram.png)\n\nBack to the [handbook](README.md).\n",
        "questions.md": "# Questions\n\nSee [missing](./missing.md) and ![gone](images/gone.png).\n",
        "images/diagram.png": png
      })
      const refused = yield* as("cr", "apply", spaceId, String(cr.number), dir)
      assert.strictEqual(refused.status, 1)
      assert.match(lines(refused.stdout)[0]!, /^FILE\s+LINK\s+PROBLEM$/)
      assert.match(rowWith(refused.stdout, "./missing.md"), /questions\.md:3\s+\.\/missing\.md\s+no page missing$/)
      assert.match(rowWith(refused.stdout, "gone.png"), /questions\.md:3\s+images\/gone\.png\s+no such file$/)
      assert.include(refused.stderr, "2 broken links: nothing was sent", refused.stdout)
      const untouched = yield* alice.api.changeRequestContent.getRevisionOfChangeRequestById({ params, query: {} })
      assert.strictEqual(untouched.id, before.id)

      fs.writeFileSync(nodePath.join(dir, "questions.md"), "# Questions\n\nSee the [handbook](handbook/README.md).\n")
      const applied = yield* as("cr", "apply", spaceId, String(cr.number), dir)
      assert.strictEqual(applied.status, 0, applied.stderr)
      assert.include(applied.stdout, `to change request #${cr.number}: 4 pages added, 0 updated, 1 image uploaded`)
      const tree = yield* as("cr", "pages", spaceId, cr.id)
      assert.match(rowWith(tree.stdout, "Questions"), /^questions\s+Questions\s+sheet\s/)
      // The top README.md is the page `readme`, first of the applied pages; a folder is the page holding its README.md.
      const order = lines(tree.stdout).map((line) => line.split(/\s+/)[0])
      assert.deepStrictEqual(order.filter((path) => ["readme", "questions", "handbook"].includes(path!)), ["readme", "handbook", "questions"])
      assert.match(rowWith(tree.stdout, "Welcome"), /^readme\s+Welcome\s+sheet\s/)
      assert.match(rowWith(tree.stdout, "Handbook"), /^handbook\s+Handbook\s+sheet\s/)
      assert.match(rowWith(tree.stdout, "Installing"), /^handbook\/install\s+ {2}Installing\s+sheet\s/)

      // The image is a file of the change request, and the page links to it by id.
      const files = yield* alice.api.changeRequestContent.listFilesInChangeRequestById({ params, query: {} })
      const diagram = files.items.find((file) => file.name === "diagram.png")
      assert.isDefined(diagram)
      const install = yield* as("pages", "get", spaceId, "handbook/install", "--cr", cr.id)
      assert.strictEqual(install.stdout, `# Installing\n\n![Diagram](/files/${diagram!.id})\n\nBack to the [handbook](README.md).`)
      const check = yield* as("links", "check", spaceId, "--cr", cr.id)
      assert.strictEqual(check.status, 0, check.stdout + check.stderr)
      assert.match(check.stdout, /^No broken links in change request \S+ \(\d+ links checked\)\.$/)

      // Applied again after an edit: the pages are updated, not added twice.
      fs.writeFileSync(nodePath.join(dir, "questions.md"), "# Questions\n\nAsk in the chat.\n")
      const again = yield* as("cr", "apply", spaceId, cr.id, dir)
      assert.strictEqual(again.status, 0, again.stderr)
      // The image was sent before and is unchanged: not uploaded again.
      assert.include(again.stdout, "0 pages added, 4 updated (revision")
      assert.strictEqual((yield* as("pages", "get", spaceId, "questions", "--cr", cr.id)).stdout, "# Questions\n\nAsk in the chat.")
      const questions = (yield* as("cr", "pages", spaceId, cr.id)).stdout.split("\n").filter((line) => line.startsWith("questions"))
      assert.strictEqual(questions.length, 1)
    }))

  it.effect("cr apply of a folder larger than a batch: 60 pages in two requests, the second placing pages under a parent the first added", () =>
    Effect.gen(function*() {
      const { alice, as, open, spaceId } = yield* docs()
      const cr = yield* open("Many")
      const files: Record<string, string> = { "many/README.md": "# Many\n" }
      for (let i = 1; i <= 59; i++) files[`many/page-${String(i).padStart(2, "0")}.md`] = `# Page ${i}\n\nBack to [many](README.md).\n`
      const dir = yield* folder(files)
      const applied = yield* as("cr", "apply", spaceId, cr.id, dir)
      assert.strictEqual(applied.status, 0, applied.stderr)
      assert.include(applied.stdout, "60 pages added, 0 updated")
      const { pages } = yield* alice.api.changeRequestContent.listPagesInChangeRequest({ params: { spaceId, changeRequestId: cr.id }, query: {} })
      const many = pages.find((page) => page.path === "many")
      assert.deepStrictEqual(many?.pages?.map((page) => page.slug), Array.from({ length: 59 }, (_, i) => `page-${String(i + 1).padStart(2, "0")}`))
      assert.strictEqual((yield* as("links", "check", spaceId, "--cr", cr.id)).status, 0)
    }))

  it.effect("cr apply of one file: the slug comes from the file name, not the title; --into puts it under a page", () =>
    Effect.gen(function*() {
      const { as, open, spaceId } = yield* docs()
      const cr = yield* open("One file")
      const dir = yield* folder({ "getting-started.md": "# Welcome aboard\n\nHello." })
      const applied = yield* as("cr", "apply", spaceId, cr.id, `${dir}/getting-started.md`, "--into", "quickstart")
      assert.strictEqual(applied.status, 0, applied.stderr)
      assert.include(applied.stdout, `Added page quickstart/getting-started in change request #${cr.number}`)
      const tree = yield* as("cr", "pages", spaceId, cr.id)
      assert.match(rowWith(tree.stdout, "Welcome aboard"), /^quickstart\/getting-started\s+ {2}Welcome aboard\s+sheet\s/)
    }))

  it.effect("links check: a broken link of the space's content is listed with its page, and the command exits 1", () =>
    Effect.gen(function*() {
      const { alice, as, open, spaceId } = yield* docs()
      const cr = yield* open("Break a link")
      const dir = yield* folder({ "broken.md": "# Broken\n\nSee [nowhere](./nowhere.md)." })
      const applied = yield* as("cr", "apply", spaceId, cr.id, `${dir}/broken.md`, "--allow-broken-links")
      assert.strictEqual(applied.status, 0, applied.stderr)
      assert.include(applied.stdout, "1 broken link, sent anyway")
      yield* alice.api.changeRequests.mergeChangeRequest({ params: { spaceId, changeRequestId: cr.id } })
      const check = yield* as("links", "check", spaceId)
      assert.strictEqual(check.status, 1)
      assert.match(lines(check.stdout)[0]!, /^PAGE\s+BROKEN LINK$/)
      assert.match(rowWith(check.stdout, "nowhere"), /^broken\s+\.\/nowhere\.md$/)
      assert.match(check.stderr, /^quire: 1 broken link in the space \(of \d+\)$/)
    }))

  it.effect("teams members: add (with a role), list, rm; removing someone not in the team says so", () =>
    Effect.gen(function*() {
      const { alice, members, organizationId } = yield* organizationWith(["edit"])
      const as = quireAs(alice.token)
      const editor = members.edit!
      const team = yield* alice.api.teams.createOrganizationTeam({ params: { organizationId }, payload: { title: "Writers" } })
      const empty = yield* as("teams", "members", "list", organizationId, team.id)
      assert.strictEqual(empty.status, 0, empty.stderr)
      assert.include(empty.stdout, "No members in this team")
      const added = yield* as("teams", "members", "add", organizationId, team.id, editor.user.id, "--role", "owner")
      assert.strictEqual(added.stdout, `Added ${editor.user.id} to team ${team.id} as owner.`)
      const listed = yield* as("teams", "members", "list", organizationId, team.id)
      assert.match(lines(listed.stdout)[0]!, /^USER\s+NAME\s+EMAIL\s+TEAM ROLE\s+ORG ROLE$/)
      assert.match(rowWith(listed.stdout, editor.user.id), new RegExp(`^${editor.user.id}\\s+edit\\s+\\S+\\s+owner\\s+edit$`))
      const removed = yield* as("teams", "members", "rm", organizationId, team.id, editor.user.id)
      assert.strictEqual(removed.stdout, `Removed ${editor.user.id} from team ${team.id}.`)
      const again = yield* as("teams", "members", "rm", organizationId, team.id, editor.user.id)
      assert.strictEqual(again.stdout, `${editor.user.id} was not in team ${team.id}.`)
      const outsider = yield* as("teams", "members", "add", organizationId, team.id, "no-such-user")
      assert.strictEqual(outsider.status, 1)
      assert.match(outsider.stderr, /^quire: .+/)
    }))

  it.effect("orgs get shows defaultRole as the API answers it: null, not guest", () =>
    Effect.gen(function*() {
      const { alice } = yield* docs()
      const as = quireAs(alice.token)
      const created = yield* as("orgs", "create", "Nulls", "--json").pipe(Effect.flatMap(decodeJson(Organization)))
      assert.isNull(created.defaultRole)
      const shown = yield* as("orgs", "get", created.id)
      assert.match(shown.stdout, /^default role:\s+null$/m)
      assert.notInclude(shown.stdout, "guest")
      const set = yield* as("orgs", "update", created.id, "--default-role", "read")
      assert.match(set.stdout, /^default role:\s+read$/m)
      const back = yield* as("orgs", "update", created.id, "--default-role", "null", "--json").pipe(Effect.flatMap(decodeJson(Organization)))
      assert.isNull(back.defaultRole)
    }))
})
