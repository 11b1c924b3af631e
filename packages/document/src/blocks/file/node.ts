import { liquidAtomNode } from "../shared/liquid-atom.ts"

/** `{% file src="…" %}`, optionally with a caption up to `{% endfile %}`. */
export const File = liquidAtomNode("file", "file")
