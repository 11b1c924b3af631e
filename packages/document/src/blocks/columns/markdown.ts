import { groupContainer } from "../shared/container.ts"

export const columns = groupContainer("columns", "columns", "column", "column")
