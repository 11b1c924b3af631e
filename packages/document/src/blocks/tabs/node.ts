import { containerNode } from "../shared/container.ts"

export const Tabs = containerNode("tabs", "tab+", true, "tabs")
/** One tab; its title is the `title` parameter. */
export const Tab = containerNode("tab", "block+", false, "tab")
