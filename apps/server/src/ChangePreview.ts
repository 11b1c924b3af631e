/**
 * A published site as it would look with one change request merged: `<site root>~/changes/<changeRequestId>/...`
 * renders the change request's current head revision in place of its space's main revision (every
 * other space as published), with a small preview toolbar. Readable by whoever may read the change
 * request (the app's session cookie) and by holders of a preview share link of it; 404 to anyone else.
 * A reader let in by their session sees only the spaces of the site they may read (the change
 * request's among them), as on the published site.
 * Never cached by FastPages; the renderer's caches are keyed by revision, so an edit shows on the next request.
 */
import { Effect, Option } from "effect"
import { HttpServerRequest, HttpServerResponse } from "effect/http"
import { compareRevisions, ContentAccess, PublishedContent } from "@quire/content"
import { sessionActor } from "@quire/identity"
import { Actor, escapeHtml } from "@quire/kernel"
import { ChangeRequests } from "@quire/reviews"
import {
  previewKey,
  PublishedSites,
  type PublishedSite,
  type PublishedSiteSpace,
  readableSpaceIds,
  refusalPage,
  type RenderAnswer,
  SiteRenderer
} from "@quire/sites"
import { createHash } from "node:crypto"
import { PublicUrl } from "./PublicUrl.ts"
import * as SessionCookie from "./SessionCookie.ts"
import { servedType, uploadHeaders } from "./UploadHeaders.ts"

/** Where a change request's preview lives below a site's root. */
export const previewSegment = "~/changes/"


/** The cookie a preview share link leaves, scoped to the preview's path. */
const cookieName = "quire_preview"

const notFound = () =>
  HttpServerResponse.text("Not found", { status: 404 }).pipe(HttpServerResponse.setHeaders({ "cache-control": "private, no-store", "x-robots-tag": "noindex" }))

/** The site with `spaceId`'s site spaces showing `revisionId`. */
const withRevision = (site: PublishedSite, spaceId: string, revisionId: string): PublishedSite => {
  const swap = (s: PublishedSiteSpace): PublishedSiteSpace => s.space.id === spaceId ? { ...s, space: { ...s.space, revisionId } } : s
  return {
    ...site,
    sections: site.sections.map((section) => ({ ...section, siteSpaces: section.siteSpaces.map(swap) })),
    rootSiteSpaces: site.rootSiteSpaces.map(swap)
  }
}

/** A page the change request changes, with its address in the preview (none for a deleted page). */
export interface ChangedEntry {
  readonly title: string
  readonly href?: string | undefined
}

/** The toolbar put at the top of every previewed page (inline styles only: the pages' CSP allows style attributes). */
export const toolbarHtml = (input: {
  readonly number: number
  readonly subject: string
  readonly appUrl: string
  readonly changed: ReadonlyArray<ChangedEntry>
}) => {
  const entry = (c: ChangedEntry) =>
    c.href === undefined ? escapeHtml(c.title) : `<a href="${escapeHtml(c.href)}" style="color:#fff">${escapeHtml(c.title)}</a>`
  const changed = input.changed.length === 0
    ? "No page changed"
    : `${input.changed.length} page${input.changed.length === 1 ? "" : "s"} changed: ${input.changed.slice(0, 8).map(entry).join(", ")}${input.changed.length > 8 ? ", …" : ""}`
  return `<div id="quire-preview-toolbar" role="region" aria-label="Change request preview" style="position:relative;z-index:40;display:flex;flex-wrap:wrap;gap:4px 16px;align-items:center;padding:8px 16px;background:#1e1b4b;color:#fff;font:14px/1.4 system-ui,sans-serif;border-bottom:1px solid #4338ca">` +
    `<strong style="font-weight:600">Preview of change request #${input.number}: ${escapeHtml(input.subject === "" ? "Untitled" : input.subject)}</strong>` +
    `<span style="color:#e0e7ff">${changed}</span>` +
    `<a href="${escapeHtml(input.appUrl)}" style="margin-left:auto;color:#fff;text-decoration:underline">Open the change request</a></div>`
}

