import { containerNode } from "../shared/container.ts"

export const Columns = containerNode("columns", "column+", true, "columns")
/** One column; its width is the `width` parameter. */
export const Column = containerNode("column", "block+", false, "column")
