const browsers: ReadonlyArray<readonly [RegExp, string]> = [
  [/Edg\//u, "Edge"],
  [/OPR\//u, "Opera"],
  [/Firefox\//u, "Firefox"],
  [/Chrome\//u, "Chrome"],
  [/Safari\//u, "Safari"],
  [/^curl\//u, "curl"],
  [/^node|undici/u, "Node.js"]
]
const systems: ReadonlyArray<readonly [RegExp, string]> = [
  [/Android/u, "Android"],
  [/iPhone|iPad/u, "iOS"],
  [/Windows/u, "Windows"],
  [/Mac OS X|Macintosh/u, "macOS"],
  [/CrOS/u, "ChromeOS"],
  [/Linux/u, "Linux"]
]

/** A session's device in words ("Firefox on Linux") from its User-Agent; the text itself when unknown. */
export const deviceOf = (userAgent: string | null) => {
  if (userAgent === null || userAgent === "") return "Unknown device"
  const browser = browsers.find(([pattern]) => pattern.test(userAgent))?.[1]
  const system = systems.find(([pattern]) => pattern.test(userAgent))?.[1]
  if (browser === undefined) return userAgent.slice(0, 40)
  return system === undefined ? browser : `${browser} on ${system}`
}
