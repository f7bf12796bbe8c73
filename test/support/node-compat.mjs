// vitest 5 targets Node 22+; on Node 20 its reporter calls Map.groupBy, which arrived in Node 21.
if (typeof Map.groupBy !== "function") {
  Map.groupBy = (items, keyOf) => {
    const groups = new Map()
    let index = 0
    for (const item of items) {
      const key = keyOf(item, index++)
      const group = groups.get(key)
      if (group === undefined) groups.set(key, [item])
      else group.push(item)
    }
    return groups
  }
}
if (typeof Object.groupBy !== "function") {
  Object.groupBy = (items, keyOf) => Object.fromEntries(Map.groupBy(items, keyOf))
}
