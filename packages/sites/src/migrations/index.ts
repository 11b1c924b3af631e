/** The sites package's schema. Its migrations table is its own: `quire_sites_migrations`. */
import type { Effect } from "effect"
import type { SqlClient } from "effect/sql"
import { m0001_sites } from "./0001_sites.ts"
import { m0002_visitor_fallback_url } from "./0002_visitor_fallback_url.ts"
import { m0003_sealed_share_links } from "./0003_sealed_share_links.ts"
import { m0004_site_redirects } from "./0004_site_redirects.ts"
import { m0005_site_permissions } from "./0005_site_permissions.ts"
import { m0006_site_events } from "./0006_site_events.ts"
import { m0007_hashed_share_keys_in_events } from "./0007_hashed_share_keys_in_events.ts"
import { m0008_site_questions } from "./0008_site_questions.ts"
import { m0009_site_agent } from "./0009_site_agent.ts"
import { m0010_site_findings } from "./0010_site_findings.ts"
import { m0011_styleguides } from "./0011_styleguides.ts"
import { m0012_site_structure_ops } from "./0012_site_structure_ops.ts"
import { m0013_fonts_hostnames } from "./0013_fonts_hostnames.ts"

export const migrations: {
  readonly table: string
  readonly migrations: Readonly<Record<string, Effect.Effect<void, unknown, SqlClient.SqlClient>>>
} = {
  table: "quire_sites_migrations",
  migrations: {
    "0001_sites": m0001_sites,
    "0002_visitor_fallback_url": m0002_visitor_fallback_url,
    "0003_sealed_share_links": m0003_sealed_share_links,
    "0004_site_redirects": m0004_site_redirects,
    "0005_site_permissions": m0005_site_permissions,
    "0006_site_events": m0006_site_events,
    "0007_hashed_share_keys_in_events": m0007_hashed_share_keys_in_events,
    "0008_site_questions": m0008_site_questions,
    "0009_site_agent": m0009_site_agent,
    "0010_site_findings": m0010_site_findings,
    "0011_styleguides": m0011_styleguides,
    "0012_site_structure_ops": m0012_site_structure_ops,
    "0013_fonts_hostnames": m0013_fonts_hostnames
  }
}
