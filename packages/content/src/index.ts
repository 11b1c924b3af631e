/**
 * @quire/content: domain package, wired into the workspace and ready for its issue. It declares its
 * service interfaces here, with memory and Postgres adapters beside them, and knows nothing of HTTP.
 */
export * as Access from "./Access.ts"
export { BlobStore, blobHash } from "./BlobStore.ts"
export type { BlobLink, BlobResponse, BlobStream } from "./BlobStore.ts"
export * as BlobStoreS3 from "./BlobStoreS3.ts"
export { Collections } from "./Collections.ts"
export type { CollectionUpdate, CreateCollectionInput, MoveCollectionInput } from "./Collections.ts"
export { CollectionsRepo } from "./CollectionsRepo.ts"
export * as ContentLayers from "./ContentLayers.ts"
export { ContentAccess } from "./ContentAccess.ts"
export { ContentLinks, pageLinkContext, revisionLinkIndex, type RevisionLinkIndex } from "./ContentLinks.ts"
export { ContentPermissions } from "./ContentPermissions.ts"
export type { Invitation, PermissionList, TeamPermission, UserPermission } from "./ContentPermissions.ts"
export type { BacklinkList, LinkGraph, LinkItem, LinkList, LocatedPage } from "./ContentLinks.ts"
export type { CollectionAccess, OrganizationAccessResolver, SpaceAccess } from "./ContentAccess.ts"
export { imageDimensions } from "./domain/ImageSize.ts"
export type { Dimensions } from "./domain/ImageSize.ts"
export { contentTypeOf, isMediaType } from "./domain/MediaType.ts"
export type { Revision } from "./domain/Revision.ts"
export {
  ContentRef,
  CoverSize,
  documentHash,
  FileNode,
  flattenPages,
  GitBlob,
  hiddenPath,
  PageCover,
  PageLayout,
  PageNode,
  PageType,
  PageWidth,
  ReusableContentNode,
  RevisionGit,
  RevisionType,
  validSlug,
  Variables
} from "./domain/Revision.ts"
export { coverRefOf, frontmatterLayout, layoutOfFrontmatter, layoutVisibilityKeys, markdownWithFrontmatter, modelledKeys, pageFrontmatterBlock, pageFrontmatterOf } from "./domain/PageFrontmatter.ts"
export type { PageFrontmatter } from "./domain/PageFrontmatter.ts"
export { insertedPageKind } from "./domain/PageKinds.ts"
export type { PageKindInput, PageKindOutcome } from "./domain/PageKinds.ts"
export { checkRevisionLimits, defaultRevisionLimits, partBytes } from "./domain/RevisionLimits.ts"
export { maxReusableContents, maxReusableContentTitle, reusableDocuments } from "./domain/ReusableContent.ts"
export { expandWith, findReusableContent, includeRefs } from "./markdown/IncludeTags.ts"
export { withIncludes } from "./markdown/Includes.ts"
export type { RevisionLimits } from "./domain/RevisionLimits.ts"
export * from "./domain/Space.ts"
export { MainObservers } from "./MainObservers.ts"
export type { MainObserversShape } from "./MainObservers.ts"
export { memberKeyShape, Memberships } from "./Memberships.ts"
export type { OrganizationMember } from "./Memberships.ts"
export { PermissionsRepo } from "./PermissionsRepo.ts"
export type { Grant, Principal, PrincipalKind, Target, TargetKind } from "./PermissionsRepo.ts"
export { migrations } from "./migrations/index.ts"
export { PublishedContent } from "./PublishedContent.ts"
export type { PublishedContentShape } from "./PublishedContent.ts"
export type { ContentPointer, ContentPosition } from "./Placement.ts"
export { type RevisionHeader, RevisionsRepo } from "./RevisionsRepo.ts"
export { AskEmbeddings, type AskEmbeddingsShape, cosine } from "./ask/AskEmbeddings.ts"
export { AskModel, AskModelError, type AskModelShape, notConfigured } from "./ask/AskModel.ts"
export { PassageVectors, type PassageVectorsShape } from "./ask/PassageVectors.ts"
export {
  type AskBounds,
  citedIn,
  citedNumbers,
  clip,
  defaultBounds,
  type Finder,
  type FindOptions,
  keywordsOf,
  maxQuestion,
  passagesOf,
  rankPages,
  type Similarity,
  stemOf
} from "./ask/Retrieval.ts"
export {
  extractiveAnswer,
  questionsOf,
  questionsOfPages,
  type AskContext,
  OrganizationAsk,
  type OrganizationAnswer,
  type OrganizationAskFailure,
  type OrganizationAskShape,
  type OrganizationAskSource
} from "./ask/OrganizationAsk.ts"
export { indexedPage, indexUpdate, Search, viewableSpaces } from "./Search.ts"
export type { PageResult, SearchRequest, SectionResult, SpaceResults } from "./Search.ts"
export { pageResult } from "./Search.ts"
export { SearchIndex } from "./SearchIndex.ts"
export type { IndexedPage, PageHit, SearchHits } from "./SearchIndex.ts"
export { Spaces } from "./Spaces.ts"
export { StorageUsageRepo } from "./StorageUsageRepo.ts"
export type { CreateSpaceInput, MemberSpace, MoveInput, SpaceUpdate } from "./Spaces.ts"
export { breather } from "./markdown/Breather.ts"
export { ParsePool } from "./markdown/ParsePool.ts"
export type { ParsePoolOptions, ParsePoolShape, PoolState } from "./markdown/ParsePool.ts"
export type { JsonBlock, JsonDocument } from "./markdown/JsonDocument.ts"
export { documentBreach, type DocumentBreach, maxDocumentDepth } from "./markdown/DocumentCheck.ts"
export type { LinkTarget } from "@quire/markdown"
export { htmlLinks, parseHtml } from "./markdown/Dom.ts"
export type { DomDocument, DomElement } from "./markdown/Dom.ts"
// A page's links as content reads them (pass `htmlLinks`), for apps that do not depend on @quire/markdown.
export { classifyLinks, links } from "@quire/markdown"
// The markdown limits every page written meets (as `checkRevisionLimits` applies them), for live editing to refuse an edit past one.
export { describeBreach, markdownLimitBreach } from "@quire/markdown"
export { checkTree, ensureWritable, RevisionWriter } from "./RevisionWriter.ts"
export type { ContentChange, Head, HeadState, WriteOptions, Written } from "./RevisionWriter.ts"
export { markdownDocument } from "./markdown/DocumentCodec.ts"
export { documentPageMarkdown, pageDocument, pageDocumentEffect, SpaceContent } from "./SpaceContent.ts"
export { dereferenceReusableContents, type ReusableDocuments } from "./markdown/Dereference.ts"
export type { ChangeList, ChangesOptions, CommitOptions, CurrentContent, FetchedWebsite, FileContent, ImportResult, MainHead, NewFile, NewFileStream, PageContent, PageEntryContent, RevisionPage, RevisionPageEntry } from "./SpaceContent.ts"
export type { DocumentSource, ReusableContent, RevisionReusableContent } from "./SpaceContent.ts"
export { compare as compareRevisions, emptyContents, lineDiff } from "./RevisionChanges.ts"
export type { AttributeChange } from "./AttributeChange.ts"
export type { ChangedPage, FileAttribute, PageAttributes, SemanticChange } from "./RevisionChanges.ts"
export type { ChangedReusableContent, ReusableContentChange } from "./ReusableContentChanges.ts"
export { SpaceDependents } from "./SpaceDependents.ts"
export type { SpaceDependentsShape } from "./SpaceDependents.ts"
export { SpacesRepo } from "./SpacesRepo.ts"
export { templates } from "./templates/Templates.ts"
export type { Template } from "./templates/Templates.ts"
/** One page of the items a check keeps, fetching on until it is full (listings filtered after reading). */
export { visiblePage } from "./Tree.ts"
export { ArchiveLimitsConfig, Imports, importTask } from "./Imports.ts"
export { ImportBranches } from "./ImportBranches.ts"
export type { ImportRunsQuery, ImportsShape, ImportUpload, StartImportInput } from "./Imports.ts"
export { ImportRunsRepo } from "./ImportRunsRepo.ts"
export * from "./domain/ImportRun.ts"
export { Freshness, organizationSpaceLimit, type SpaceFreshness, todayOf } from "./freshness/Freshness.ts"
export { dayOf, freshnessKey, type FreshnessState, intervalDaysOf, pageFreshness, type PageFreshness, type PageFreshnessEntry, revisionFreshness, withFreshness } from "./freshness/PageFreshness.ts"
