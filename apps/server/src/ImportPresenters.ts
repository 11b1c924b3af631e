/** Import runs to GitBook's `ContentImportRun` shape. */
import type { ContentImportRun } from "@quire/api"
import type { ImportRun } from "@quire/content"
import type { PublicUrl } from "./PublicUrl.ts"

export const importRun = (urls: PublicUrl["Service"], run: ImportRun): ContentImportRun => ({
  object: "import-run",
  id: run.id,
  status: run.status,
  ...(run.reason === null ? {} : { reason: run.reason }),
  source: run.source,
  target: run.target,
  createdBy: run.createdBy,
  createdAt: run.createdAt.toISOString(),
  updatedAt: run.updatedAt.toISOString(),
  ...(run.startedAt === null ? {} : { startedAt: run.startedAt.toISOString() }),
  ...(run.completedAt === null ? {} : { completedAt: run.completedAt.toISOString() }),
  urls: { location: urls.api(`/org/${run.organizationId}/imports/${run.id}`) },
  pages: run.pages,
  progress: run.progress
})
