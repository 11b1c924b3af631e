/** The reviews package's schema. Its migrations table is its own: `quire_reviews_migrations`. */
import type { Effect } from "effect"
import type { SqlClient } from "effect/sql"
import { m0001_change_requests } from "./0001_change_requests.ts"
import { m0002_comments } from "./0002_comments.ts"
import { m0003_change_request_comments } from "./0003_change_request_comments.ts"
import { m0004_change_request_conflicts } from "./0004_change_request_conflicts.ts"
import { m0005_space_counters } from "./0005_space_counters.ts"
import { m0006_reviews } from "./0006_reviews.ts"
import { m0007_conflict_resolution } from "./0007_conflict_resolution.ts"
import { m0008_notifications } from "./0008_notifications.ts"
import { m0009_collab_documents } from "./0009_collab_documents.ts"
import { m0010_merged_by } from "./0010_merged_by.ts"
import { m0011_viewed_pages } from "./0011_viewed_pages.ts"
import { m0012_collab_bounds_and_authors } from "./0012_collab_bounds_and_authors.ts"
import { m0013_change_request_description } from "./0013_change_request_description.ts"
import { m0014_agent_conversations } from "./0014_agent_conversations.ts"
import { m0015_organization_agent_conversations } from "./0015_organization_agent_conversations.ts"
import { m0016_ai_log } from "./0016_ai_log.ts"
import { m0017_agent_reviewer } from "./0017_agent_reviewer.ts"

export const migrations: {
  readonly table: string
  readonly migrations: Readonly<Record<string, Effect.Effect<void, unknown, SqlClient.SqlClient>>>
} = {
  table: "quire_reviews_migrations",
  migrations: {
    "0001_change_requests": m0001_change_requests,
    "0002_comments": m0002_comments,
    "0003_change_request_comments": m0003_change_request_comments,
    "0004_change_request_conflicts": m0004_change_request_conflicts,
    "0005_space_counters": m0005_space_counters,
    "0006_reviews": m0006_reviews,
    "0007_conflict_resolution": m0007_conflict_resolution,
    "0008_notifications": m0008_notifications,
    "0009_collab_documents": m0009_collab_documents,
    "0010_merged_by": m0010_merged_by,
    "0011_viewed_pages": m0011_viewed_pages,
    "0012_collab_bounds_and_authors": m0012_collab_bounds_and_authors,
    "0013_change_request_description": m0013_change_request_description,
    "0014_agent_conversations": m0014_agent_conversations,
    "0015_organization_agent_conversations": m0015_organization_agent_conversations,
    "0016_ai_log": m0016_ai_log,
    "0017_agent_reviewer": m0017_agent_reviewer
  }
}
