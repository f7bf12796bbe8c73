import { Config, Effect, Option } from "effect"
import { readEnvironment, refuse } from "./startup-error.ts"

const environment = Config.all({
  dnsServers: Config.String("ROSTER_DNS_SERVERS").pipe(Config.option),
  returnUrls: Config.String("ROSTER_SSO_RETURN_URLS").pipe(Config.option)
})

/** Single sign-on's settings: whom proving a domain asks, and where a sign-in may return with its code. */
export interface SsoSettings {
  /** `ROSTER_DNS_SERVERS`, `host:port` comma-separated; the system's resolvers when none. */
  readonly dnsServers: ReadonlyArray<string>
  /** `ROSTER_SSO_RETURN_URLS`, URLs comma-separated: a product's pages a sign-in may return to. */
  readonly returnUrls: ReadonlyArray<string>
}

const listOf = (text: Option.Option<string>) =>
  Option.match(text, {
    onNone: () => [],
    onSome: (value) =>
      value
        .split(",")
        .map((item) => item.trim())
        .filter((item) => item !== "")
  })

const isHttpUrl = (text: string) => {
  try {
    const url = new URL(text)
    return (url.protocol === "https:" || url.protocol === "http:") && url.username === "" && url.hash === ""
  } catch {
    return false
  }
}

export const loadSsoSettings = Effect.gen(function* () {
  const env = yield* readEnvironment(environment)
  const dnsServers = listOf(env.dnsServers)
  if (dnsServers.some((server) => !/^(?:\[[0-9a-f:]+\]|[0-9.]+)(?::\d{1,5})?$/iu.test(server))) {
    return yield* refuse(
      "ROSTER_DNS_SERVERS must be IP addresses with optional ports, comma-separated (e.g. 127.0.0.1:5353)"
    )
  }
  const returnUrls = listOf(env.returnUrls)
  if (returnUrls.some((url) => !isHttpUrl(url))) {
    return yield* refuse(
      "ROSTER_SSO_RETURN_URLS must be http(s) URLs, comma-separated (e.g. https://app.example.com/sso)"
    )
  }
  const settings: SsoSettings = { dnsServers, returnUrls }
  return settings
})
