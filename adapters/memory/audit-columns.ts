/**
 * Storage for the in-memory audit trail in typed arrays rather than objects: each entry is a few
 * numbers in columns (its time, and the index of each field a query filters on in a table of the
 * values seen, which repeat: organisations, actions, actors, targets) and its text (id, changes,
 * request id and key) as UTF-8 bytes in a shared buffer. ~130 bytes an entry, ~85 of them text,
 * against ~560 that its objects and strings took on the heap. Typed arrays still count in the size
 * the collector lets grow before it collects (under load, each megabyte held lets about two more of
 * garbage build up), and a stream of writes makes the trail most of what the process holds.
 */

/** The values of one field seen so far, each by its index; 0 stands for none. */
const valueTable = () => {
  const indices = new Map<string, number>()
  const values: Array<string | undefined> = [undefined]
  return {
    indexOf: (value: string | undefined) => {
      if (value === undefined) return 0
      let index = indices.get(value)
      if (index === undefined) {
        index = values.length
        values.push(value)
        indices.set(value, index)
      }
      return index
    },
    /** The index of `value`, without adding it: -1 when never seen, so that nothing matches. */
    find: (value: string) => indices.get(value) ?? -1,
    valueAt: (index: number) => values[index]
  }
}

/** The fields an entry is filtered on, in the order each row of indices holds them. */
export const filteredFields = [
  "organizationId",
  "action",
  "actorKind",
  "actorId",
  "targetType",
  "targetId"
] as const
export type FilteredField = (typeof filteredFields)[number]

/** Text bytes are kept in blocks of this size: growing never copies what is written. */
const blockSize = 1 << 20

/**
 * Entries' numbers are kept in chunks of this many entries, for the same reason: columns doubled
 * as they grew held up to twice what they used, and each doubling left the smaller copy as garbage.
 */
const chunkBits = 12
const chunkSize = 1 << chunkBits

interface Chunk {
  readonly times: Float64Array
  readonly indices: Uint32Array
  /** Per entry: its text's block, its start in it, its length. */
  readonly places: Uint32Array
}

export const auditColumns = () => {
  const tables = Object.fromEntries(filteredFields.map((field) => [field, valueTable()])) as Record<
    FilteredField,
    ReturnType<typeof valueTable>
  >
  const stride = filteredFields.length
  const columnOf = Object.fromEntries(filteredFields.map((field, i) => [field, i])) as Record<
    FilteredField,
    number
  >
  const chunks: Array<Chunk> = []
  const chunkOf = (entry: number) => chunks[entry >>> chunkBits] as Chunk
  const slotOf = (entry: number) => entry & (chunkSize - 1)
  const blocks: Array<Uint8Array> = []
  let used = 0
  let size = 0
  const encoder = new TextEncoder()
  const decoder = new TextDecoder()

  const store = (text: string) => {
    const bytes = encoder.encode(text)
    const current = blocks.at(-1)
    if (current === undefined || used + bytes.length > current.length) {
      blocks.push(new Uint8Array(Math.max(blockSize, bytes.length)))
      used = 0
    }
    blocks[blocks.length - 1]?.set(bytes, used)
    const place = [blocks.length - 1, used, bytes.length] as const
    used += bytes.length
    return place
  }

  return {
    get size() {
      return size
    },
    append: (at: number, fields: Record<FilteredField, string | undefined>, text: string) => {
      if (slotOf(size) === 0) {
        chunks.push({
          times: new Float64Array(chunkSize),
          indices: new Uint32Array(chunkSize * stride),
          places: new Uint32Array(chunkSize * 3)
        })
      }
      const chunk = chunkOf(size)
      const slot = slotOf(size)
      chunk.times[slot] = at
      filteredFields.forEach((field, i) => {
        chunk.indices[slot * stride + i] = tables[field].indexOf(fields[field])
      })
      chunk.places.set(store(text), slot * 3)
      return size++
    },
    at: (entry: number) => chunkOf(entry).times[slotOf(entry)] ?? 0,
    /** The index of `value` in `field`'s table, for comparing with `indexAt`; -1 if never seen. */
    find: (field: FilteredField, value: string) => tables[field].find(value),
    indexAt: (entry: number, field: FilteredField) =>
      chunkOf(entry).indices[slotOf(entry) * stride + columnOf[field]] ?? 0,
    valueAt: (entry: number, field: FilteredField) =>
      tables[field].valueAt(chunkOf(entry).indices[slotOf(entry) * stride + columnOf[field]] ?? 0),
    textAt: (entry: number) => {
      const slot = slotOf(entry)
      const [block = 0, start = 0, length = 0] = chunkOf(entry).places.subarray(slot * 3, slot * 3 + 3)
      return decoder.decode(blocks[block]?.subarray(start, start + length))
    }
  }
}

export type AuditColumns = ReturnType<typeof auditColumns>
