import { execFileSync } from "node:child_process"
import { chownSync, existsSync, mkdtempSync } from "node:fs"
import { createServer } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { startListening } from "./listening-process.ts"

/** Debian's `postgresql` package (`.ci/run` installs it). */
const bin = (name: string) => `/usr/lib/postgresql/15/bin/${name}`

/**
 * The command that runs `binary` as the `postgres` user when the tests run as root: the server
 * refuses to run as root, and the package made that user for it.
 */
const asServerUser = (binary: string, args: ReadonlyArray<string>) =>
  process.getuid?.() === 0
    ? {
        command: "setpriv",
        args: ["--reuid=postgres", "--regid=postgres", "--init-groups", binary, ...args]
      }
    : { command: binary, args: [...args] }

/** A loopback port nothing listens on now (PostgreSQL takes no port 0). */
const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const probe = createServer()
    probe.once("error", reject)
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address()
      probe.close(() => (typeof address === "object" && address !== null ? resolve(address.port) : reject()))
    })
  })

/**
 * Runs the server under a shell that stops it (a fast shutdown) when signalled, and also when its
 * standard input closes (when the test run that started it ends, even killed); then deletes its
 * folder, the first argument.
 */
const lifeline = `folder=$1; shift; exec 3<&0
"$@" </dev/null & server=$!
trap 'kill -INT $server 2>/dev/null' INT TERM
(cat <&3 >/dev/null; kill -INT $server 2>/dev/null) &
while kill -0 $server 2>/dev/null; do wait $server; done
rm -rf "$folder"`

export interface Postgres {
  /** `postgres://postgres@127.0.0.1:PORT/postgres`: the server's own database, to make others from. */
  readonly url: string
  /** Stops the server (a fast shutdown) and deletes its data. */
  readonly dispose: () => Promise<void>
}

/**
 * A PostgreSQL server of the tests' own: a cluster made by `initdb` in a fresh temporary folder
 * (owned by the server's user), listening on 127.0.0.1 only, on a free port, trusting loopback
 * connections, without durability (`fsync=off`: its data is thrown away at the end).
 */
export const startPostgres = async (): Promise<Postgres> => {
  if (!existsSync(bin("initdb"))) {
    throw new Error(
      "PostgreSQL 15 is missing: `apt-get install -y postgresql` (the tests start a server of their own)"
    )
  }
  const folder = mkdtempSync(join(tmpdir(), "roster-postgres-"))
  if (process.getuid?.() === 0) {
    const id = (flag: string) => Number(execFileSync("id", [flag, "postgres"], { encoding: "utf8" }))
    chownSync(folder, id("-u"), id("-g"))
  }
  const data = join(folder, "data")
  const initdb = asServerUser(bin("initdb"), [
    ...["-D", data, "-U", "postgres", "--auth=trust", "--encoding=UTF8", "--locale=C", "--no-sync"]
  ])
  execFileSync(initdb.command, initdb.args, { cwd: folder, stdio: "pipe" })
  const port = await freePort()
  const settings = {
    listen_addresses: "127.0.0.1",
    port: String(port),
    unix_socket_directories: folder,
    fsync: "off",
    synchronous_commit: "off",
    full_page_writes: "off",
    max_connections: "300"
  }
  const server = asServerUser(bin("postgres"), [
    ...["-D", data],
    ...Object.entries(settings).flatMap(([name, value]) => ["-c", `${name}=${value}`])
  ])
  const running = await startListening(
    "sh",
    ["-c", lifeline, "sh", folder, server.command, ...server.args],
    /port (\d+)[\s\S]*database system is ready to accept connections/
  )
  return {
    url: `postgres://postgres@127.0.0.1:${running.address}/postgres`,
    dispose: () => running.stop("SIGINT")
  }
}
