import { liquidAtomNode } from "../shared/liquid-atom.ts"

/** `{% embed url="…" %}`, optionally with a caption up to `{% endembed %}`. */
export const Embed = liquidAtomNode("embed", "embed")
