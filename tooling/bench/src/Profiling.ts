/**
 * Child side of CPU profiling: on `{ profile: "start" }` from the benchmark the V8 profiler
 * starts; on `{ profile: "stop", file }` the profile is written to `file`, so that only the
 * measured load is in it, not the process's start.
 */
import { Session } from "node:inspector/promises"
import { writeFile } from "node:fs/promises"

export type ProfileMessage = { readonly profile: "start" } | { readonly profile: "stop"; readonly file: string }

/** Answers the benchmark's profiling messages (no-op without an IPC channel). */
export const listen = (): void => {
  if (process.send === undefined) return
  const session = new Session()
  session.connect()
  process.on("message", (message: ProfileMessage) => {
    const done = (error?: unknown) => process.send?.({ profiled: message.profile, error: error === undefined ? undefined : String(error) })
    if (message.profile === "start") {
      session.post("Profiler.enable")
        .then(() => session.post("Profiler.setSamplingInterval", { interval: 500 }))
        .then(() => session.post("Profiler.start"))
        .then(() => done(), done)
    } else {
      session.post("Profiler.stop")
        .then(({ profile }) => writeFile(message.file, JSON.stringify(profile)))
        .then(() => done(), done)
    }
  })
  // The IPC channel must not keep the server alive once it is asked to stop.
  process.channel?.unref()
}
