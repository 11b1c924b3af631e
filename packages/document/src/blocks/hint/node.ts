import { containerNode } from "../shared/container.ts"

/** `{% hint style="info|success|warning|danger" %}`; the style is the `style` parameter. */
export const Hint = containerNode("hint", "block+", true, "hint")
