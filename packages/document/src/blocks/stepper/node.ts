import { containerNode } from "../shared/container.ts"

export const Stepper = containerNode("stepper", "step+", true, "stepper")
export const Step = containerNode("step", "block+", false, "step")
