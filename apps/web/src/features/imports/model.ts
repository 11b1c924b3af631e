/** Words for an import run: its state, its step, its source. Pure, so the screen and its tests share them. */
import type { ContentImportRun } from "@quire/api"

export type SourceKind = "auto" | "markdown" | "confluence" | "notion" | "docx" | "website"

export const sourceKinds: ReadonlyArray<{ readonly value: SourceKind; readonly label: string }> = [
  { value: "auto", label: "Tell from the file" },
  { value: "confluence", label: "Confluence space export (HTML .zip)" },
  { value: "notion", label: "Notion export (Markdown & CSV .zip)" },
  { value: "docx", label: "Word document (.docx)" },
  { value: "markdown", label: "Markdown or HTML files (.zip, .md, .html; MkDocs, Docusaurus, Docsify)" },
  { value: "website", label: "A website (its URL)" }
]

export const isActive = (run: ContentImportRun) => run.status === "pending" || run.status === "in-progress"

const steps: Record<string, string> = {
  queued: "Queued",
  reading: "Reading the upload",
  fetching: "Fetching the website",
  converting: "Converting the pages",
  "storing files": "Storing the images",
  writing: "Writing the pages",
  written: "Pages written",
  done: "Done"
}

/** What the run is doing, or how it ended. */
export const runHeadline = (run: ContentImportRun): string => {
  switch (run.status) {
    case "pending":
      return "Queued"
    case "in-progress":
      return steps[run.progress.step] ?? run.progress.step
    case "completed":
      return `Imported ${run.pages.length} ${run.pages.length === 1 ? "page" : "pages"}${run.progress.files > 0 ? ` and ${run.progress.files} ${run.progress.files === 1 ? "image" : "images"}` : ""}`
    case "failed":
      return "Failed"
    case "cancelled":
      return "Cancelled"
  }
}

/** Where the run's content came from. */
export const sourceWords = (run: ContentImportRun): string =>
  run.source.type === "website" ? run.source.url : `${run.source.files.length} uploaded ${run.source.files.length === 1 ? "file" : "files"}`

/** How far the run is, out of 100. */
export const percent = (run: ContentImportRun): number =>
  run.status === "completed" ? 100 : run.progress.total === 0 ? 0 : Math.round((run.progress.done / run.progress.total) * 100)
