import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import Provider from "oidc-provider"

export interface OidcAccount {
  readonly email?: string
  readonly emailVerified?: boolean
}

export interface TestOidcIdp {
  readonly issuer: string
  readonly clientId: string
  readonly clientSecret: string
  /** The people it signs in, by login (their `sub`); a test adds some as it goes. */
  readonly accounts: Map<string, OidcAccount>
  readonly close: () => Promise<void>
}

/**
 * A certified OpenID provider (`oidc-provider`) on loopback, with one confidential client for
 * Roster and its own login form (any password), driven like a browser by the tests.
 */
export const startOidcIdp = async (redirectUri: string): Promise<TestOidcIdp> => {
  const accounts = new Map<string, OidcAccount>()
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const clientSecret = "oidc-test-client-secret-0123456789abcdef"
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: "roster",
        client_secret: clientSecret,
        redirect_uris: [redirectUri],
        grant_types: ["authorization_code"],
        response_types: ["code"]
      }
    ],
    claims: { openid: ["sub"], email: ["email", "email_verified"] },
    cookies: { keys: ["oidc test cookie key"] },
    pkce: { required: () => true },
    findAccount: async (_context, id) => {
      const account = accounts.get(id)
      if (account === undefined) return undefined
      return {
        accountId: id,
        claims: async () => ({
          sub: id,
          ...(account.email === undefined
            ? {}
            : { email: account.email, email_verified: account.emailVerified ?? true })
        })
      }
    }
  })
  server.on("request", provider.callback())
  return {
    issuer,
    clientId: "roster",
    clientSecret,
    accounts,
    close: () => new Promise<void>((resolve) => server.close(() => resolve()))
  }
}
