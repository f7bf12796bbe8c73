import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import type { Browser, CDPSession, Page } from "playwright-core"
import { launchChromium } from "./chromium.ts"

/**
 * A blank page on `http://localhost:PORT`: WebAuthn's secure context whose host is a valid RP ID
 * (`localhost`; Chromium refuses `127.0.0.1` as one). The relying party's server is elsewhere: the
 * tests pass the options and answers between the page and the service themselves.
 */
export const startRelyingPartyPage = async () => {
  const server = createServer((_, response) => {
    response
      .writeHead(200, { "content-type": "text/html" })
      .end("<!doctype html><title>Relying party</title>")
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const origin = `http://localhost:${(server.address() as AddressInfo).port}`
  return { origin, close: () => new Promise<void>((resolve) => server.close(() => resolve())) }
}

export interface Authenticator {
  readonly page: Page
  readonly cdp: CDPSession
  readonly id: string
  /** `navigator.credentials.create` with the service's creation options; the browser's JSON answer. */
  readonly create: (options: unknown) => Promise<Record<string, unknown>>
  /** `navigator.credentials.get` with the service's request options; the browser's JSON answer. */
  readonly get: (options: unknown) => Promise<Record<string, unknown>>
  readonly credentials: () => Promise<ReadonlyArray<VirtualCredential>>
  readonly addCredential: (credential: VirtualCredential) => Promise<void>
}

export interface VirtualCredential {
  readonly credentialId: string
  readonly isResidentCredential: boolean
  readonly rpId?: string
  readonly privateKey: string
  readonly userHandle?: string
  readonly signCount: number
}

/**
 * Chromium's virtual authenticator on `page` (the DevTools Protocol's WebAuthn domain): CTAP2 over
 * the internal transport, resident keys, user verification that succeeds.
 */
export const addVirtualAuthenticator = async (page: Page) => {
  const cdp = await page.context().newCDPSession(page)
  await cdp.send("WebAuthn.enable", { enableUI: false })
  const { authenticatorId: id } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true
    }
  })
  return { cdp, id }
}

/**
 * A page at `origin` with Chromium's virtual authenticator, and the ceremonies run in it.
 */
export const openAuthenticator = async (browser: Browser, origin: string): Promise<Authenticator> => {
  const page = await browser.newPage()
  await page.goto(`${origin}/`)
  const { cdp, id } = await addVirtualAuthenticator(page)
  return {
    page,
    cdp,
    id,
    create: (options) =>
      page.evaluate(async (json) => {
        const publicKey = PublicKeyCredential.parseCreationOptionsFromJSON(json as never)
        const credential = (await navigator.credentials.create({ publicKey })) as PublicKeyCredential
        return credential.toJSON() as Record<string, unknown>
      }, options),
    get: (options) =>
      page.evaluate(async (json) => {
        const publicKey = PublicKeyCredential.parseRequestOptionsFromJSON(json as never)
        const credential = (await navigator.credentials.get({ publicKey })) as PublicKeyCredential
        return credential.toJSON() as Record<string, unknown>
      }, options),
    credentials: async () =>
      (await cdp.send("WebAuthn.getCredentials", { authenticatorId: id }))
        .credentials as Array<VirtualCredential>,
    addCredential: async (credential) => {
      await cdp.send("WebAuthn.addCredential", { authenticatorId: id, credential })
    }
  }
}

export { launchChromium }
