export * from "./JobQueue.ts"
export { defaultLockTimeout, type GraphileOptions, layerGraphile, layerGraphileQueue } from "./GraphileJobQueue.ts"
export {
  InProcessJobs,
  type InProcessOptions,
  layerInProcess,
  layerInProcessDurable,
  layerInProcessDurableQueue,
  layerInProcessQueue,
  layerInProcessRunner
} from "./InProcessJobQueue.ts"
export { migrations } from "./migrations/index.ts"
export * as QueueDepth from "./QueueDepth.ts"
