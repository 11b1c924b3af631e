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
  type LinkResolution,
  linkResolver,
  LinkStatus,
  type LinkStats,
  linkStats,
  type LinkTarget,
  resolveLink
} from "./Links.ts"
export {
  appendixOf,
  atxHeadingTitle,
  blockChunks,
  chunkLength,
  eachBlockChunk,
  excerpt,
  gitbookAnchor,
  headingAnchor,
  headingIds,
  headingText,
  headingTitle,
  leadingTitle,
  type HtmlLinks,
  lineCount,
  linkCollector,
  links,
  type MarkdownLink,
  maxSlugLength,
  parseBlocks,
  parseBody,
  type ParsedDocument,
  parseDocument,
  parseMarkdown,
  parsePiece,
  type Piece,
  type PieceLinks,
  pieceLinks,
  type PiecePlan,
  piecePlan,
  pieces,
  pieceSectionItems,
  plainText,
  type Section,
  type SectionItem,
  sectionItems,
  sections,
  sectionSplitter,
  slugify,
  uniqueSlug
} from "./Markdown.ts"
