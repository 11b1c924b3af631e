import { liquidAtom } from "../shared/liquid-atom.ts"

export const openapiOperation = liquidAtom("openapi-operation", "openapiOperation", "required")
