/**
 * Storage for the in-memory audit trail, out of the garbage-collected heap: each entry is a few
 * numbers in typed columns (its time, and the index of each field a query filters on in a table of
 * the values seen, which repeat: organisations, actions, actors, targets) and its text (id, changes,
 * request id and key) as UTF-8 bytes in a shared buffer. ~180 bytes an entry, against ~560 that
 * its objects and strings took on the heap, where a stream of writes made the trail most of what
 * the process held.
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

const grown = <T extends Float64Array | Uint32Array>(
  column: T,
  needed: number,
  make: (size: number) => T
) => {
  if (needed <= column.length) return column
  const larger = make(Math.max(needed, column.length * 2))
  larger.set(column)
  return larger
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
  let times = new Float64Array(1024)
  let indices = new Uint32Array(1024 * stride)
  /** Per entry: its block, its start in it, its length. */
  let places = new Uint32Array(1024 * 3)
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
      times = grown(times, size + 1, (n) => new Float64Array(n))
      indices = grown(indices, (size + 1) * stride, (n) => new Uint32Array(n))
      places = grown(places, (size + 1) * 3, (n) => new Uint32Array(n))
      times[size] = at
      filteredFields.forEach((field, i) => {
        indices[size * stride + i] = tables[field].indexOf(fields[field])
      })
      places.set(store(text), size * 3)
      return size++
    },
    at: (entry: number) => times[entry] ?? 0,
    /** The index of `value` in `field`'s table, for comparing with `indexAt`; -1 if never seen. */
    find: (field: FilteredField, value: string) => tables[field].find(value),
    indexAt: (entry: number, field: FilteredField) => indices[entry * stride + columnOf[field]] ?? 0,
    valueAt: (entry: number, field: FilteredField) =>
      tables[field].valueAt(indices[entry * stride + columnOf[field]] ?? 0),
    textAt: (entry: number) => {
      const [block = 0, start = 0, length = 0] = places.subarray(entry * 3, entry * 3 + 3)
      return decoder.decode(blocks[block]?.subarray(start, start + length))
    }
  }
}

export type AuditColumns = ReturnType<typeof auditColumns>
