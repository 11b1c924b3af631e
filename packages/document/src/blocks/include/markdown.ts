import { liquidAtom } from "../shared/liquid-atom.ts"

export const include = liquidAtom("include", "include", "none")
