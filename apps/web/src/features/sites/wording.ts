/** The words for a site's visibility (GitBook's `SiteVisibility`), on the organization's home and the site's screen. */
import type { Site } from "@quire/api"

export type Visibility = Site["visibility"]

export const visibilities: ReadonlyArray<{ readonly value: Visibility; readonly label: string; readonly description: string }> = [
  { value: "public", label: "Public", description: "Anyone can read it, and search engines index it." },
  { value: "unlisted", label: "Unlisted", description: "Anyone with its address can read it; search engines do not index it." },
  { value: "share-link", label: "Share links", description: "Only readers holding one of its share links." },
  { value: "visitor-auth", label: "Visitor authentication", description: "Only readers your sign-in service sends with a token signed by the site's key." }
]

export const visibilityLabel = (visibility: Visibility): string => visibilities.find((v) => v.value === visibility)?.label ?? visibility
