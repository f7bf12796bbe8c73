// The test command: the suites on Node (the in-memory store and MongoDB), then again on Bun for
// SQLite, whose driver is the runtime's own (bun:sqlite; Node 20 has none), as one run: the
// arguments go to both, and a JSON report asked for holds both runs' results.
import { spawnSync } from "node:child_process"
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"

const args = process.argv.slice(2)
const outputArg = args.find((arg) => /^--outputFile(\.json)?=/u.test(arg))
const output = outputArg?.slice(outputArg.indexOf("=") + 1)
const forwarded = args.filter((arg) => arg !== outputArg)
const named = forwarded.flatMap((arg, i) => (forwarded[i - 1] === "--project" ? [arg] : []))
const wants = (project) => named.length === 0 || named.includes(project)
const scratch = mkdtempSync(join(tmpdir(), "roster-test-"))

const runs = [
  {
    projects: ["roster", "http-on-mongodb"].filter(wants),
    command: "node",
    prefix: ["--import", "./test/support/node-compat.mjs"]
  },
  // Worker threads: vitest's forked workers need an IPC channel Bun's child processes lack.
  {
    projects: ["sqlite"].filter(wants),
    command: "node_modules/.bin/bun",
    prefix: ["--bun"],
    extra: ["--pool", "threads"]
  }
].filter((run) => run.projects.length > 0)

const withoutProjects = forwarded.filter((arg, i) => arg !== "--project" && forwarded[i - 1] !== "--project")
let status = 0
const reports = []
for (const [index, run] of runs.entries()) {
  const report = join(scratch, `report-${index}.json`)
  const result = spawnSync(
    run.command,
    [
      ...run.prefix,
      "node_modules/vitest/vitest.mjs",
      "run",
      "--passWithNoTests",
      ...run.projects.flatMap((project) => ["--project", project]),
      ...(run.extra ?? []),
      ...withoutProjects,
      ...(output === undefined ? [] : [`--outputFile.json=${report}`])
    ],
    { stdio: "inherit" }
  )
  if (result.status !== 0) status = result.status ?? 1
  if (output !== undefined && existsSync(report)) reports.push(JSON.parse(readFileSync(report, "utf8")))
}

if (output !== undefined) {
  const sum = (field) => reports.reduce((total, report) => total + (report[field] ?? 0), 0)
  const counts = Object.keys(reports[0] ?? {}).filter((field) => field.startsWith("num"))
  writeFileSync(
    output,
    JSON.stringify({
      ...Object.fromEntries(counts.map((field) => [field, sum(field)])),
      success: status === 0 && reports.every((report) => report.success),
      testResults: reports.flatMap((report) => report.testResults ?? [])
    })
  )
}
process.exit(status)
