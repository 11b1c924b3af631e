/**
 * Where the screen is, in the header: organization › collection(s) › space, then what the screen
 * adds (`BreadcrumbTail` in Frame.tsx: the page, or the change request and its state). One row:
 * on a narrow screen the first parts give way and each part truncates.
 */
import { AsyncResult } from "effect/reactivity"
import type { Ref } from "react"
import { organizationAtom, orgContentAtom, spaceAtom } from "../api/queries.ts"
import { useAtomValue } from "../api/react.ts"
import { emojiOf } from "../features/palette/Palette.tsx"
import { Link } from "./Link.tsx"

export interface Place {
  readonly organizationId: string
  readonly spaceId?: string | undefined
  readonly collectionId?: string | undefined
  /** Whether the organization's home, the collection or the space is the screen itself (nothing follows it). */
  readonly exact: boolean
}

/** The collections above `collectionId`, top first, itself included. */
const collectionsAbove = (collections: ReadonlyArray<{ readonly id: string; readonly title: string; readonly parent?: string | undefined }>, collectionId: string | undefined) => {
  const chain: Array<{ readonly id: string; readonly title: string }> = []
  const seen = new Set<string>()
  let id = collectionId
  while (id !== undefined && !seen.has(id)) {
    seen.add(id)
    const found = collections.find((c) => c.id === id)
    if (found === undefined) break
    chain.unshift(found)
    id = found.parent
  }
  return chain
}

type Collections = ReadonlyArray<{ readonly id: string; readonly title: string; readonly parent?: string | undefined }>

const CollectionCrumbs = (props: { readonly organizationId: string; readonly collections: Collections; readonly collectionId: string | undefined; readonly current: string | undefined }) =>
  collectionsAbove(props.collections, props.collectionId).map((collection) => (
    <li key={collection.id} className="crumb-item">
      <Link className="crumb" href={`/o/${props.organizationId}/c/${collection.id}`} aria-current={collection.id === props.current ? "page" : undefined}>{collection.title}</Link>
    </li>
  ))

/** The space's collections and the space. */
const SpaceCrumbs = (props: { readonly organizationId: string; readonly collections: Collections; readonly spaceId: string; readonly current: boolean }) => {
  const space = useAtomValue(spaceAtom(props.spaceId))
  if (!AsyncResult.isSuccess(space)) return <li className="crumb-item"><span className="crumb muted">…</span></li>
  return (
    <>
      <CollectionCrumbs organizationId={props.organizationId} collections={props.collections} collectionId={space.value.parent} current={undefined} />
      <li className="crumb-item">
        <Link className="crumb" href={`/s/${props.spaceId}`} aria-current={props.current ? "page" : undefined}>
          {`${emojiOf(space.value.emoji)} ${space.value.title}`.trim()}
        </Link>
      </li>
    </>
  )
}

export const Breadcrumbs = (props: { readonly place: Place; readonly label?: string | undefined; readonly tail: Ref<HTMLLIElement> }) => {
  const { place } = props
  const org = useAtomValue(organizationAtom(place.organizationId))
  const content = useAtomValue(orgContentAtom(place.organizationId))
  const collections = AsyncResult.isSuccess(content) ? content.value.collections : []
  const orgCurrent = place.exact && place.spaceId === undefined && place.collectionId === undefined
  return (
    <nav className="breadcrumbs" aria-label="Breadcrumb">
      <ol>
        <li className="crumb-item">
          <Link className="crumb" href={`/o/${place.organizationId}`} aria-current={orgCurrent ? "page" : undefined}>
            {AsyncResult.isSuccess(org) ? org.value.title : "Organization"}
          </Link>
        </li>
        {place.spaceId !== undefined
          ? <SpaceCrumbs organizationId={place.organizationId} collections={collections} spaceId={place.spaceId} current={place.exact} />
          : <CollectionCrumbs organizationId={place.organizationId} collections={collections} collectionId={place.collectionId} current={place.exact ? place.collectionId : undefined} />}
        {props.label === undefined ? null : <li className="crumb-item"><span className="crumb" aria-current="page">{props.label}</span></li>}
        <li className="crumb-item crumb-tail" ref={props.tail} />
      </ol>
    </nav>
  )
}
