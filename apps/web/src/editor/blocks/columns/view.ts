import { titledView } from "../shared/titled-view.ts"

export const columnView = titledView("width", "Column width")
