import { liquidAtomNode } from "../shared/liquid-atom.ts"

/** `{% openapi-operation spec="…" path="…" method="…" %}` with its link up to `{% endopenapi-operation %}`. */
export const OpenapiOperation = liquidAtomNode("openapiOperation", "openapi-operation")
