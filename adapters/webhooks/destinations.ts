import { BlockList, isIP } from "node:net"

/**
 * Addresses no webhook may reach unless private networks are allowed: loopback, private,
 * link-local, unique-local and site-local, shared (carrier-grade NAT), unspecified, multicast and
 * reserved ranges. An IPv6 address that carries an IPv4 one (mapped, compatible, translated, NAT64,
 * 6to4) is judged by the IPv4 address it carries.
 */
const unreachable = new BlockList()
for (const [network, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4]
] as const)
  unreachable.addSubnet(network, prefix, "ipv4")
for (const [network, prefix] of [
  // IPv4-compatible addresses are deprecated (RFC 4291): none is a receiver's.
  ["::", 96],
  ["::1", 128],
  ["fc00::", 7],
  ["fe80::", 10],
  ["fec0::", 10],
  ["ff00::", 8],
  ["64:ff9b:1::", 48]
] as const)
  unreachable.addSubnet(network, prefix, "ipv6")

/** An IPv6 address as its eight 16-bit groups, a trailing dotted IPv4 part included. */
const groupsOf = (address: string): ReadonlyArray<number> | undefined => {
  const dotted = /^(.*:)(\d+\.\d+\.\d+\.\d+)$/u.exec(address)
  const text =
    dotted === null
      ? address
      : `${dotted[1]}${dotted[2]
          ?.split(".")
          .map(Number)
          .reduce<Array<string>>((hex, byte, i, all) => {
            if (i % 2 === 1) hex.push(((all[i - 1] ?? 0) * 256 + byte).toString(16))
            return hex
          }, [])
          .join(":")}`
  const [head = "", tail] = text.split("::")
  const headGroups = head === "" ? [] : head.split(":")
  const tailGroups = tail === undefined || tail === "" ? [] : tail.split(":")
  const missing = 8 - headGroups.length - tailGroups.length
  const groups = [...headGroups, ...Array<string>(tail === undefined ? 0 : missing).fill("0"), ...tailGroups]
  return groups.length === 8 ? groups.map((group) => Number.parseInt(group, 16)) : undefined
}

/** The IPv4 address an IPv6 address carries in its last 32 bits, by the prefixes that carry one. */
const carriedIpv4 = (address: string): string | undefined => {
  const groups = groupsOf(address)
  if (groups === undefined) return undefined
  const [a = 0, b = 0, c = 0, d = 0, e = 0, f = 0, g = 0, h = 0] = groups
  const last = (high: number, low: number) => `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`
  const zeros = (...values: ReadonlyArray<number>) => values.every((value) => value === 0)
  // ::ffff:0:0/96 (mapped), ::ffff:0:0:0/96 (translated), 64:ff9b::/96 (NAT64)
  if (zeros(a, b, c, d, e) && f === 0xffff) return last(g, h)
  if (zeros(a, b, c, d) && e === 0xffff && f === 0) return last(g, h)
  if (a === 0x64 && b === 0xff9b && zeros(c, d, e, f)) return last(g, h)
  // 2002::/16 (6to4) carries it in its second and third groups.
  if (a === 0x2002) return last(b, c)
  return undefined
}

/** Whether an IP address is one no webhook may be sent to. */
export const isPrivateAddress = (address: string): boolean => {
  const family = isIP(address)
  if (family === 0) return true
  if (family === 4) return unreachable.check(address, "ipv4")
  const carried = carriedIpv4(address.toLowerCase())
  if (unreachable.check(address, "ipv6")) return true
  return carried !== undefined && unreachable.check(carried, "ipv4")
}

/** A URL's host as an IP address when it is one (IPv6 without its brackets), else undefined. */
export const literalAddress = (hostname: string): string | undefined => {
  const bare = hostname.startsWith("[") ? hostname.slice(1, -1) : hostname
  return isIP(bare) === 0 ? undefined : bare
}
