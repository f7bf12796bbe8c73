/**
 * A browser's round trips without a browser: it keeps each host's cookies (as a browser does, by
 * host; `Max-Age=0` removes one), follows redirects (303 and a redirected POST as GET), and answers
 * requests to `inProcess` origins by calling their handler instead of the network.
 */
export interface BrowserSession {
  readonly go: (
    url: string,
    init?: {
      readonly method?: string
      readonly form?: Record<string, string>
      readonly headers?: Record<string, string>
    }
  ) => Promise<Visited>
  /** The cookies kept for `host`, by name. */
  readonly cookies: (host: string) => Map<string, string>
}

export interface Visited {
  readonly url: string
  readonly status: number
  readonly text: string
  readonly headers: Headers
  /** Every URL the browser was sent to, in order, the first included. */
  readonly trail: ReadonlyArray<string>
}

export const browserSession = (
  inProcess: Record<string, (request: Request) => Promise<Response>>
): BrowserSession => {
  const jar = new Map<string, Map<string, string>>()
  const cookiesOf = (host: string) => {
    let cookies = jar.get(host)
    if (cookies === undefined) {
      cookies = new Map()
      jar.set(host, cookies)
    }
    return cookies
  }
  const keep = (host: string, response: Response) => {
    for (const line of response.headers.getSetCookie()) {
      const [pair = ""] = line.split(";")
      const equals = pair.indexOf("=")
      const name = pair.slice(0, equals).trim()
      const value = pair.slice(equals + 1).trim()
      if (/max-age=0(?:;|$)/iu.test(line) || value === "") cookiesOf(host).delete(name)
      else cookiesOf(host).set(name, value)
    }
  }
  const go: BrowserSession["go"] = async (start, init = {}) => {
    let url = start
    let method = init.method ?? (init.form === undefined ? "GET" : "POST")
    let body: string | undefined =
      init.form === undefined ? undefined : new URLSearchParams(init.form).toString()
    const trail: Array<string> = []
    for (let hops = 0; hops < 30; hops++) {
      trail.push(url)
      const target = new URL(url)
      const cookies = [...cookiesOf(target.host)].map(([name, value]) => `${name}=${value}`).join("; ")
      const headers = new Headers(init.headers)
      if (cookies !== "") headers.set("cookie", cookies)
      if (body !== undefined) headers.set("content-type", "application/x-www-form-urlencoded")
      const request = new Request(url, {
        method,
        headers,
        ...(body === undefined ? {} : { body }),
        redirect: "manual"
      })
      const handler = inProcess[target.origin]
      const response = handler === undefined ? await fetch(request) : await handler(request)
      keep(target.host, response)
      const location = response.headers.get("location")
      if (response.status >= 300 && response.status < 400 && location !== null) {
        url = new URL(location, url).toString()
        if (response.status === 303 || method === "POST") {
          method = "GET"
          body = undefined
        }
        continue
      }
      return { url, status: response.status, text: await response.text(), headers: response.headers, trail }
    }
    throw new Error(`more than 30 redirects from ${start}`)
  }
  return { go, cookies: cookiesOf }
}

/** The first form of a page: where it posts, and its fields (hidden ones included) with their values. */
export const formOf = (html: string, base: string) => {
  const form = /<form[^>]*action="([^"]*)"[^>]*>([\s\S]*?)<\/form>/iu.exec(html)
  if (form === null) throw new Error(`no form in ${html.slice(0, 300)}`)
  const fields: Record<string, string> = {}
  for (const [input] of (form[2] ?? "").matchAll(/<input[^>]*>/giu)) {
    const name = /name="([^"]*)"/iu.exec(input)?.[1]
    if (name !== undefined) fields[name] = decodeEntities(/value="([^"]*)"/iu.exec(input)?.[1] ?? "")
  }
  return { action: new URL(decodeEntities(form[1] ?? ""), base).toString(), fields }
}

const decodeEntities = (text: string) =>
  text
    .replaceAll("&amp;", "&")
    .replaceAll("&quot;", '"')
    .replaceAll("&#x3D;", "=")
    .replaceAll("&#x2F;", "/")
    .replaceAll("&#x2B;", "+")
    .replaceAll("&lt;", "<")
    .replaceAll("&gt;", ">")
    .replaceAll(/&#(\d+);/gu, (_, code: string) => String.fromCharCode(Number(code)))
