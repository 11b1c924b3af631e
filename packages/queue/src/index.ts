export * from "./JobQueue.ts"
export { type GraphileOptions, layerGraphile } from "./GraphileJobQueue.ts"
export { type InProcessOptions, layerInProcess, layerInProcessDurable } from "./InProcessJobQueue.ts"
export { migrations } from "./migrations/index.ts"
