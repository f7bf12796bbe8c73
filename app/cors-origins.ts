import { isLoopbackName } from "../adapters/http/index.ts"

/**
 * `ROSTER_CORS_ORIGINS`: origins listed one by one, each exactly as a browser sends it in `Origin`
 * (`https://app.example.com`, `http://localhost:5173`), so a request's origin is matched by one
 * lookup. Returns the origins, or why the list cannot be used.
 */
export const parseCorsOrigins = (
  value: string,
  openLocal: boolean
): { readonly origins: ReadonlyArray<string> } | { readonly problem: string } => {
  const entries = value
    .split(",")
    .map((entry) => entry.trim())
    .filter((entry) => entry !== "")
  if (entries.length === 0) return { problem: "ROSTER_CORS_ORIGINS is set but names no origin" }
  for (const entry of entries) {
    if (entry === "*" || entry === "null") {
      return { problem: `ROSTER_CORS_ORIGINS lists origins one by one; \`${entry}\` is not accepted` }
    }
    const url = URL.canParse(entry) ? new URL(entry) : undefined
    if (url === undefined || (url.protocol !== "https:" && url.protocol !== "http:")) {
      return { problem: `ROSTER_CORS_ORIGINS: ${entry} is not an http or https origin` }
    }
    if (url.origin !== entry) {
      return { problem: `ROSTER_CORS_ORIGINS: write ${entry} as a browser sends it: ${url.origin}` }
    }
    if (openLocal && !isLoopbackName(url.hostname)) {
      return {
        problem:
          `ROSTER_CORS_ORIGINS: ${entry} is not a loopback origin. In open local mode (no ROSTER_MASTER_KEY) ` +
          "every request without credentials has full access, so only pages on this machine are served. " +
          "Set ROSTER_MASTER_KEY to serve pages of other origins."
      }
    }
  }
  return { origins: [...new Set(entries)] }
}
