/**
 * "Preview" on a change request: the published sites that show its space, each opened as it would
 * be with the change request merged (`<site>/~/changes/<id>/`, readable with this session), and a
 * preview link to copy for someone without an account (revoked through the site-preview API).
 */
import { Effect, Option } from "effect"
import { AsyncResult } from "effect/reactivity"
import { useEffect, useState } from "react"
import { callApi } from "../../api/call.ts"
import { QuireApi } from "../../api/client.ts"
import { spaceAtom } from "../../api/queries.ts"
import { useAtomValue, useRegistry } from "../../api/react.ts"
import { errorText } from "../review/action.ts"

interface Target {
  readonly organizationId: string
  readonly siteId: string
  readonly title: string
  readonly url: string
}

/** The published sites of the organization that show the change request's space, with its preview URL on each. */
const previewTargets = (organizationId: string, changeRequestId: string) =>
  Effect.gen(function*() {
    const client = yield* QuireApi
    const sites = yield* client.sites.listSites({ params: { organizationId }, query: { limit: 100 } })
    const found = yield* Effect.forEach(sites.items.filter((site) => site.published), (site) =>
      client.sitePreview.getSitePublishingPreviewById({ params: { organizationId, siteId: site.id }, query: { changeRequest: changeRequestId } }).pipe(
        Effect.map((preview): Option.Option<Target> => Option.some({ organizationId, siteId: site.id, title: site.title, url: preview.url })),
        Effect.orElseSucceed(() => Option.none<Target>())
      ), { concurrency: 4 })
    return found.flatMap((target) => Option.isSome(target) ? [target.value] : [])
  })

const createLink = (target: Target, changeRequestId: string) =>
  Effect.gen(function*() {
    const client = yield* QuireApi
    const link = yield* client.sitePreview.createSitePreviewShareLink({ params: { organizationId: target.organizationId, siteId: target.siteId, changeRequestId } })
    return link.urls.published ?? ""
  })

export const ChangePreview = (props: { readonly spaceId: string; readonly changeRequestId: string; readonly status: string }) => {
  const registry = useRegistry()
  const space = useAtomValue(spaceAtom(props.spaceId))
  const organizationId = AsyncResult.isSuccess(space) ? space.value.organization : undefined
  const closed = props.status === "merged" || props.status === "archived"
  const [targets, setTargets] = useState<ReadonlyArray<Target> | undefined>(undefined)
  const [said, setSaid] = useState<{ readonly text: string; readonly error: boolean } | undefined>(undefined)
  const [link, setLink] = useState<string | undefined>(undefined)
  useEffect(() => {
    if (organizationId === undefined || closed) return
    let live = true
    callApi(registry, previewTargets(organizationId, props.changeRequestId)).then(
      (found) => { if (live) setTargets(found) },
      () => { if (live) setTargets([]) }
    )
    return () => { live = false }
  }, [registry, organizationId, props.changeRequestId, closed])
  if (closed || targets === undefined || targets.length === 0) return null
  const copy = async (target: Target) => {
    setSaid(undefined)
    try {
      const url = await callApi(registry, createLink(target, props.changeRequestId))
      setLink(url)
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
    </div>
  )
}
