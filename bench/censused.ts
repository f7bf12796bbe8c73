// Serves `CENSUS_ENTRY` and, signalled twice (SIGUSR2), writes to `CENSUS_OUT` what its heap
// holds: JavaScriptCore's figures as the load left it and after a full collection, and what
// survived that collection summed by kind from a heap snapshot. `BALLAST_MB` holds that many
// megabytes first, to show what holding more costs under load. Used by `heap-census.ts`, never by
// the measured bench.
import { heapStats } from "bun:jsc"
import { writeFileSync } from "node:fs"

const ballast = new Uint8Array(Number(process.env.BALLAST_MB ?? 0) << 20).fill(1)

interface Snapshot {
  readonly snapshot: {
    readonly meta: { readonly node_fields: Array<string>; readonly node_types: [Array<string>] }
  }
  readonly nodes: Array<number>
  readonly strings: Array<string>
}

/** Bytes by kind: code, closures and strings as such, every other object by its class. */
const kindsOf = ({ snapshot, nodes, strings }: Snapshot) => {
  const fields = snapshot.meta.node_fields
  const type = fields.indexOf("type")
  const name = fields.indexOf("name")
  const size = fields.indexOf("self_size")
  const grouped = new Set(["code", "closure", "string", "concatenated string", "sliced string"])
  const kinds = new Map<string, { bytes: number; count: number }>()
  for (let at = 0; at < nodes.length; at += fields.length) {
    const typeName = snapshot.meta.node_types[0][nodes[at + type] as number] as string
    const kind = grouped.has(typeName) ? typeName : (strings[nodes[at + name] as number] ?? typeName)
    const entry = kinds.get(kind) ?? { bytes: 0, count: 0 }
    entry.bytes += nodes[at + size] as number
    entry.count++
    kinds.set(kind, entry)
  }
  return [...kinds].map(([kind, totals]) => ({ kind, ...totals })).sort((a, b) => b.bytes - a.bytes)
}

const figures = () => {
  const stats = heapStats()
  return {
    heapSize: stats.heapSize,
    heapCapacity: stats.heapCapacity,
    extraMemorySize: stats.extraMemorySize
  }
}

// The first signal notes the figures as the load left them; the second collects and counts.
let asLeft: ReturnType<typeof figures> | undefined
process.on("SIGUSR2", () => {
  if (asLeft === undefined) {
    asLeft = figures()
    return
  }
  Bun.gc(true)
  const collected = figures()
  const kinds = kindsOf(JSON.parse(Bun.generateHeapSnapshot("v8")) as Snapshot)
  writeFileSync(
    String(process.env.CENSUS_OUT),
    JSON.stringify({ asLeft, collected, kinds, ballast: ballast.length })
  )
})

await import(String(process.env.CENSUS_ENTRY))
