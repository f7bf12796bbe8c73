import { request } from "node:http"

export interface RawAnswer {
  readonly status: number
  readonly headers: Record<string, string | Array<string> | undefined>
  readonly text: string
}

/**
 * Sends `target` as the request line's target, exactly as written (`//evil.example/…`, an
 * absolute-form URL, `*`), which `fetch` would normalise away: what an attacker's client sends.
 */
export const rawRequest = (
  port: number,
  method: string,
  target: string,
  headers: Record<string, string> = {},
  body?: string
) =>
  new Promise<RawAnswer>((resolve, reject) => {
    const sent = request({ host: "127.0.0.1", port, method, path: target, headers }, (answer) => {
      let text = ""
      answer.setEncoding("utf8")
      answer.on("data", (chunk) => (text += chunk))
      answer.on("end", () => resolve({ status: answer.statusCode ?? 0, headers: answer.headers, text }))
    })
    sent.on("error", reject)
    sent.end(body)
  })
