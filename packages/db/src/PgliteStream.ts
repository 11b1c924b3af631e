/**
 * The embedded database's connection: a stream the PostgreSQL client writes its protocol messages
 * to, each handed whole to PGlite and its answer pushed back, in this process. A socket server
 * between them copied what it had buffered of a message for every chunk that arrived, so a large
 * message cost the square of its size in copies; here each message is copied once.
 */
import type { PGlite } from "@electric-sql/pglite"
import { Duplex } from "node:stream"

/** The codes of the untyped messages a connection may start with (PostgreSQL's protocol). */
const protocolVersion3 = 196_608
const sslRequest = 80_877_103
const gssRequest = 80_877_104
const cancelRequest = 80_877_102
/** The message that ends a session (`X`). */
const terminate = 0x58

/** A promise settled at the event loop's next turn. */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve))

/** Bytes received and not yet taken as whole messages, kept as the chunks they came in. */
class Received {
  private chunks: Array<Buffer> = []
  private length = 0

  get size(): number {
    return this.length
  }

  push(chunk: Buffer): void {
    this.chunks.push(chunk)
    this.length += chunk.length
  }

  /** The big-endian 32-bit integer at `offset` (at most 4), when that many bytes are here. */
  int32At(offset: number): number | undefined {
    if (this.length < offset + 4) return undefined
    // A header split across chunks: the chunks it spans become one.
    while (this.chunks[0]!.length < offset + 4) {
      const [first, second, ...rest] = this.chunks
      this.chunks = [Buffer.concat([first!, second!]), ...rest]
    }
    return this.chunks[0]!.readInt32BE(offset)
  }

  /** The first `size` bytes (at most `size`), copied once into a buffer of their own and removed. */
  take(size: number): Buffer {
    const taken = Buffer.concat(this.chunks, size)
    let left = size
    while (left > 0) {
      const chunk = this.chunks[0]!
      if (chunk.length > left) {
        this.chunks[0] = chunk.subarray(left)
        left = 0
      } else {
        this.chunks.shift()
        left -= chunk.length
      }
    }
    this.length -= size
    return taken
  }
}

/**
 * A connection to `db` for `@effect/sql-pg` (its `stream` option). Messages run one at a time,
 * under PGlite's lock, in the order they were written; a connection closed inside a transaction
 * rolls it back, as PostgreSQL does for a connection that goes away. A cancel request is ignored
 * (PGlite cannot cancel a query) and its connection closed.
 */
export const pgliteStream = (db: PGlite): Duplex => {
  const received = new Received()
  let started = false
  let closed = false
  let queue: Promise<void> = Promise.resolve()
  const stream = new Duplex({
    read() {},
    write(chunk: Buffer, _encoding, callback) {
      received.push(chunk)
      for (let message = next(); message !== undefined; message = next()) {
        if (message[0] === terminate) close()
        else run(message)
      }
      callback()
    },
    final(callback) {
      close()
      void queue.then(() => callback(), callback)
    },
    destroy(error, callback) {
      close()
      callback(error)
    }
  })

  /** The session ends: what it left open in a transaction is rolled back before any other statement runs. */
  const close = () => {
    if (closed) return
    closed = true
    // `exec` takes PGlite's lock itself.
    if (started) queue = queue.then(() => db.isInTransaction() ? db.exec("ROLLBACK").then(() => undefined) : undefined).catch(() => undefined)
    void queue.then(() => stream.push(null))
  }

  /** The next whole message received, or undefined; answers the requests that may precede the startup message. */
  const next = (): Buffer | undefined => {
    if (started) {
      const length = received.int32At(1)
      return length === undefined || received.size < length + 1 ? undefined : received.take(length + 1)
    }
    const size = received.int32At(0)
    const code = received.int32At(4)
    if (size === undefined || code === undefined || received.size < size) return undefined
    if (code === sslRequest || code === gssRequest) {
      received.take(size)
      stream.push(Buffer.from("N"))
      return next()
    }
    if (code === cancelRequest) {
      received.take(size)
      process.nextTick(() => stream.destroy())
      return undefined
    }
    started = code === protocolVersion3
    return received.take(size)
  }

  const run = (message: Buffer) => {
    // Each message waits for a turn of the event loop, as one arriving on a socket would: the
    // answer is pushed at once and the client's next statement follows it, so a transaction of
    // many statements would otherwise run without letting timers and other requests in.
    queue = queue.then(nextTurn).then(() =>
      db.runExclusive(() =>
        db.execProtocolRawStream(message, {
          // PGlite lends a view of its memory: the answer is copied before it moves on.
          onRawData: (data) => {
            stream.push(Buffer.from(data))
          }
        })
      )
    ).catch((error: unknown) => {
      stream.destroy(error instanceof Error ? error : new Error(String(error)))
    })
  }

  return stream
}
