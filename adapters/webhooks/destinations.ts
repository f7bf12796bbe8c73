import { BlockList, isIP } from "node:net"

/**
 * Addresses no webhook may reach unless private networks are allowed: loopback, private,
 * link-local, unique-local, shared (carrier-grade NAT), unspecified, multicast and reserved ranges,
 * IPv4 ones also as IPv6 maps them.
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
  ["::", 128],
  ["::1", 128],
  ["fc00::", 7],
  ["fe80::", 10],
  ["ff00::", 8],
  ["64:ff9b::", 96]
] as const)
  unreachable.addSubnet(network, prefix, "ipv6")

/** Whether an IP address is one no webhook may be sent to. */
export const isPrivateAddress = (address: string): boolean => {
  const family = isIP(address)
  if (family === 0) return true
  return unreachable.check(address, family === 4 ? "ipv4" : "ipv6")
}

/** A URL's host as an IP address when it is one (IPv6 without its brackets), else undefined. */
export const literalAddress = (hostname: string): string | undefined => {
  const bare = hostname.startsWith("[") ? hostname.slice(1, -1) : hostname
  return isIP(bare) === 0 ? undefined : bare
}
