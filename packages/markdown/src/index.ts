/**
 * @quire/markdown: the markdown document model every package shares (frontmatter, title, blocks,
 * links, sections, slugs). Pure: no services, no I/O, nothing Node-only.
 */
export { alertsToHints, type AlertKind, hintStyles } from "./Alerts.ts"
export {
  fenceFrontmatter,
  frontmatterData,
  type FrontmatterData,
  type FrontmatterSplit,
  readFrontmatter,
  splitFrontmatter,
  yamlOf,
  yamlPair
} from "./Frontmatter.ts"
export {
  type ClassifiedLink,
  classifyLinks,
  type LinkContext,
  type LinkPlace,
  type LinkResolution,
  linkResolver,
  LinkStatus,
  type LinkStats,
  linkStats,
  type LinkTarget,
  resolveLink,
  type RevisionLinkContext,
  revisionLinkResolver
} from "./Links.ts"
export {
  eachLinkPiece,
  type HtmlLinks,
  type LineMap,
  linesFrom,
  linkCollector,
  type LinkPiece,
  links,
  type MarkdownLink,
  type PieceLinks,
  pieceLinks
} from "./MarkdownLinks.ts"
export {
  defaultMarkdownLimits,
  describeBreach,
  htmlNestingDepth,
  type MarkdownLimitBreach,
  markdownLimitBreach,
  markdownLimitNames,
  type MarkdownLimits,
  maxImportedHtmlDepth,
  plainTextMarkdown,
  withinLimits
} from "./MarkdownLimits.ts"
export {
  appendixOf,
  atxHeadingTitle,
  blockChunks,
  chunkLength,
  eachBlockChunk,
  excerpt,
  explicitHeadingId,
  gitbookAnchor,
  gitbookAnchorId,
  gitbookSlug,
  headingAnchor,
  type HeadingAnchors,
  headingAnchors,
  headingAnchorsOf,
  headingIds,
  type HeadingSlugger,
  headingSlugger,
  headingText,
  headingTitle,
  leadingTitle,
  lineCount,
  maxSlugLength,
  parseBlocks,
  parseBody,
  type ParsedDocument,
  parseDocument,
  parseMarkdown,
  parsePiece,
  type Piece,
  type PiecePlan,
  piecePlan,
  pieces,
  pieceSectionItems,
  plainText,
  plainTextTree,
  type Section,
  type SectionItem,
  sectionItems,
  sections,
  sectionSplitter,
  slugify,
  takeFreeId,
  uniqueSlug
} from "./Markdown.ts"
