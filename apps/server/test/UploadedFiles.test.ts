/**
 * Uploaded files as a browser meets them at their signed links (`/files/...`, Quire's own origin):
 * nothing uploaded is served with a type a browser runs (a script, a page, a stylesheet), images
 * keep their types for pages to show them, SVG is a download, and every answer keeps the route's
 * own sandboxed policy rather than the global one.
 */
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { download, memory, spaceWith } from "./Harness.ts"

const files: ReadonlyArray<readonly [name: string, stored: string, served: string, disposition: "inline" | "attachment"]> = [
  ["steal.js", "text/javascript", "application/octet-stream", "attachment"],
  ["module.mjs", "application/javascript", "application/octet-stream", "attachment"],
  ["page.html", "text/html", "application/octet-stream", "attachment"],
  ["page.xhtml", "application/xhtml+xml", "application/octet-stream", "attachment"],
  ["feed.xml", "text/xml", "application/octet-stream", "attachment"],
  ["theme.css", "text/css", "application/octet-stream", "attachment"],
  ["data.json", "application/json", "application/octet-stream", "attachment"],
  ["drawing.svg", "image/svg+xml", "image/svg+xml", "attachment"],
  ["photo.png", "image/png", "image/png", "inline"],
  ["photo.jpg", "image/jpeg", "image/jpeg", "inline"],
  ["anim.gif", "image/gif", "image/gif", "inline"],
  ["photo.webp", "image/webp", "image/webp", "inline"],
  ["notes.txt", "text/plain", "text/plain", "inline"],
  ["manual.pdf", "application/pdf", "application/pdf", "inline"],
  ["brand.woff2", "font/woff2", "font/woff2", "inline"]
]

layer(memory.layer, { timeout: 120_000, excludeTestServices: true })("uploaded files on Quire's origin", (it) => {
  it.effect("are served with a type that never runs, nosniff, a download unless only shown, under a sandbox", () =>
    Effect.gen(function*() {
      const { alice, space } = yield* spaceWith()
      const cr = yield* alice.api.changeRequests.createChangeRequest({ params: { spaceId: space.id }, payload: { subject: "Files" } })
      const params = { spaceId: space.id, changeRequestId: cr.id }
      yield* alice.api.changeRequestContent.updateChangeRequestContent({
        params,
        payload: {
          changes: [{
            operation: "insert_files",
            files: files.map(([name, contentType]) => ({
              name,
              contentType,
              base64: Buffer.from(`<script>alert(document.domain)</script> ${name}`).toString("base64")
            }))
          }]
        }
      })
      const listed = yield* alice.api.changeRequestContent.listFilesInChangeRequestById({ params, query: {} })
      const byName = new Map(listed.items.map((file) => [file.name, file]))
      for (const [name, stored, served, disposition] of files) {
        const file = byName.get(name)
        assert.isDefined(file, name)
        // The API still says what was uploaded; only the download's answer is neutralized.
        assert.strictEqual(file!.contentType, stored, name)
        const answer = yield* download(file!.downloadURL)
        assert.strictEqual(answer.status, 200, name)
        assert.strictEqual(answer.headers.get("content-type"), served, name)
        assert.strictEqual(answer.headers.get("x-content-type-options"), "nosniff", name)
        assert.strictEqual(answer.headers.get("content-disposition"), `${disposition}; filename*=UTF-8''${name}`, name)
        const policy = answer.headers.get("content-security-policy") ?? ""
        assert.match(policy, /^sandbox; default-src 'none'/, name)
        assert.notInclude(policy, "script-src", name)
        assert.include(policy, "frame-ancestors 'none'", name)
        assert.include(new TextDecoder().decode(answer.bytes), name)
      }
    }))
})
