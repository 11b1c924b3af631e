export * from "./JobQueue.ts"
export { type GraphileOptions, layerGraphile } from "./GraphileJobQueue.ts"
export { type InProcessOptions, layerInProcess } from "./InProcessJobQueue.ts"
