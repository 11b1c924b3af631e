/**
 * A published page's `{% include %}` tags expanded from its revision's reusable contents, before
 * it is rendered. The expansion itself is content's (`withIncludes`), shared with the search
 * index, the page's JSON document and its PDF.
 */
import type { Effect } from "effect"
import { withIncludes as expand, type PublishedContentShape, type Revision } from "@quire/content"

/** A page's markdown with the includes it names expanded from `revision`'s reusable contents. */
export const withIncludes = (
  markdown: string,
  revision: Revision,
  pageFile: string | undefined,
  documents: PublishedContentShape["documents"]
): Effect.Effect<string> => expand(markdown, revision.reusableContents, pageFile, documents)