/** Where the first site space showing `spaceId` lives below the site's root (`[<section>/][<site space>/]`). */
const spacePrefix = (site: PublishedSite, spaceId: string): string => {
  const root = site.rootSiteSpaces.find((s) => s.space.id === spaceId)
  if (root !== undefined) return root.default ? "" : `${encodeURIComponent(root.siteSpace.path)}/`
  for (const section of site.sections) {
    const shown = section.siteSpaces.find((s) => s.space.id === spaceId)
    if (shown === undefined) continue
    return `${section.default ? "" : `${encodeURIComponent(section.section.path)}/`}${shown.default ? "" : `${encodeURIComponent(shown.siteSpace.path)}/`}`
  }
  return ""
}

/** The page with the toolbar after its `<body>` tag. */
const withToolbar = (answer: Extract<RenderAnswer, { kind: "Html" }>, toolbar: string) => {
  const html = answer.html.replace(/<body[^>]*>/, (tag) => `${tag}${toolbar}`)
  const bytes = new TextEncoder().encode(html)
  return { bytes, etag: `"${createHash("sha256").update(bytes).digest("base64url").slice(0, 27)}"`, policy: answer.policy, status: answer.status }
}

/**
 * Who may read the preview: the session's user when they may read the change request (what they
 * read of the site: the spaces they may read), else a share link's holder (the site as published,
 * `readable` absent), else nobody.
 */
const allowed = Effect.fnUntraced(function*(site: PublishedSite, spaceId: string, changeRequestId: string, secret: string | undefined) {
  const session = yield* SessionCookie.current
  if (Option.isSome(session)) {
    const actor = sessionActor(session.value)
    const changeRequests = yield* ChangeRequests
    const readable = yield* changeRequests.get(spaceId, changeRequestId).pipe(
      Effect.provideService(Actor.Actor, actor),
      Effect.as(true),
      Effect.catch(() => Effect.succeed(false))
    )
    if (readable) {
      const spaces = yield* readableSpaceIds(yield* ContentAccess, site).pipe(Effect.provideService(Actor.Actor, actor))
      return { readable: spaces }
    }
  }
  if (secret === undefined) return undefined
  return (yield* (yield* PublishedSites).checkShareSecret(previewKey(site.site.id, changeRequestId), secret)) ? { readable: undefined } : undefined
})

/** The pages the change request changes from the main it was last brought up to date with, linked below `base`. */
const changedPages = Effect.fnUntraced(function*(from: string, to: string, base: string) {
  const content = yield* PublishedContent
  const before = yield* Effect.orDie(content.revision(from))
  const after = yield* Effect.orDie(content.revision(to))
  const entries: Array<ChangedEntry> = []
  for (const change of compareRevisions(before, after)) {
    if (change.type === "page_deleted") entries.push({ title: `${change.page.title} (deleted)` })
    else if (change.type === "page_created" || change.type === "page_edited" || change.type === "page_moved") {
      const href = change.page.type === "document" ? `${base}${change.page.path.split("/").map(encodeURIComponent).join("/")}` : undefined
      entries.push({ title: change.page.title, href })
    }
  }
  return entries
})

/**
 * Answers `<root>~/changes/<rest>` of `site`: `rest` is `<changeRequestId>/<path below the site>`.
 */
