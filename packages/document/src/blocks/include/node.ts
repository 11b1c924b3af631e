import { liquidAtomNode } from "../shared/liquid-atom.ts"

/** `{% include "…" %}`: reusable content by path or id. */
export const Include = liquidAtomNode("include", "include")
