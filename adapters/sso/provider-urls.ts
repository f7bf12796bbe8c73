import { Effect } from "effect"
import { ConnectionInvalid } from "../../core/index.ts"

const loopbackHosts = /^(?:localhost|127(?:\.\d{1,3}){3}|\[::1\])$/iu

/**
 * Whether Roster may send browsers and requests to `url`: https anywhere; plain http only on
 * loopback, or anywhere when private networks are allowed (`ROSTER_WEBHOOK_ALLOW_PRIVATE=on`).
 */
export const providerUrlAllowed = (url: string, allowHttp: boolean): boolean => {
  try {
    const parsed = new URL(url)
    if (parsed.protocol === "https:") return true
    return parsed.protocol === "http:" && (allowHttp || loopbackHosts.test(parsed.hostname))
  } catch {
    return false
  }
}

export const checkProviderUrl = (url: string, field: string, allowHttp: boolean) =>
  providerUrlAllowed(url, allowHttp)
    ? Effect.void
    : Effect.fail(
        new ConnectionInvalid({
          field,
          message:
            "Expected an https URL (plain http only on loopback, or with ROSTER_WEBHOOK_ALLOW_PRIVATE=on)"
        })
      )
