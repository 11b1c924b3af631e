import { groupContainer } from "../shared/container.ts"

export const tabs = groupContainer("tabs", "tabs", "tab", "tab")
