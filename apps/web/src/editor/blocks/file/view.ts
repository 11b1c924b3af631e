import { liquidAtomView } from "../shared/liquid-view.ts"

export const fileView = liquidAtomView("File", "src")
