import { liquidAtomNode } from "../shared/liquid-atom.ts"

/** `{% content-ref url="…" %}[title](url){% endcontent-ref %}`: a link to another page shown as a card. */
export const ContentRef = liquidAtomNode("contentRef", "content-ref")
