import { liquidAtomView } from "../shared/liquid-view.ts"

export const includeView = liquidAtomView("Reusable content", null)
