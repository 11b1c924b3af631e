/** What each section of a spec's screen is given: the organization and the spec. */
import type { OpenAPISpec } from "@quire/api"

export interface SpecSectionProps {
  readonly organizationId: string
  readonly spec: OpenAPISpec
}
