import { liquidAtom } from "../shared/liquid-atom.ts"

export const file = liquidAtom("file", "file", "optional")
