import { assert, describe, it } from "@effect/vitest"
import { DateTime, Duration } from "effect"
import { secondsUntilAllowed, slidingCount, throttleClientOf, windowAt } from "../../core/index.ts"

describe("throttleClientOf", () => {
  it("keeps IPv4 addresses and unparsable names as they are", () => {
    assert.strictEqual(throttleClientOf("203.0.113.7"), "203.0.113.7")
    assert.strictEqual(throttleClientOf("unknown"), "unknown")
    assert.strictEqual(throttleClientOf("1::2::3"), "1::2::3")
    assert.strictEqual(throttleClientOf("64:ff9b::192.0.2.1"), "64:ff9b::192.0.2.1", "a dotted IPv6 form")
    assert.strictEqual(throttleClientOf("host.example"), "host.example")
  })

  it("counts IPv6 addresses by their /64, whatever their spelling", () => {
    const group = "2001:db8:0:2::/64"
    for (const address of [
      "2001:db8:0:2::1",
      "2001:0DB8:0000:0002:ffff:ffff:ffff:ffff",
      "[2001:db8::2:0:0:0:1]",
      "2001:db8:0:2::1%eth0"
    ])
      assert.strictEqual(throttleClientOf(address), group, address)
    assert.strictEqual(throttleClientOf("::1"), "0:0:0:0::/64")
    assert.notStrictEqual(throttleClientOf("2001:db8:0:3::1"), group)
  })

  it("counts an IPv4-mapped IPv6 address as the IPv4 address", () => {
    assert.strictEqual(throttleClientOf("::ffff:198.51.100.4"), "198.51.100.4")
  })

  it("reads every spelling of a full or shortened address, and keeps what is no address as given", () => {
    const cases: ReadonlyArray<readonly [string, string]> = [
      ["::", "0:0:0:0::/64"],
      ["1::", "1:0:0:0::/64"],
      ["1:2:3:4:5:6:7:8", "1:2:3:4::/64"],
      ["1:2:3:4:5:6:7", "1:2:3:4:5:6:7"],
      ["1:2:3:4:5:6:7::8", "1:2:3:4:5:6:7::8"],
      ["12345::1", "12345::1"],
      ["abcdg::1", "abcdg::1"],
      ["2001:db8::[1]", "2001:db8::[1]"],
      ["[2001:db8::]1", "[2001:db8::]1"],
      ["::ffff:198.51.100.4:1", "::ffff:198.51.100.4:1"],
      ["1::ffff:198.51.100.4", "1::ffff:198.51.100.4"]
    ]
    for (const [address, counted] of cases) assert.strictEqual(throttleClientOf(address), counted, address)
  })
})

describe("sliding windows", () => {
  const size = Duration.minutes(10)
  const at = (minutes: number) => windowAt(DateTime.makeUnsafe(minutes * 60_000), size)

  it("weighs the previous window by the part of it still within one window length", () => {
    assert.strictEqual(slidingCount(at(0), 1, 4), 5)
    assert.closeTo(slidingCount(at(12.5), 1, 4), 4, 1e-9)
    assert.strictEqual(slidingCount(at(19.99999), 0, 4) < 0.001, true)
  })

  it("tells how long until one more attempt fits, and no longer", () => {
    // 3 of 3 counted just now at the start of a window: the next attempt fits once 1 has slid away
    // in the next window, i.e. 10 + 10 × (1 − 2/3) minutes from now.
    const now = at(20)
    const wait = secondsUntilAllowed(now, 3, 0, 3)
    assert.strictEqual(wait, 800)
    const then = windowAt(DateTime.makeUnsafe(20 * 60_000 + wait * 1000), size)
    assert.isAtMost(slidingCount(then, 1, 3), 3)
    const sooner = windowAt(DateTime.makeUnsafe(20 * 60_000 + (wait - 2) * 1000), size)
    assert.isAbove(slidingCount(sooner, 1, 3), 3)
    // Room in this window: only the previous window's weight has to fall.
    assert.strictEqual(secondsUntilAllowed(at(21), 1, 3, 3), 400 - 60)
    // Room, and nothing before: at once (the shortest wait there is).
    assert.strictEqual(secondsUntilAllowed(at(21), 1, 0, 3), 1)
    assert.strictEqual(secondsUntilAllowed(at(21), 2, 0, 3), 1)
  })

  it("aligns windows to the epoch: each ends where the next starts, a counter kept through the next", () => {
    const window = windowAt(DateTime.makeUnsafe(25 * 60_000), size)
    assert.deepStrictEqual(
      [window.previousStart, window.start, window.end, window.keepUntil].map(DateTime.toEpochMillis),
      [10 * 60_000, 20 * 60_000, 30 * 60_000, 40 * 60_000]
    )
    assert.strictEqual(window.elapsedMillis, 5 * 60_000)
  })
})
