/**
 * "Preview" on a change request: the published sites that show its space, each opened as it would
 * be with the change request merged (`<site>/~/changes/<id>/`, readable with this session), a
 * preview link to copy for someone without an account, and the links made so far, each with "Revoke".
 */
import { Effect, Option } from "effect"
import { AsyncResult } from "effect/reactivity"
import { useCallback, useEffect, useState } from "react"
import { callApi } from "../../api/call.ts"
import { QuireApi } from "../../api/client.ts"
import { spaceAtom } from "../../api/queries.ts"
import { useAtomValue, useRegistry } from "../../api/react.ts"
import { errorText } from "../review/action.ts"
import { formatTime } from "../../ui/time.ts"

interface PreviewLink {
  readonly id: string
  readonly createdAt: string
  readonly url: string | undefined
  readonly target: Target
}

interface Target {
  readonly organizationId: string
  readonly siteId: string
  readonly title: string
  readonly url: string
}

/**
 * The published sites of the organization that show the change request's space, with its preview URL
 * on each. Only a site that lists the space is asked for a preview: any other would answer 400, an
 * error in the browser's console on every open of the change request.
 */
const previewTargets = (organizationId: string, spaceId: string, changeRequestId: string) =>
  Effect.gen(function*() {
    const client = yield* QuireApi
    const sites = yield* client.sites.listSites({ params: { organizationId }, query: { limit: 100 } })
    const shows = (siteId: string) =>
      client.siteSpaces.listSiteSpaces({ params: { organizationId, siteId }, query: { limit: 100 } }).pipe(
        Effect.map((list) => list.items.some((item) => item.space.id === spaceId && !item.draft)),
        Effect.orElseSucceed(() => false)
      )
    const found = yield* Effect.forEach(sites.items.filter((site) => site.published), (site) =>
      Effect.flatMap(shows(site.id), (shown) => !shown ? Effect.succeed(Option.none<Target>()) :
        client.sitePreview.getSitePublishingPreviewById({ params: { organizationId, siteId: site.id }, query: { changeRequest: changeRequestId } }).pipe(
          Effect.map((preview): Option.Option<Target> => Option.some({ organizationId, siteId: site.id, title: site.title, url: preview.url })),
          Effect.orElseSucceed(() => Option.none<Target>())
        )), { concurrency: 4 })
    return found.flatMap((target) => Option.isSome(target) ? [target.value] : [])
  })

const createLink = (target: Target, changeRequestId: string) =>
  Effect.gen(function*() {
    const client = yield* QuireApi
    const link = yield* client.sitePreview.createSitePreviewShareLink({ params: { organizationId: target.organizationId, siteId: target.siteId, changeRequestId } })
    return link.urls.published ?? ""
  })

/** The preview links of the change request on each target site, oldest first. */
const listLinks = (targets: ReadonlyArray<Target>, changeRequestId: string) =>
  Effect.gen(function*() {
    const client = yield* QuireApi
    const lists = yield* Effect.forEach(targets, (target) =>
      client.sitePreview.listSitePreviewShareLinks({ params: { organizationId: target.organizationId, siteId: target.siteId, changeRequestId } }).pipe(
        Effect.map((answer) => answer.items.filter((item) => item.active).map((item): PreviewLink => ({ id: item.id, createdAt: item.createdAt, url: item.urls.published, target }))),
        Effect.orElseSucceed((): ReadonlyArray<PreviewLink> => [])
      ), { concurrency: 4 })
    return lists.flat()
  })

const revokeLink = (link: PreviewLink, changeRequestId: string) =>
  Effect.gen(function*() {
    const client = yield* QuireApi
    yield* client.sitePreview.deleteSitePreviewShareLink({ params: { organizationId: link.target.organizationId, siteId: link.target.siteId, changeRequestId, shareLinkId: link.id } })
  })

export const ChangePreview = (props: { readonly spaceId: string; readonly changeRequestId: string; readonly status: string }) => {
  const registry = useRegistry()
  const space = useAtomValue(spaceAtom(props.spaceId))
  const organizationId = AsyncResult.isSuccess(space) ? space.value.organization : undefined
  const closed = props.status === "merged" || props.status === "archived"
  const [targets, setTargets] = useState<ReadonlyArray<Target> | undefined>(undefined)
  const [said, setSaid] = useState<{ readonly text: string; readonly error: boolean } | undefined>(undefined)
  const [link, setLink] = useState<string | undefined>(undefined)
  const [links, setLinks] = useState<ReadonlyArray<PreviewLink>>([])
  const reloadLinks = useCallback((found: ReadonlyArray<Target>) =>
    callApi(registry, listLinks(found, props.changeRequestId)).then(setLinks, () => undefined), [registry, props.changeRequestId])
  useEffect(() => {
    if (organizationId === undefined || closed) return
    let live = true
    callApi(registry, previewTargets(organizationId, props.spaceId, props.changeRequestId)).then(
      (found) => {
        if (!live) return
        setTargets(found)
        void reloadLinks(found)
      },
      () => { if (live) setTargets([]) }
    )
    return () => { live = false }
  }, [registry, organizationId, props.spaceId, props.changeRequestId, closed, reloadLinks])
  if (closed || targets === undefined || targets.length === 0) return null
  const copy = async (target: Target) => {
    setSaid(undefined)
    try {
      const url = await callApi(registry, createLink(target, props.changeRequestId))
      setLink(url)
      void reloadLinks(targets)
      try {
        await navigator.clipboard.writeText(url)
        setSaid({ text: "Copied a preview link: anyone holding it reads this preview", error: false })
      } catch {
        setSaid({ text: "Preview link created: select it below to copy it", error: false })
      }
    } catch (failure) {
      setSaid({ text: `Could not create a preview link: ${errorText(failure)}`, error: true })
    }
  }
  const revoke = async (revoked: PreviewLink) => {
    setSaid(undefined)
    try {
      await callApi(registry, revokeLink(revoked, props.changeRequestId))
      if (link !== undefined && link === revoked.url) setLink(undefined)
      setSaid({ text: `Revoked the preview link created ${formatTime(revoked.createdAt)}: it no longer opens the preview`, error: false })
      await reloadLinks(targets)
    } catch (failure) {
      setSaid({ text: `Could not revoke the preview link: ${errorText(failure)}`, error: true })
    }
  }
  return (
    <div className="cr-preview">
      {targets.map((target) => (
        <span key={target.siteId} className="cr-preview-site">
          <a className="button" href={target.url} target="_blank" rel="noopener">
            Preview{targets.length > 1 ? ` on ${target.title}` : ""}
          </a>
          <button type="button" onClick={() => void copy(target)}>Copy preview link{targets.length > 1 ? ` (${target.title})` : ""}</button>
        </span>
      ))}
      {said === undefined ? null : <p className={said.error ? "form-error" : "muted"} role={said.error ? "alert" : "status"}>{said.text}</p>}
      {link === undefined ? null : (
        <label className="cr-preview-link">
          <span className="visually-hidden">Preview link</span>
          <input readOnly value={link} onFocus={(event) => event.target.select()} />
        </label>
      )}
      {links.length === 0 ? null : (
        <ul className="cr-preview-links" aria-label="Preview links">
          {links.map((item) => (
            <li key={item.id}>
              <span>Link{targets.length > 1 ? ` on ${item.target.title}` : ""} created {formatTime(item.createdAt)}</span>{" "}
              <button type="button" onClick={() => void revoke(item)} aria-label={`Revoke the preview link created ${formatTime(item.createdAt)}`}>Revoke</button>
            </li>
          ))}
        </ul>
      )}
    </div>
  )
}