export const servePreview = Effect.fnUntraced(function*(site: PublishedSite, root: string, rest: string) {
  const request = yield* HttpServerRequest.HttpServerRequest
  const slash = rest.indexOf("/")
  let changeRequestId: string
  try {
    changeRequestId = decodeURIComponent(slash === -1 ? rest : rest.slice(0, slash))
  } catch {
    return notFound()
  }
  if (changeRequestId === "" || changeRequestId.length > 100) return notFound()
  const found = yield* (yield* ChangeRequests).forPreview(changeRequestId)
  if (Option.isNone(found)) return notFound()
  const changeRequest = found.value
  const shown = [...site.rootSiteSpaces, ...site.sections.flatMap((s) => s.siteSpaces)]
  if (!shown.some((s) => s.space.id === changeRequest.spaceId)) return notFound()

  const previewRoot = `${root}${previewSegment}${encodeURIComponent(changeRequestId)}/`
  const previewPath = new URL(previewRoot).pathname
  const queryAt = request.url.indexOf("?")
  const query = new URLSearchParams(queryAt === -1 ? "" : request.url.slice(queryAt + 1))
  const fromQuery = query.get("share") ?? undefined
  const secret = fromQuery ?? request.cookies[cookieName]
  const reader = yield* allowed(site, changeRequest.spaceId, changeRequestId, secret)
  if (reader === undefined) return notFound()
  // A link's secret moves to a cookie of the preview's path, and the address loses it.
  if (fromQuery !== undefined) {
    query.delete("share")
    const search = query.toString()
    const location = `${request.url.slice(0, queryAt)}${search === "" ? "" : `?${search}`}`
    return HttpServerResponse.redirect(location, { status: 302 }).pipe(
      HttpServerResponse.setHeaders({ "cache-control": "private, no-store", "x-robots-tag": "noindex" }),
      (r) => HttpServerResponse.setCookieUnsafe(r, cookieName, fromQuery, { path: previewPath, httpOnly: true, sameSite: "lax", secure: previewRoot.startsWith("https:") })
    )
  }
  if (slash === -1) return HttpServerResponse.redirect(`${previewPath}${queryAt === -1 ? "" : request.url.slice(queryAt)}`, { status: 301 })

  const publicUrl = yield* PublicUrl
  const appUrl = `${publicUrl.base}/s/${encodeURIComponent(changeRequest.spaceId)}/~/changes/${changeRequest.number}`
  if (changeRequest.status === "merged" || changeRequest.status === "archived") {
    const { html, policy } = refusalPage(site, {
      code: "410",
      title: changeRequest.status === "merged" ? "This change request was merged" : "This change request was archived",
      message: changeRequest.status === "merged"
        ? `Change request #${changeRequest.number} is merged: its changes are on the published site, and its preview is closed.`
        : `Change request #${changeRequest.number} is archived: it has no preview any more.`
    })
    return HttpServerResponse.html(html).pipe(
      (r) => HttpServerResponse.setStatus(r, 410),
      HttpServerResponse.setHeaders({ "content-security-policy": policy, "cache-control": "private, no-store", "x-robots-tag": "noindex" })
    )
  }

  const renderer = yield* SiteRenderer
  const answer = yield* renderer.render({
    site: withRevision(site, changeRequest.spaceId, changeRequest.revision),
    root: previewRoot,
    path: rest.slice(slash + 1),
    query,
    claims: {},
    noindex: true,
    json: (request.headers["accept"] ?? "").includes("application/json") && !(request.headers["accept"] ?? "").includes("text/html"),
    previewSpace: changeRequest.spaceId,
    readableSpaces: reader.readable
  })
  const headers = { "cache-control": "private, no-store", "x-robots-tag": "noindex", vary: "Cookie" }
  switch (answer.kind) {
    case "Html": {
      const changed = yield* changedPages(changeRequest.revisionMergedAncestor, changeRequest.revision, `${previewPath}${spacePrefix(site, changeRequest.spaceId)}`)
      const page = withToolbar(answer, toolbarHtml({ number: changeRequest.number, subject: changeRequest.subject, appUrl, changed }))
      return HttpServerResponse.uint8Array(page.bytes, {
        status: page.status,
        contentType: "text/html; charset=utf-8",
        headers: { ...headers, "content-security-policy": page.policy, etag: page.etag }
      })
    }
    case "Text":
      return HttpServerResponse.text(answer.body, { contentType: answer.contentType, headers: { ...headers, "content-security-policy": "default-src 'none'; sandbox" } })
    case "Json":
      return HttpServerResponse.jsonUnsafe(answer.body, { status: answer.status ?? 200, headers })
    case "File":
      return HttpServerResponse.uint8Array(answer.bytes, {
        contentType: servedType(answer.contentType),
        headers: { ...uploadHeaders(servedType(answer.contentType), answer.name), ...headers }
      })
    case "Download":
      return HttpServerResponse.stream(answer.file.bytes, {
        contentType: servedType(answer.contentType),
        contentLength: answer.file.size,
        headers: { ...uploadHeaders(servedType(answer.contentType), answer.name), ...headers }
      })
    case "Redirect":
      return HttpServerResponse.redirect(answer.location, { status: answer.status ?? 302, headers })
  }
})
