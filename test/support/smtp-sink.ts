import { SMTPServer } from "smtp-server"

export interface ReceivedMail {
  readonly from: string | undefined
  readonly to: ReadonlyArray<string>
  /** The message as the server received it (headers and body), transfer encodings undone. */
  readonly text: string
}

/** Undoes quoted-printable: soft line breaks, then `=XX` bytes (UTF-8). */
const fromQuotedPrintable = (body: string) =>
  Buffer.from(
    body
      .replace(/=\r?\n/gu, "")
      .replace(/=([0-9A-F]{2})/gu, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16))),
    "latin1"
  ).toString("utf8")

/**
 * A real SMTP server (the `smtp-server` package) on a free loopback port that keeps what it
 * receives: the mail a test sends through nodemailer arrives here as it would at a relay.
 */
export const startSmtpSink = async () => {
  const received: Array<ReceivedMail> = []
  const waiting: Array<() => void> = []
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onAuth: (auth, _session, callback) =>
      auth.username === "roster" && auth.password === "smtp-secret"
        ? callback(null, { user: auth.username })
        : callback(new Error("Invalid username or password")),
    onData: (stream, session, callback) => {
      const chunks: Array<Buffer> = []
      stream.on("data", (chunk: Buffer) => chunks.push(chunk))
      stream.on("end", () => {
        const raw = Buffer.concat(chunks).toString("utf8")
        received.push({
          from: session.envelope.mailFrom === false ? undefined : session.envelope.mailFrom.address,
          to: session.envelope.rcptTo.map((recipient) => recipient.address),
          text: /quoted-printable/iu.test(raw) ? fromQuotedPrintable(raw) : raw
        })
        for (const wake of waiting.splice(0)) wake()
        callback()
      })
    }
  })
  const port = await new Promise<number>((resolve, reject) => {
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const address = server.server.address()
      if (typeof address === "object" && address !== null) resolve(address.port)
      else reject(new Error("no port"))
    })
  })
  /** The next message, once it has arrived (at most `timeoutMs`). */
  const nextMessage = async (count: number, timeoutMs = 10_000) => {
    const deadline = Date.now() + timeoutMs
    while (received.length < count) {
      if (Date.now() > deadline) throw new Error(`No message #${count} within ${timeoutMs} ms`)
      await new Promise<void>((resolve) => {
        waiting.push(resolve)
        setTimeout(resolve, 100)
      })
    }
    return received[count - 1] as ReceivedMail
  }
  return {
    port,
    received: received as ReadonlyArray<ReceivedMail>,
    nextMessage,
    close: () => new Promise<void>((resolve) => server.close(() => resolve()))
  }
}
