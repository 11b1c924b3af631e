import { liquidAtomView } from "../shared/liquid-view.ts"

export const openapiView = liquidAtomView("OpenAPI operation", "path")
