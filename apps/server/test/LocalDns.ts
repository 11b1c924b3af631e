/**
 * A tiny DNS server on a UDP port of 127.0.0.1 for tests: it answers A and CNAME questions from
 * `records`, which a test changes as it goes (NXDOMAIN for a name it does not know, an empty
 * answer for a type the name lacks). Just enough of RFC 1035 for node's resolver.
 */
import * as dgram from "node:dgram"
import type { AddressInfo } from "node:net"

export interface DnsRecords {
  cname?: string
  a?: ReadonlyArray<string>
}

const encodeName = (name: string): Buffer =>
  Buffer.concat([...name.replace(/\.$/, "").split(".").map((label) => Buffer.concat([Buffer.from([label.length]), Buffer.from(label, "ascii")])), Buffer.from([0])])

/** The question's name, type and where it ends. */
const question = (packet: Buffer) => {
  const labels: Array<string> = []
  let at = 12
  while (packet[at]! !== 0) {
    const length = packet[at]!
    labels.push(packet.subarray(at + 1, at + 1 + length).toString("ascii"))
    at += length + 1
  }
  at += 1
  return { name: labels.join(".").toLowerCase(), type: packet.readUInt16BE(at), end: at + 4 }
}

const record = (type: number, data: Buffer): Buffer => {
  const head = Buffer.alloc(12)
  head.writeUInt16BE(0xc00c, 0) // the question's name
  head.writeUInt16BE(type, 2)
  head.writeUInt16BE(1, 4) // IN
  head.writeUInt32BE(5, 6) // TTL
  head.writeUInt16BE(data.length, 10)
  return Buffer.concat([head, data])
}

export const startDns = async (records: Map<string, DnsRecords>) => {
  const socket = dgram.createSocket("udp4")
  socket.on("message", (packet, peer) => {
    const q = question(packet)
    const known = records.get(q.name)
    const answers: Array<Buffer> = []
    if (known?.cname !== undefined && (q.type === 5 || q.type === 1)) answers.push(record(5, encodeName(known.cname)))
    else if (known?.a !== undefined && q.type === 1) {
      for (const address of known.a) answers.push(record(1, Buffer.from(address.split(".").map(Number))))
    }
    const header = Buffer.alloc(12)
    packet.copy(header, 0, 0, 2) // id
    header.writeUInt16BE(known === undefined ? 0x8183 : 0x8180, 2) // a response; NXDOMAIN for an unknown name
    header.writeUInt16BE(1, 4)
    header.writeUInt16BE(answers.length, 6)
    socket.send(Buffer.concat([header, packet.subarray(12, q.end), ...answers]), peer.port, peer.address)
  })
  await new Promise<void>((resolve) => socket.bind(0, "127.0.0.1", resolve))
  return { server: `127.0.0.1:${(socket.address() as AddressInfo).port}`, close: () => socket.close() }
}
