import { blocksContainer } from "../shared/container.ts"

export const hint = blocksContainer("hint", "hint")
