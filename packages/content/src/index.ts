/**
 * @quire/content: domain package, wired into the workspace and ready for its issue. It declares its
 * service interfaces here, with memory and Postgres adapters beside them, and knows nothing of HTTP.
 */
export const packageName = "@quire/content"

export * as Access from "./Access.ts"
export { Collections } from "./Collections.ts"
export type { CollectionUpdate, CreateCollectionInput, MoveCollectionInput } from "./Collections.ts"
export { CollectionsRepo } from "./CollectionsRepo.ts"
export * as Content from "./Content.ts"
export { ContentAccess } from "./ContentAccess.ts"
export type { CollectionAccess, OrganizationAccessResolver, SpaceAccess } from "./ContentAccess.ts"
export { imageDimensions } from "./domain/ImageSize.ts"
export type { Dimensions } from "./domain/ImageSize.ts"
export type { ContentRef, FileNode, PageLayout, PageNode, PageType, Revision, RevisionGit, RevisionType } from "./domain/Revision.ts"
export { documentHash, flattenPages } from "./domain/Revision.ts"
export * from "./domain/Space.ts"
export { OutboundFetch } from "./importing/OutboundFetch.ts"
export { Memberships } from "./Memberships.ts"
export { migrations } from "./migrations/index.ts"
export type { ContentPointer, ContentPosition } from "./Placement.ts"
export { RevisionsRepo } from "./RevisionsRepo.ts"
export { Spaces } from "./Spaces.ts"
export type { CreateSpaceInput, MemberSpace, MoveInput, SpaceUpdate } from "./Spaces.ts"
export { SpacesRepo } from "./SpacesRepo.ts"
