/** Plain words for a revision's semantic changes (GitBook's `getRevisionSemanticChanges`). */
import type { RevisionSemanticChange } from "@quire/api"

const titleOf = (page: { readonly title?: string | undefined }) => `“${page.title ?? "Untitled"}”`

const attributeNames: Record<string, string> = {
  title: "title", description: "description", slug: "address", document: "content", cover: "cover",
  emoji: "emoji", layout: "layout", variables: "variables", target: "link"
}

/** "content and title" from the attributes an edit changed. */
export const attributesWording = (attributes: object): string => {
  const names = Object.keys(attributes).map((key) => attributeNames[key] ?? key)
  if (names.length === 0) return ""
  if (names.length === 1) return names[0] ?? ""
  return `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`
}

/** One sentence per change: "Added page “Install”", "Edited page “Guide” (content)", … */
export const describeChange = (change: RevisionSemanticChange): string => {
  switch (change.type) {
    case "page_created": return `Added page ${titleOf(change.page)}`
    case "page_edited": {
      const what = attributesWording(change.attributes)
      return `Edited page ${titleOf(change.page)}${what === "" ? "" : ` (${what})`}`
    }
    case "page_deleted": return `Removed page ${titleOf(change.page)}`
    case "page_moved": {
      const to = change.parent.after
      return `Moved page ${titleOf(change.page)}${to === undefined || to === null ? " to the top level" : ` under ${titleOf(to)}`}`
    }
    case "file_created": return `Added file “${change.file.name}”`
    case "file_edited": return `Edited file “${change.file.name}”`
    case "file_deleted": return `Removed file “${change.file.name}”`
    case "reusable_content_created": return `Added reusable content ${titleOf(change.reusableContent)}`
    case "reusable_content_edited": return `Edited reusable content ${titleOf(change.reusableContent)}`
    case "reusable_content_deleted": return `Removed reusable content ${titleOf(change.reusableContent)}`
    case "variables_edited": return `Edited variables ${Object.keys(change.variables).join(", ")}`
  }
}

/** "3 pages changed" style summary of a list of changes. */
export const summarize = (changes: ReadonlyArray<RevisionSemanticChange>, more = 0): string => {
  const total = changes.length + more
  if (total === 0) return "No changes"
  return `${total} change${total === 1 ? "" : "s"}`
}
