import { execFileSync } from "node:child_process"

export interface Sample {
  readonly name: string
  readonly labels: Readonly<Record<string, string>>
  readonly value: number
}

export interface Family {
  readonly name: string
  readonly type: string
  readonly samples: ReadonlyArray<Sample>
}

let installed = false

/** A scrape as the official Prometheus client's parser reads it (tools/prometheus): it throws on bad text. */
export const parsePrometheus = (text: string): ReadonlyArray<Family> => {
  if (!installed) {
    execFileSync("bash", ["tools/prometheus/setup.sh"], { stdio: "inherit" })
    installed = true
  }
  const json = execFileSync("tools/prometheus/.venv/bin/python", ["tools/prometheus/parse.py"], {
    input: text,
    encoding: "utf8"
  })
  return JSON.parse(json) as ReadonlyArray<Family>
}

/** The value of the sample named `name` whose labels include `labels`; undefined when there is none. */
export const sampleOf = (
  families: ReadonlyArray<Family>,
  name: string,
  labels: Readonly<Record<string, string>> = {}
) =>
  families
    .flatMap((family) => family.samples)
    .find(
      (sample) =>
        sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value)
    )?.value
