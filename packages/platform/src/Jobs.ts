/**
 * Every background job of Quire. The embedded server runs them in-process; in a PostgreSQL
 * deployment the server only enqueues them and `apps/worker` runs them.
 */
import type { JobDefinition } from "@quire/queue"
import { jobs as contentJobs } from "@quire/content/Jobs"
import { jobs as gatewayJobs } from "@quire/gateway/Jobs"
import { jobs as gitsyncJobs } from "@quire/gitsync/Jobs"
import { jobs as identityJobs } from "@quire/identity/Jobs"
import { jobs as sitesJobs } from "@quire/sites/Jobs"
import { jobs as translationsJobs } from "@quire/translations/Jobs"
import { jobs as specsJobs } from "@quire/specs/Jobs"
import { jobs as agentReviewJobs } from "./AgentReviewJob.ts"
import { jobs as notificationMailJobs } from "./NotificationMail.ts"
import type { Services } from "./Services.ts"

export const jobs: ReadonlyArray<JobDefinition<Services>> = [...identityJobs, ...contentJobs, ...gitsyncJobs, ...gatewayJobs, ...sitesJobs, ...specsJobs, ...translationsJobs, ...notificationMailJobs, ...agentReviewJobs]
